// Column visibility only: the ledgers, ordered by the server, whose columns are all unsortable and which
// filter nothing in the browser.
import { columnVisibilityFeature, metaHelper, tableFeatures } from "@tanstack/react-table";
import type { DataTableColumnMeta } from "./column-meta";
import type { DataTableFeatures } from "./features";

// Typed as the fullest set (see features.ts): DataTable asks `sorts(table)`, the toolbar `filters(table)`.
export const plainTableFeatures = tableFeatures({
  columnVisibilityFeature,
  columnMeta: metaHelper<DataTableColumnMeta>(),
}) as unknown as DataTableFeatures;
