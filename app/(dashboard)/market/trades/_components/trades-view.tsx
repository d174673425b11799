"use client";
import dynamic from "next/dynamic";
import { useQueryStates } from "nuqs";
import { PagedTable, usePagedView } from "@/components/data-table/platform-paged-view";
import { OPERATION_PAGING } from "@/lib/platform/catalog/paging";
import { TRADE_PAGE_SIZES, TRADE_RANGE_PRESETS, TRADE_SYMBOLS, tradesSearchParams } from "../search-params";
import { tradeColumns } from "./columns";

// Drawn only once trades have arrived (never in the server render), so the chart's code loads then.
const LineChart = dynamic(() => import("@/components/charts/line-chart").then((m) => m.LineChart));

/** E8 public trades of one symbol, page by page across a range, with the price of the loaded trades. */
export function TradesView({ initialNow }: { initialNow: number }) {
  const url = useQueryStates(tradesSearchParams, { history: "push" });
  const view = usePagedView({
    operation: "market.trades",
    url,
    initialNow,
    maxLimit: OPERATION_PAGING["market.trades"].limit.max,
    columns: tradeColumns,
    getRowId: (r) => r.tradeId,
  });
  const { symbol } = url[0];
  const { paged } = view;
  return (
    <PagedTable
      view={view}
      label={`${symbol} market trades`}
      rowsNoun={`${symbol} trades`}
      symbols={TRADE_SYMBOLS}
      presets={TRADE_RANGE_PRESETS}
      pageSizes={TRADE_PAGE_SIZES}
      after={
        paged.status === "success" && paged.rows.length > 1 ? (
          <LineChart title={`${symbol} price, ${paged.rows.length} loaded trades`} points={paged.rows.map((r) => ({ t: Number(r.ts), value: r.price }))} />
        ) : null
      }
    />
  );
}
