"use client";
import { useMemo, useState } from "react";
import {
  functionalUpdate,
  useTable,
  type ColumnFiltersState,
  type ColumnVisibilityState,
  type RowData,
  type TableOptions,
} from "@tanstack/react-table";
import type { DataTableFeatures, DataTableInstance } from "./features";
import { columnsToDrop, useChosenColumns } from "./column-fit";
import { useTimeZone } from "./time";

// DataTable measures the table's width and hands it to the hook that made the table.
const widthReporters = new WeakMap<object, (width: number) => void>();
export function reportTableWidth(table: object, width: number): void {
  widthReporters.get(table)?.(width);
}

/**
 * The URL keys of a table's filters, from its columns' meta (as tablecn's use-data-table derives them):
 * every column whose meta declares a filter is filtered by the URL key of its id.
 */
export function filterKeysOf(columns: readonly unknown[]): string[] {
  return (columns as { id?: string; accessorKey?: string; meta?: { filter?: unknown } }[])
    .flatMap((c) => (c.meta?.filter ? [c.id ?? c.accessorKey ?? ""] : []))
    .filter(Boolean);
}

function urlFilters(columns: readonly unknown[], [q, setQ]: NonNullable<UseDataTableOptions<never, string>["url"]>) {
  const keys = filterKeysOf(columns);
  return {
    filters: Object.fromEntries(
      keys.map((k) => [k, (q[k] as string | null | undefined) ?? null]),
    ) as FilterValues<string>,
    onFiltersChange: (next: FilterValues<string>) => void setQ(next),
  };
}

/** The URL values of a page's client-side filters, keyed by column id (null = not filtered). */
type FilterValues<K extends string> = Record<K, string | null>;

export type UseDataTableOptions<TData extends RowData, K extends string> = {
  /** The set the list uses (features.ts): features-filtering, features-sorting or features-plain. */
  features: DataTableFeatures;
  data: TData[];
  /** From `dataColumnHelper<TData>().columns([...])`, at module scope so it is stable. */
  columns: TableOptions<DataTableFeatures, TData>["columns"];
  getRowId: (row: TData) => string;
  /** Filter state read from the URL; the table is controlled by it (STYLE rule 10). */
  filters?: FilterValues<K>;
  onFiltersChange?: (next: FilterValues<K>) => void;
  /**
   * The page's URL state and its setter (nuqs), when its filters keep the URL keys of the filtered columns'
   * ids (filterKeysOf): `filters` and `onFiltersChange` are then derived from them.
   */
  url?: readonly [Record<string, unknown>, (patch: Record<string, string | null>) => unknown];
  initialColumnVisibility?: ColumnVisibilityState;
  /** Names the table for the person's column choices, kept in this browser ("withdrawal-ledger"). */
  persistKey?: string;
};

/**
 * The table instance a page hands to <DataTable>. Sorting and column visibility belong to the table;
 * column filters belong to the URL, so they are controlled from it and written back through
 * `onFiltersChange` (never copied into component state).
 */
export function useDataTable<TData extends RowData, K extends string = never>(
  options: UseDataTableOptions<TData, K>,
): DataTableInstance<TData> {
  const { filters, onFiltersChange } = options.url ? urlFilters(options.columns, options.url) : options;
  const filterKey = filters ? JSON.stringify(filters) : "";
  const columnFilters = useMemo<ColumnFiltersState>(
    () => (filters ? Object.entries(filters).flatMap(([id, value]) => (value ? [{ id, value }] : [])) : []),
    // The key is the content: a parent may build a new `filters` object on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [filterKey],
  );

  const [width, setWidth] = useState<number | null>(null);
  const [chosen, choose] = useChosenColumns(options.persistKey);
  const { mode } = useTimeZone();
  const base = options.initialColumnVisibility ?? {};
  const dropped = columnsToDrop(
    options.columns as Parameters<typeof columnsToDrop>[0],
    width,
    chosen,
    base,
    mode === "local",
  );
  const visibilityKey = JSON.stringify({ ...base, ...dropped, ...chosen });
  // Keyed by content, as the filters are: a new state object on every render makes the table render again.
  const columnVisibility = useMemo<ColumnVisibilityState>(
    () => JSON.parse(visibilityKey) as ColumnVisibilityState,
    [visibilityKey],
  );

  const table = useTable({
    features: options.features,
    columns: options.columns,
    data: options.data,
    getRowId: options.getRowId,
    state: { columnFilters, columnVisibility },
    // What the person turns on or off is theirs from then on; the rest keeps fitting the width.
    onColumnVisibilityChange: (updater) => {
      const next = functionalUpdate(updater, columnVisibility);
      const mine = { ...chosen };
      for (const [id, visible] of Object.entries(next)) if (visible !== columnVisibility[id]) mine[id] = visible;
      choose(mine);
    },
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
  widthReporters.set(table, (w) => setWidth((old) => (old === w ? old : w)));
  return table;
}
