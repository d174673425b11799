"use client";
import { PagedTable, usePagedView } from "@/components/data-table/platform-paged-view";
import { fillChoices, fillsSearchParams } from "../search-params";
import { OrderIdSearch } from "../../_components/order-id-search";
import { fillColumns } from "./columns";

/** E4 fills of one symbol (and, with an order ID, of one order), page by page across a range. */
export function FillsView({ initialNow }: { initialNow: number }) {
  const view = usePagedView({
    operation: "fills.list",
    searchParams: fillsSearchParams,
    initialNow,
    columns: fillColumns,
    params: (q) => ({ symbol: q.symbol, ...(q.orderId ? { orderId: q.orderId } : {}) }),
  });
  const { q } = view;
  const rows = `${q.symbol} fills${q.orderId ? ` of order ${q.orderId}` : ""}`;
  return (
    <PagedTable
      view={view}
      label={rows}
      rowsNoun={rows}
      choices={fillChoices}
      controls={<OrderIdSearch value={q.orderId} onSearch={(orderId) => view.restart({ orderId })} />}
    />
  );
}
