"use client";
// A list answered whole: the platform's (E2 assets, E11 OI limits) or Brokerdesk's own (the risk-unit
// bindings, the leverage history). No pages, asked again by Refresh, filtered and sorted in the browser, its
// count said under the table with "refreshing…" while the new answer is on its way. A view is a
// configuration: its table, its request controls and its words.
import type { ReactNode } from "react";
import type { UseQueryResult } from "@tanstack/react-query";
import type { RowData } from "@tanstack/react-table";
import { DataTable } from "./data-table";
import { queryStatus } from "./server-page";
import { DataTableToolbar } from "./data-table-toolbar";
import { DataTableBlocked, DataTableEmpty, DataTableError, type Gate } from "./data-table-states";
import type { DataTableInstance } from "./features";
import { RefreshButton } from "./refresh-button";

export function WholeListTable<TData extends RowData>({
  table,
  label,
  query,
  gate,
  controls,
  refreshable = true,
  empty,
  count,
  maxHeight,
}: {
  table: DataTableInstance<TData>;
  /** The table's accessible name. */
  label: string;
  query: UseQueryResult<unknown, unknown>;
  /** What must be known before the query can ask (whose assets?), while it is not: the table's state then. */
  gate?: Gate | null;
  /** The controls that shape the request. */
  controls?: ReactNode;
  /** false while there is nothing to ask again (no sub-account chosen yet). */
  refreshable?: boolean;
  empty: ReactNode;
  /** What was loaded, said under the table once it has been (null: nothing to say, the empty words say it). */
  count: ReactNode;
  /** How tall the table may grow before it scrolls (DataTable's default unless said). */
  maxHeight?: string;
}) {
  const status = gate?.status ?? queryStatus(query);
  return (
    <DataTable
      table={table}
      label={label}
      maxHeight={maxHeight}
      status={status}
      busy={query.isFetching}
      toolbar={
        <DataTableToolbar table={table} actions={<RefreshButton query={query} disabled={!refreshable} />}>
          {controls}
        </DataTableToolbar>
      }
      errorState={
        gate?.status === "error" ? (
          <DataTableError error={gate.error} onRetry={gate.onRetry} />
        ) : (
          <DataTableError error={query.error} onRetry={() => void query.refetch()} />
        )
      }
      blockedState={gate?.status === "blocked" ? <DataTableBlocked>{gate.reason}</DataTableBlocked> : undefined}
      emptyState={<DataTableEmpty>{empty}</DataTableEmpty>}
      pager={
        status === "success" && count !== null ? (
          <p className="text-sm text-slate-700 dark:text-slate-300" aria-live="polite">
            {count}
            {query.isFetching ? " · refreshing…" : ""}
          </p>
        ) : null
      }
    />
  );
}
