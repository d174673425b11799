"use client";
import { useMemo } from "react";
import {
  functionalUpdate, useTable, type ColumnFiltersState, type ColumnVisibilityState, type RowData, type TableOptions,
} from "@tanstack/react-table";
import { dataTableFeatures, type DataTableFeatures, type DataTableInstance } from "./features";

/** The URL values of a page's client-side filters, keyed by column id (null = not filtered). */
export type FilterValues<K extends string> = Record<K, string | null>;

export type UseDataTableOptions<TData extends RowData, K extends string> = {
  data: TData[];
  /** From `dataColumnHelper<TData>().columns([...])`, at module scope so it is stable. */
  columns: TableOptions<DataTableFeatures, TData>["columns"];
  getRowId: (row: TData) => string;
  /** Filter state read from the URL; the table is controlled by it (STYLE rule 10). */
  filters?: FilterValues<K>;
  onFiltersChange?: (next: FilterValues<K>) => void;
  initialColumnVisibility?: ColumnVisibilityState;
};

/**
 * The table instance a page hands to <DataTable>. Sorting and column visibility belong to the table;
 * column filters belong to the URL, so they are controlled from it and written back through
 * `onFiltersChange` (never copied into component state).
 */
export function useDataTable<TData extends RowData, K extends string = never>(
  options: UseDataTableOptions<TData, K>,
): DataTableInstance<TData> {
  const { filters, onFiltersChange } = options;
  const filterKey = filters ? JSON.stringify(filters) : "";
  const columnFilters = useMemo<ColumnFiltersState>(
    () => (filters ? Object.entries(filters).flatMap(([id, value]) => (value ? [{ id, value }] : [])) : []),
    // The key is the content: a parent may build a new `filters` object on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [filterKey],
  );

  return useTable({
    features: dataTableFeatures,
    columns: options.columns,
    data: options.data,
    getRowId: options.getRowId,
    initialState: { columnVisibility: options.initialColumnVisibility ?? {} },
    state: { columnFilters },
    onColumnFiltersChange: (updater) => {
      if (!filters || !onFiltersChange) return;
      const next = functionalUpdate(updater, columnFilters);
      const values = Object.fromEntries(Object.keys(filters).map((k) => [k, null])) as FilterValues<K>;
      for (const f of next) {
        if (f.id in values && typeof f.value === "string" && f.value !== "") values[f.id as K] = f.value;
      }
      onFiltersChange(values);
    },
    enableMultiSort: false,
  });
}
