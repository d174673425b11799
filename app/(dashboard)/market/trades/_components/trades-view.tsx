"use client";
import dynamic from "next/dynamic";
import { PagedTable, usePagedView } from "@/components/data-table/platform-paged-view";
import { tradeChoices, tradesSearchParams } from "../search-params";
import { tradeColumns } from "./columns";
import { counted } from "@/lib/format";

// Drawn only once trades have arrived (never in the server render), so the chart's code loads then.
const LineChart = dynamic(() => import("@/components/charts/line-chart").then((m) => m.LineChart));

/** E8 public trades of one symbol, page by page across a range, with the price of the loaded trades. */
export function TradesView({ initialNow }: { initialNow: number }) {
  const view = usePagedView({
    operation: "market.trades",
    searchParams: tradesSearchParams,
    initialNow,
    columns: tradeColumns,
  });
  const {
    q: { symbol },
    paged,
  } = view;
  return (
    <PagedTable
      view={view}
      label={`${symbol} market trades`}
      rowsNoun={`${symbol} trades`}
      choices={tradeChoices}
      after={
        paged.status === "success" && paged.rows.length > 1 ? (
          <LineChart
            title={`${symbol} price, ${counted(paged.rows.length, "loaded trade")}`}
            points={paged.rows.map((r) => ({ t: Number(r.ts), value: r.price }))}
          />
        ) : null
      }
    />
  );
}
