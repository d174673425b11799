"use client";
// A list the platform answers whole (E2 assets, E11 OI limits): no pages, asked again by Refresh, its count
// said under the table with "refreshing…" while the new answer is on its way. A view is a configuration:
// its table, its request controls and its words.
import type { ReactNode } from "react";
import type { RowData } from "@tanstack/react-table";
import { DataTable, type DataTableStatus } from "./data-table";
import { DataTableToolbar } from "./data-table-toolbar";
import { DataTableEmpty, DataTableError } from "./data-table-states";
import type { DataTableInstance } from "./features";
import { RefreshButton } from "./refresh-button";

type Refetchable = { refetch: () => unknown; isFetching: boolean; error: unknown };

export function WholeListTable<TData extends RowData>({
  table, label, query, status, controls, refreshable = true, errorState, blockedState, empty, count,
}: {
  table: DataTableInstance<TData>;
  /** The table's accessible name. */
  label: string;
  query: Refetchable;
  status: DataTableStatus;
  /** The controls that shape the request. */
  controls: ReactNode;
  /** false while there is nothing to ask again (no sub-account chosen yet). */
  refreshable?: boolean;
  /** Instead of the query's own error (the sub-account list's, when that failed first). */
  errorState?: ReactNode;
  blockedState?: ReactNode;
  empty: ReactNode;
  /** What was loaded, said under the table once it has been. */
  count: ReactNode;
}) {
  return (
    <DataTable
      table={table}
      label={label}
      status={status}
      busy={query.isFetching}
      toolbar={
        <DataTableToolbar table={table} actions={<RefreshButton query={query} disabled={!refreshable} />}>
          {controls}
        </DataTableToolbar>
      }
      errorState={errorState ?? <DataTableError error={query.error} onRetry={() => void query.refetch()} />}
      blockedState={blockedState}
      emptyState={<DataTableEmpty>{empty}</DataTableEmpty>}
      pager={
        status === "success" ? (
          <p className="text-sm text-slate-700 dark:text-slate-300" aria-live="polite">
            {count}
            {query.isFetching ? " · refreshing…" : ""}
          </p>
        ) : null
      }
    />
  );
}
