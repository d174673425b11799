"use client";
import { useQueryStates } from "nuqs";
import { PagedTable, usePagedView } from "@/components/data-table/platform-paged-view";
import { SearchForm } from "@/components/data-table/search-form";
import { OPERATION_PAGING } from "@/lib/platform/catalog/paging";
import { FILL_PAGE_SIZES, FILL_RANGE_PRESETS, FILL_SYMBOLS, fillsSearchParams } from "../search-params";
import { fillColumns } from "./columns";

const ORDER_ID = /^\d{1,32}$/;

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
      controls={
        <SearchForm
          key={q.orderId ?? ""}
          label="Order ID (empty = all)"
          value={q.orderId ?? ""}
          numeric
          validate={(v) => (ORDER_ID.test(v) ? null : "An order ID is digits only")}
          onSearch={(orderId) => view.restart({ orderId: orderId || null })}
        />
      }
    />
  );
}
