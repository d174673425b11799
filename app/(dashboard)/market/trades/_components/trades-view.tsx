"use client";
import { useId, useState } from "react";
import dynamic from "next/dynamic";
import { useQueryStates } from "nuqs";
import { marketTrades } from "@/lib/platform/catalog";
import { formatUtc } from "@/lib/format";
import { pageMovePatch, resolveRange, type PageStack } from "@/lib/client/paging";
import { usePagedPlatformQuery, type PageMove } from "@/lib/client/use-paged-platform-query";
import { DataTable } from "@/components/data-table/data-table";
import { DataTableToolbar } from "@/components/data-table/data-table-toolbar";
import { DataTablePager, pagerPropsOf } from "@/components/data-table/data-table-pager";
import { DataTableBlocked, DataTableEmpty, DataTableError } from "@/components/data-table/data-table-states";
import { RangePicker, type RangePatch } from "@/components/data-table/range-picker";
import { ExportButton } from "@/components/data-table/export-button";
import { TimeZoneProvider } from "@/components/data-table/time";
import { useDataTable } from "@/components/data-table/use-data-table";
import { TRADE_PAGE_SIZES, TRADE_RANGE_PRESETS, TRADE_SYMBOLS, tradesSearchParams } from "../search-params";
import { tradeColumns } from "./columns";
import { SymbolPicker } from "@/components/data-table/symbol-picker";
import { PageSizeSelect } from "@/components/data-table/page-size-select";

// Drawn only once trades have arrived (never in the server render), so the chart's code loads then.
const LineChart = dynamic(() => import("@/components/charts/line-chart").then((m) => m.LineChart));

const MAX_LIMIT = marketTrades.paging?.limit.max ?? 1000;

export function TradesView({ initialNow }: { initialNow: number }) {
  const id = useId();
  const [q, setQ] = useQueryStates(tradesSearchParams, { history: "push" });
  // The instant presets count back from; "Latest" moves it to the present.
  const [now, setNow] = useState(initialNow);
  const limit = Math.min(Math.max(1, q.limit), MAX_LIMIT);
  const range = resolveRange({ range: q.range, from: q.from, to: q.to, at: q.at }, now);

  const paged = usePagedPlatformQuery({
    operation: "market.trades",
    params: { symbol: q.symbol },
    range,
    limit,
    stack: q.p,
    now,
    onNavigate: (next: PageStack, move: PageMove) => {
      if (move === "latest") setNow(Date.now());
      void setQ(pageMovePatch(q, now, next, move));
    },
  });

  const table = useDataTable({
    data: paged.rows,
    columns: tradeColumns,
    getRowId: (r) => r.tradeId,
    filters: { side: q.side },
    onFiltersChange: (f) => void setQ(f),
  });

  const resetPaging = { p: null, at: null } as const;
  const win = paged.window;
  const between = win ? `between ${formatUtc(win.startTime)} and ${formatUtc(win.endTime)}` : "";
  const exportParams =
    "problem" in range ? null : { symbol: q.symbol, startTime: String(range.start), endTime: String(range.end) };

  return (
    <TimeZoneProvider>
      <div className="space-y-4">
        <DataTable
          table={table}
          label={`${q.symbol} market trades`}
          status={paged.status}
          busy={paged.isFetching}
          toolbar={
            <DataTableToolbar
              table={table}
              actions={
                <ExportButton operation="market.trades" params={exportParams ?? {}} disabled={!exportParams || paged.status === "blocked"} />
              }
            >
              <SymbolPicker key={q.symbol} symbols={TRADE_SYMBOLS} value={q.symbol} onChange={(symbol) => void setQ({ symbol, ...resetPaging })} />
              <RangePicker
                value={{ range: q.range, from: q.from, to: q.to, at: q.at }}
                presets={TRADE_RANGE_PRESETS}
                resolved={"problem" in range ? null : range}
                onChange={(patch: RangePatch) => void setQ({ ...patch, p: null })}
              />
              <PageSizeSelect id={`${id}-limit`} sizes={TRADE_PAGE_SIZES} value={limit} onChange={(size) => void setQ({ limit: size, ...resetPaging })} />
            </DataTableToolbar>
          }
          errorState={<DataTableError error={paged.error} onRetry={paged.retry} />}
          blockedState={<DataTableBlocked>{paged.blockedReason}</DataTableBlocked>}
          emptyState={
            <DataTableEmpty>
              No {q.symbol} trades {between} UTC
              {paged.position.cursor ? " older than the previous page" : ""}
              {paged.canOlder ? " — Older looks further back." : "."}
            </DataTableEmpty>
          }
          pager={
            <DataTablePager {...pagerPropsOf(paged, table.getRowModel().rows.length)} />
          }
        />
        {paged.status === "success" && paged.rows.length > 1 ? (
          <LineChart
            title={`${q.symbol} price, ${paged.rows.length} loaded trades`}
            points={paged.rows.map((r) => ({ t: Number(r.ts), value: r.price }))}
          />
        ) : null}
      </div>
    </TimeZoneProvider>
  );
}
