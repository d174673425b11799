"use client";
// One paged view of a platform operation: the wiring every symbol-and-range page shared
// (the clock presets count back from, the range, the page stack in the URL, the table controlled by the
// URL's filters, export parameters, and the empty, blocked and error states), written once. A page is a
// configuration: its operation, columns, URL parsers and the words for its rows. A view without symbols
// (E1's deposits, by sub-account or record ID) says its parameters, and what must be known before it asks.
import { useId, useState, type ReactNode } from "react";
import { useQueryStates, type UseQueryStatesKeysMap, type Values } from "nuqs";
import type { RowData, TableOptions } from "@tanstack/react-table";
import { formatUtc } from "@/lib/format";
import { OPERATION_PAGING } from "@/lib/platform/catalog/paging";
import {
  pageMovePatch,
  resolveRange,
  type PagePosition,
  type PageStack,
  type RangeChoice,
  type RangePreset,
} from "@/lib/client/paging";
import { usePagedPlatformQuery, type PageMove, type PagedQueryResult } from "@/lib/client/use-paged-platform-query";
import { DataTable } from "./data-table";
import { DataTablePager, pagerPropsOf } from "./data-table-pager";
import { DataTableBlocked, DataTableEmpty, DataTableError, type Gate } from "./data-table-states";
import { DataTableToolbar } from "./data-table-toolbar";
import { ExportButton } from "./export-button";
import type { DataTableFeatures, DataTableInstance } from "./features";
import { PageSizeSelect } from "./page-size-select";
import { RangePicker, type RangePatch } from "./range-picker";
import { SymbolPicker } from "./symbol-picker";
import { useDataTable } from "./use-data-table";
import { filteringTableFeatures } from "./features-filtering";
import { BadUrlTimes } from "./bad-url-times";

/** The URL state every paged view has (lib/client/paging-search-params.ts), plus its own keys. */
export type PagedUrlState = {
  /** The trading pair, on the views that have one (not E1's). */
  symbol?: string;
  limit: number;
  range: RangeChoice;
  from: number | null;
  to: number | null;
  at: number | null;
  p: PagePosition[];
};

/** The operations that page (lib/platform/catalog/paging.ts): their page-size bound and row IDs are read from there. */
export type PagedOperationId = keyof typeof OPERATION_PAGING;

export type PagedViewConfig<Id extends PagedOperationId, Row extends RowData, P extends UseQueryStatesKeysMap> = {
  operation: Id;
  /** The page's URL parsers (its search-params.ts): the paging keys of PagedUrlState and its own. */
  searchParams: P;
  initialNow: number;
  /** The operation's row type (RowOf<Id>) is what these columns read. */
  columns: TableOptions<DataTableFeatures, Row>["columns"];
  /**
   * Server-side parameters other than time, limit and cursor, from the URL state; symbol when left out. Null
   * while the view cannot know whom to ask about (nothing is asked then; the page says why with `gate`).
   */
  params?: (q: Values<P>) => Record<string, string> | null;
  /** Where the person's column choices are kept; the operation's id unless said. */
  persistKey?: string;
};

export type PagedView<Id extends PagedOperationId, Row extends RowData, Q extends PagedUrlState> = {
  q: Q;
  setQ: (patch: Partial<Record<string, unknown>>) => void;
  operation: Id;
  limit: number;
  paged: PagedQueryResult<Row>;
  table: DataTableInstance<Row>;
  /** Export parameters of the whole range, or null while the range is not valid. */
  exportParams: Record<string, string> | null;
  /** " between … UTC and … UTC" of the window shown (formatUtc says the zone), or "". */
  between: string;
  /** Writes a change that starts the walk again from the newest page. */
  restart: (patch: Partial<Record<string, unknown>>) => void;
  range: ReturnType<typeof resolveRange>;
};

export function usePagedView<Id extends PagedOperationId, Row extends RowData, P extends UseQueryStatesKeysMap>(
  config: PagedViewConfig<Id, Row, P>,
): PagedView<Id, Row, Values<P> & PagedUrlState> {
  type Q = Values<P> & PagedUrlState;
  const [values, setUrl] = useQueryStates(config.searchParams, { history: "push" });
  const q = values as Q;
  const setQ = (patch: Partial<Record<string, unknown>>) => void setUrl(patch as never);
  const paging = OPERATION_PAGING[config.operation];
  // The instant presets count back from; "Latest" moves it to the present.
  const [now, setNow] = useState(config.initialNow);
  const limit = Math.min(Math.max(1, q.limit), paging.limit.max);
  const range = resolveRange({ range: q.range, from: q.from, to: q.to, at: q.at }, now);
  const params = config.params ? config.params(q) : { symbol: q.symbol ?? "" };

  const paged = usePagedPlatformQuery<Id>({
    operation: config.operation,
    params: params ?? {},
    enabled: params !== null,
    range,
    limit,
    stack: q.p,
    now,
    onNavigate: (next: PageStack, move: PageMove) => {
      if (move === "latest") setNow(Date.now());
      setQ(pageMovePatch(q, now, next, move));
    },
  }) as unknown as PagedQueryResult<Row>;

  const table = useDataTable<Row, string>({
    features: filteringTableFeatures,
    data: paged.rows,
    columns: config.columns,
    getRowId: paging.rowId as unknown as (row: Row) => string,
    url: [q, setQ as (patch: Record<string, string | null>) => unknown],
    persistKey: config.persistKey ?? config.operation,
  });

  const win = paged.window;
  return {
    q,
    setQ,
    operation: config.operation,
    limit,
    paged,
    table,
    range,
    exportParams:
      "problem" in range || !params ? null : { ...params, startTime: String(range.start), endTime: String(range.end) },
    between: win ? ` between ${formatUtc(win.startTime)} and ${formatUtc(win.endTime)}` : "",
    restart: (patch) => setQ({ ...patch, p: null, at: null }),
  };
}

export type PagedTableProps<Id extends PagedOperationId, Row extends RowData, Q extends PagedUrlState> = {
  view: PagedView<Id, Row, Q>;
  /** The table's accessible name, e.g. "BTCUSDT fills". */
  label: string;
  /** What a row is, plural, for the empty state: "BTCUSDT fills of order 12". */
  rowsNoun: string;
  /** The toolbar's choices, from the page's search-params.ts; no symbol picker without symbols. */
  choices: { symbols?: readonly string[]; presets: readonly RangePreset[]; pageSizes: readonly number[] };
  /** Further controls between the symbol and the range (a search box). */
  controls?: ReactNode;
  /** What must be known before the platform is asked (whose deposits?), while it is not: the table's state then. */
  gate?: Gate | null;
  /** Below the table (a chart of the loaded rows). */
  after?: ReactNode;
};

/** The table of a paged view: toolbar (symbol, controls, range, page size, export), states and pager. */
export function PagedTable<Id extends PagedOperationId, Row extends RowData, Q extends PagedUrlState>({
  view,
  label,
  rowsNoun,
  choices: { symbols, presets, pageSizes },
  controls,
  gate,
  after,
}: PagedTableProps<Id, Row, Q>) {
  const id = useId();
  const { q, paged, table, range } = view;
  const filtered = paged.rows.length > 0 ? " (none left after the filters on the loaded rows)" : "";
  return (
    <div className="space-y-4">
      {q.range === "custom" ? (
        <BadUrlTimes
          keys={[
            ["from", "From"],
            ["to", "To"],
          ]}
        />
      ) : null}
      <DataTable
        table={table}
        label={label}
        status={gate?.status ?? paged.status}
        busy={paged.isFetching}
        expectedRows={view.limit}
        toolbar={
          <DataTableToolbar
            table={table}
            actions={
              <ExportButton
                operation={view.operation}
                params={view.exportParams ?? {}}
                disabled={!view.exportParams || paged.status === "blocked"}
              />
            }
          >
            {symbols ? (
              <SymbolPicker
                key={q.symbol}
                symbols={symbols}
                value={q.symbol ?? ""}
                onChange={(symbol) => view.restart({ symbol })}
              />
            ) : null}
            {controls}
            <RangePicker
              value={{ range: q.range, from: q.from, to: q.to, at: q.at }}
              presets={presets}
              resolved={"problem" in range ? null : range}
              onChange={(patch: RangePatch) => view.setQ({ ...patch, p: null })}
            />
            <PageSizeSelect
              id={`${id}-limit`}
              sizes={pageSizes}
              value={view.limit}
              onChange={(size) => view.restart({ limit: size })}
            />
          </DataTableToolbar>
        }
        errorState={
          gate?.status === "error" ? (
            <DataTableError error={gate.error} onRetry={gate.onRetry} />
          ) : (
            <DataTableError error={paged.error} onRetry={paged.retry} />
          )
        }
        blockedState={
          <DataTableBlocked>{gate?.status === "blocked" ? gate.reason : paged.blockedReason}</DataTableBlocked>
        }
        emptyState={
          <DataTableEmpty>
            No {rowsNoun}
            {view.between}
            {paged.position.cursor ? " older than the previous page" : ""}
            {filtered}
            {paged.canOlder ? " — Older looks further back." : "."}
          </DataTableEmpty>
        }
        pager={<DataTablePager {...pagerPropsOf(paged, table.getRowModel().rows.length)} />}
      />
      {after}
    </div>
  );
}
