// The one feature set every Brokerdesk list uses (TanStack Table v9 registers features explicitly).
// Sorting and filtering run on the loaded rows only: the platform pages by cursor and has no sort.
import {
  columnFilteringFeature, columnVisibilityFeature, constructSortFn, createColumnHelper, createFilteredRowModel,
  createSortedRowModel, filterFn_equalsString, filterFn_includesString, metaHelper, rowSortingFeature, sortFn_text,
  tableFeatures, type ReactTable, type RowData,
} from "@tanstack/react-table";
import { compareDecimal } from "@/lib/client/compare-decimal";

export type ColumnFilterMeta =
  | { kind: "select"; /** Fixed choices; without them the toolbar offers the values in the loaded rows. */ options?: readonly string[] }
  | { kind: "text"; placeholder?: string };

export type DataTableColumnMeta = {
  /** Header text, also used by the column menu and the filter labels. */
  label: string;
  /** Right-aligned tabular figures (amounts, prices, sizes). */
  numeric?: boolean;
  /** Width in px: the virtualised body needs a fixed layout so columns do not jump while scrolling. */
  width?: number;
  /** Holds times (TimeCell): wider in local time, whose offset ("UTC+05:30") is longer than "UTC". */
  time?: boolean;
  /** 1 (or none): always shown; 2: hidden when the table is too narrow; 3: hidden first (column-fit.ts). */
  priority?: 1 | 2 | 3;
  filter?: ColumnFilterMeta;
};

// Amounts, IDs and ms timestamps are all digit strings: compare them as decimals, never as floats.
const decimal = constructSortFn({ sort: (a: unknown, b: unknown) => compareDecimal(String(a ?? ""), String(b ?? "")) });

export const dataTableFeatures = tableFeatures({
  rowSortingFeature,
  columnFilteringFeature,
  columnVisibilityFeature,
  filteredRowModel: createFilteredRowModel(),
  sortedRowModel: createSortedRowModel(),
  sortFns: { decimal, text: sortFn_text },
  filterFns: { equalsString: filterFn_equalsString, includesString: filterFn_includesString },
  columnMeta: metaHelper<DataTableColumnMeta>(),
});

export type DataTableFeatures = typeof dataTableFeatures;
export type DataTableInstance<TData extends RowData> = ReactTable<DataTableFeatures, TData>;

/** Column helper bound to the shared features: `const col = dataColumnHelper<MarketTrade>()`. */
export function dataColumnHelper<TData extends RowData>() {
  return createColumnHelper<DataTableFeatures, TData>();
}
