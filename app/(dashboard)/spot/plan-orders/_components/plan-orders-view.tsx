"use client";
import { useId, useState } from "react";
import { useQueryStates } from "nuqs";
import { planOrdersHistory } from "@/lib/platform/catalog";
import { formatUtc } from "@/lib/format";
import { pageMovePatch, resolveRange, type PageStack } from "@/lib/client/paging";
import { usePagedPlatformQuery, type PageMove } from "@/lib/client/use-paged-platform-query";
import { DataTable } from "@/components/data-table/data-table";
import { DataTableToolbar } from "@/components/data-table/data-table-toolbar";
import { DataTablePager, pagerPropsOf } from "@/components/data-table/data-table-pager";
import { DataTableBlocked, DataTableEmpty, DataTableError } from "@/components/data-table/data-table-states";
import { RangePicker, type RangePatch } from "@/components/data-table/range-picker";
import { ExportButton } from "@/components/data-table/export-button";
import { SymbolPicker } from "@/components/data-table/symbol-picker";
import { TimeZoneProvider } from "@/components/data-table/time";
import { useDataTable } from "@/components/data-table/use-data-table";
import { PLAN_ORDER_PAGE_SIZES, PLAN_ORDER_RANGE_PRESETS, PLAN_ORDER_SYMBOLS, planOrdersSearchParams } from "../search-params";
import { planOrderColumns } from "./columns";
import { PageSizeSelect } from "@/components/data-table/page-size-select";

const MAX_LIMIT = planOrdersHistory.paging?.limit.max ?? 100;

export function PlanOrdersView({ initialNow }: { initialNow: number }) {
  const id = useId();
  const [q, setQ] = useQueryStates(planOrdersSearchParams, { history: "push" });
  // The instant presets count back from; "Latest" moves it to the present.
  const [now, setNow] = useState(initialNow);
  const limit = Math.min(Math.max(1, q.limit), MAX_LIMIT);
  const range = resolveRange({ range: q.range, from: q.from, to: q.to, at: q.at }, now);

  const paged = usePagedPlatformQuery({
    operation: "planOrders.history",
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
    columns: planOrderColumns,
    getRowId: (r) => r.orderId,
    filters: { status: q.status, side: q.side },
    onFiltersChange: (f) => void setQ(f),
  });

  const resetPaging = { p: null, at: null } as const;
  const win = paged.window;
  const between = win ? ` between ${formatUtc(win.startTime)} and ${formatUtc(win.endTime)}` : "";
  const filtered = paged.rows.length > 0 ? " (none left after the filters on the loaded rows)" : "";
  const exportParams =
    "problem" in range ? null : { symbol: q.symbol, startTime: String(range.start), endTime: String(range.end) };

  return (
    <TimeZoneProvider>
      <DataTable
        table={table}
        label={`${q.symbol} plan orders`}
        status={paged.status}
        busy={paged.isFetching}
        toolbar={
          <DataTableToolbar
            table={table}
            actions={
              <ExportButton
                operation="planOrders.history"
                params={exportParams ?? {}}
                disabled={!exportParams || paged.status === "blocked"}
              />
            }
          >
            <SymbolPicker
              key={q.symbol}
              symbols={PLAN_ORDER_SYMBOLS}
              value={q.symbol}
              onChange={(symbol) => void setQ({ symbol, ...resetPaging })}
            />
            <RangePicker
              value={{ range: q.range, from: q.from, to: q.to, at: q.at }}
              presets={PLAN_ORDER_RANGE_PRESETS}
              resolved={"problem" in range ? null : range}
              onChange={(patch: RangePatch) => void setQ({ ...patch, p: null })}
            />
            <PageSizeSelect id={`${id}-limit`} sizes={PLAN_ORDER_PAGE_SIZES} value={limit} onChange={(size) => void setQ({ limit: size, ...resetPaging })} />
          </DataTableToolbar>
        }
        errorState={<DataTableError error={paged.error} onRetry={paged.retry} />}
        blockedState={<DataTableBlocked>{paged.blockedReason}</DataTableBlocked>}
        emptyState={
          <DataTableEmpty>
            No {q.symbol} plan orders{between}
            {between ? " UTC" : ""}
            {paged.position.cursor ? " older than the previous page" : ""}
            {filtered}
            {paged.canOlder ? " — Older looks further back." : "."}
          </DataTableEmpty>
        }
        pager={
          <DataTablePager {...pagerPropsOf(paged, table.getRowModel().rows.length)} />
        }
      />
    </TimeZoneProvider>
  );
}
