// Sorting and column visibility: the lists that sort their loaded rows and filter nothing in the browser.
import {
  columnVisibilityFeature,
  createSortedRowModel,
  metaHelper,
  rowSortingFeature,
  tableFeatures,
} from "@tanstack/react-table";
import type { DataTableColumnMeta } from "./column-meta";
import type { DataTableFeatures } from "./features";
import { dataTableSortFns } from "./sort-fns";

// Typed as the fullest set (see features.ts): the toolbar asks `filters(table)` before it draws a filter.
export const sortingTableFeatures = tableFeatures({
  rowSortingFeature,
  columnVisibilityFeature,
  sortedRowModel: createSortedRowModel(),
  sortFns: dataTableSortFns,
  columnMeta: metaHelper<DataTableColumnMeta>(),
}) as unknown as DataTableFeatures;
