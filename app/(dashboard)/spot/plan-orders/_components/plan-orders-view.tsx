"use client";
import { PagedTable, usePagedView } from "@/components/data-table/platform-paged-view";
import { planOrderChoices, planOrdersSearchParams } from "../search-params";
import { planOrderColumns } from "./columns";

/** E3 plan-order history of one symbol, page by page across a range. */
export function PlanOrdersView({ initialNow }: { initialNow: number }) {
  const view = usePagedView({
    operation: "planOrders.history",
    searchParams: planOrdersSearchParams,
    initialNow,
    columns: planOrderColumns,
  });
  const rows = `${view.q.symbol} plan orders`;
  return <PagedTable view={view} label={rows} rowsNoun={rows} choices={planOrderChoices} />;
}
