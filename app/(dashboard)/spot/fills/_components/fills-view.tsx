"use client";
import { useQueryStates } from "nuqs";
import { PagedTable, usePagedView } from "@/components/data-table/platform-paged-view";
import { OPERATION_PAGING } from "@/lib/platform/catalog/paging";
import { FILL_PAGE_SIZES, FILL_RANGE_PRESETS, FILL_SYMBOLS, fillsSearchParams } from "../search-params";
import { OrderIdSearch } from "../../_components/order-id-search";
import { fillColumns } from "./columns";

/** E4 fills of one symbol (and, with an order ID, of one order), page by page across a range. */
export function FillsView({ initialNow }: { initialNow: number }) {
  const url = useQueryStates(fillsSearchParams, { history: "push" });
  const [q] = url;
  const view = usePagedView({
    operation: "fills.list",
    url,
    initialNow,
    maxLimit: OPERATION_PAGING["fills.list"].limit.max,
    columns: fillColumns,
    getRowId: (r) => r.tradeId,
    params: { symbol: q.symbol, ...(q.orderId ? { orderId: q.orderId } : {}) },
  });
  const ofOrder = q.orderId ? ` of order ${q.orderId}` : "";
  return (
    <PagedTable
      view={view}
      label={`${q.symbol} fills${ofOrder}`}
      rowsNoun={`${q.symbol} fills${ofOrder}`}
      symbols={FILL_SYMBOLS}
      presets={FILL_RANGE_PRESETS}
      pageSizes={FILL_PAGE_SIZES}
      controls={<OrderIdSearch value={q.orderId} onSearch={(orderId) => view.restart({ orderId })} />}
    />
  );
}
