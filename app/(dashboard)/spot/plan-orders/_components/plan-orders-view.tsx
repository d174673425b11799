"use client";
import { useQueryStates } from "nuqs";
import { PagedTable, usePagedView } from "@/components/data-table/platform-paged-view";
import { OPERATION_PAGING } from "@/lib/platform/catalog/paging";
import { PLAN_ORDER_PAGE_SIZES, PLAN_ORDER_RANGE_PRESETS, PLAN_ORDER_SYMBOLS, planOrdersSearchParams } from "../search-params";
import { planOrderColumns } from "./columns";

/** E3 plan-order history of one symbol, page by page across a range. */
export function PlanOrdersView({ initialNow }: { initialNow: number }) {
  const url = useQueryStates(planOrdersSearchParams, { history: "push" });
  const view = usePagedView({
    operation: "planOrders.history",
    url,
    initialNow,
    maxLimit: OPERATION_PAGING["planOrders.history"].limit.max,
    columns: planOrderColumns,
    getRowId: (r) => r.orderId,
  });
  const { symbol } = url[0];
  return (
    <PagedTable
      view={view}
      label={`${symbol} plan orders`}
      rowsNoun={`${symbol} plan orders`}
      symbols={PLAN_ORDER_SYMBOLS}
      presets={PLAN_ORDER_RANGE_PRESETS}
      pageSizes={PLAN_ORDER_PAGE_SIZES}
    />
  );
}
