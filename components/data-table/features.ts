// What every Brokerdesk list shares: the column meta, the column helper and the table type. TanStack Table v9
// registers features explicitly, and a list loads only the set it uses (page weight):
//   features-filtering.ts  sorting, filtering and column visibility: lists with a `meta.filter` column
//   features-sorting.ts    sorting and column visibility: lists that sort their loaded rows
//   features-plain.ts      column visibility: the ledgers, which the server orders (every column unsortable)
// Sorting and filtering run on the loaded rows only: the platform pages by cursor and has no sort.
import { createColumnHelper, type ReactTable, type RowData } from "@tanstack/react-table";
import type { filteringTableFeatures } from "./features-filtering";

export type { ColumnFilterMeta, DataTableColumnMeta } from "./column-meta";

/**
 * Every list is typed with the fullest set, so one DataTable, toolbar and column helper serve them all. A
 * lighter set lacks the sorting or filtering APIs at run time: the shared parts ask `sorts` and `filters`
 * before calling them.
 */
export type DataTableFeatures = typeof filteringTableFeatures;
export type DataTableInstance<TData extends RowData> = ReactTable<DataTableFeatures, TData>;

/** Whether the table registered sorting (features-sorting or features-filtering). */
export function sorts(table: { _features: object }): boolean {
  return "rowSortingFeature" in table._features;
}

/** Whether the table registered column filtering (features-filtering). */
export function filters(table: { _features: object }): boolean {
  return "columnFilteringFeature" in table._features;
}

/** Column helper bound to the shared features: `const col = dataColumnHelper<MarketTrade>()`. */
export function dataColumnHelper<TData extends RowData>() {
  return createColumnHelper<DataTableFeatures, TData>();
}
