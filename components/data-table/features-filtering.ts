// Sorting, filtering and column visibility: the lists with a `meta.filter` column (the toolbar's filters on
// the loaded rows). Its type is every list's (features.ts).
import {
  columnFilteringFeature,
  columnVisibilityFeature,
  createFilteredRowModel,
  createSortedRowModel,
  filterFn_equalsString,
  filterFn_includesString,
  metaHelper,
  rowSortingFeature,
  tableFeatures,
} from "@tanstack/react-table";
import type { DataTableColumnMeta } from "./column-meta";
import { dataTableSortFns } from "./sort-fns";

export const filteringTableFeatures = tableFeatures({
  rowSortingFeature,
  columnFilteringFeature,
  columnVisibilityFeature,
  filteredRowModel: createFilteredRowModel(),
  sortedRowModel: createSortedRowModel(),
  sortFns: dataTableSortFns,
  filterFns: { equalsString: filterFn_equalsString, includesString: filterFn_includesString },
  columnMeta: metaHelper<DataTableColumnMeta>(),
});
