"use client";
// One paged view of a ledger list: what Brokerdesk keeps, read from its own database through a
// lib/api entry that answers { rows, nextCursor, total }. Every filter is in the URL and sent to the server,
// which applies it to the whole set over any range; pages are keyset cursors (the URL's page stack), newest
// first; the count is of the whole filtered set. A page is a configuration: its entry, its URL parsers (every key
// but the cursors, the range and `notFilters` is a filter), columns and the words for its rows (the platform's
// live views use platform-paged-view.tsx).
import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import type { RowData, TableOptions } from "@tanstack/react-table";
import { useId, useMemo, type ReactNode } from "react";
import { useQueryStates, type UrlKeys, type UseQueryStatesKeysMap, type Values } from "nuqs";
import type { ledgerCursorsParser } from "@/lib/client/paging-search-params";
import { callResource, type JsonResource, type LazyResource } from "@/lib/api/call";
import type { OutputOf } from "@/lib/api/define-resource";
import type * as z from "zod/mini";
import { isTransient } from "@/lib/client/api";
import { DataTable } from "./data-table";
import type { PagerWords } from "./data-table-pager";
import { DataTableEmpty } from "./data-table-states";
import { DataTableToolbar } from "./data-table-toolbar";
import type { DataTableFeatures, DataTableInstance } from "./features";
import { ClearFilters } from "./ledger-filters";
import { serverPageProps } from "./server-page";
import { TimeField } from "./time";
import { useDataTable } from "./use-data-table";
import { plainTableFeatures } from "./features-plain";
import { BadUrlTimes } from "./bad-url-times";
import { counted } from "@/lib/format";
import { LineSkeleton } from "@/components/ui/skeleton";

/** Rows a ledger page asks for unless its view says otherwise. */
const LEDGER_PAGE_SIZE = 50;

/** The URL state every ledger view has: the cursors walked, and the range in ms (UTC) unless the list has none. */
export type LedgerUrlState = { p: string[]; from?: number | null; to?: number | null };
/** A ledger page's URL parsers (its search-params.ts): the cursors at `p`, and its filters. */
type LedgerParams = UseQueryStatesKeysMap & { p: typeof ledgerCursorsParser };
export type LedgerPage<Row> = { rows: Row[]; nextCursor: string | null; total: number };
/** What every ledger page answers: a cursor to the next, and the count of the whole filtered set when it has one. */
type AnyPage = { nextCursor: string | null; total?: number };

/** A lib/api entry that answers a ledger page; its answer's type is the page's. */
type PageResource = JsonResource & { output: z.ZodMiniType<AnyPage> };

/** The page's rows: its `rows` when they are the columns' rows, else said (the withdrawal ledger answers `items`). */
type RowsOf<R extends PageResource, Row> =
  OutputOf<R> extends { rows: readonly Row[] }
    ? { rowsOf?: (page: OutputOf<R>) => Row[] }
    : { rowsOf: (page: OutputOf<R>) => Row[] };

export type LedgerViewConfig<R extends PageResource, K extends LedgerParams, Row extends RowData> = RowsOf<R, Row> & {
  resource: R | LazyResource<R>;
  /**
   * The page's URL state, declared once in its search-params.ts. Every key but the cursors (`p`), the range
   * (`from`, `to`) and `notFilters` is a filter the server applies (a null or empty value is not sent).
   */
  searchParams: K;
  /** Keys the URL spells otherwise (the audit log's cursors are `before`, as saved links have them). */
  urlKeys?: UrlKeys<K>;
  /** URL keys that shape the page but do not filter it (the audit log's page size). */
  notFilters?: readonly (keyof K & string)[];
  columns: TableOptions<DataTableFeatures, Row>["columns"];
  getRowId: (row: Row) => string;
  /** Rows a page asks for: a number, or read from the URL (the audit log's page size); 50 unless said. */
  pageSize?: number | ((q: Values<K>) => number);
  /** Filters every request carries, not in the URL (the sub-account a section is about). */
  fixed?: Record<string, string>;
  initialColumnVisibility?: Record<string, boolean>;
  /** false: the list has no time range (the registry), so neither the URL nor the toolbar has one. */
  range?: boolean;
  /** Keeps the person's column choices for this list in this browser (use-data-table.ts). */
  persistKey?: string;
};

export type LedgerView<Row extends RowData, Q extends LedgerUrlState, P extends AnyPage> = {
  q: Q;
  page: UseQueryResult<P>;
  /** This page's rows (none while it loads). */
  rows: Row[];
  table: DataTableInstance<Row>;
  /** The URL's filters and range as the API reads them (ms as strings): what the page and its export ask for. */
  filters: Record<string, string>;
  /** Whether any filter (range included) is set. */
  filtered: boolean;
  /** Writes filters and starts again from the newest page. */
  set: (patch: Partial<Record<keyof Q & string, unknown>>) => void;
  clear: () => void;
  setWalked: (p: string[] | null) => void;
  range: boolean;
  /** The range's URL keys ("from", "to" unless the view renames them), to say a hand-typed one that is no time. */
  rangeKeys: readonly [from: string, to: string];
  /** Rows a page asks for (the skeleton shows as many while it loads). */
  pageSize: number;
};

const NOT_FILTERS = new Set(["p", "from", "to"]);

/** The page's type is its entry's answer, and its rows' type its columns': neither is said again. */
export function useLedgerView<R extends PageResource, K extends LedgerParams, Row extends RowData>(
  config: LedgerViewConfig<R, K, Row>,
): LedgerView<Row, Values<K> & LedgerUrlState, OutputOf<R>> {
  const [q, setUrl] = useQueryStates(config.searchParams, { history: "push", urlKeys: config.urlKeys });
  const range = config.range ?? true;
  const notFilters = new Set<string>(config.notFilters);
  const keys = [
    ...Object.keys(config.searchParams).filter((k) => !NOT_FILTERS.has(k) && !notFilters.has(k)),
    ...(range ? ["from", "to"] : []),
  ];
  const filters: Record<string, string> = {};
  for (const k of keys) {
    const v: unknown = q[k];
    if (v !== null && v !== undefined && v !== "") filters[k] = String(v);
  }
  const cursor = (q.p as string[]).at(-1);
  const pageSize = typeof config.pageSize === "function" ? config.pageSize(q) : (config.pageSize ?? LEDGER_PAGE_SIZE);
  const input = { ...filters, ...config.fixed, limit: String(pageSize), ...(cursor ? { cursor } : {}) };
  const page = useQuery({
    queryKey: [config.resource.id, input],
    queryFn: ({ signal }) => callResource(config.resource, { input, signal } as never),
    retry: (count, e) => count < 1 && isTransient(e),
  });
  const { rowsOf } = config;
  // Once per page answered: rowsOf may build new rows (the audit log's views), and a new array is a new table.
  const rows = useMemo(
    () => (page.data ? (rowsOf ? rowsOf(page.data) : (page.data as unknown as LedgerPage<Row>).rows) : EMPTY),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- rowsOf is a pure function of the page
    [page.data],
  );
  const table = useDataTable<Row>({
    // The server orders a ledger (newest first) and filters it: no sorting or filtering in the browser.
    features: plainTableFeatures,
    data: rows,
    columns: config.columns,
    getRowId: config.getRowId,
    initialColumnVisibility: config.initialColumnVisibility,
    persistKey: config.persistKey,
  });
  const write = setUrl as (patch: Record<string, unknown>) => unknown;
  return {
    q: q as Values<K> & LedgerUrlState,
    page,
    rows,
    table,
    filters,
    filtered: Object.keys(filters).length > 0,
    set: (patch) => void write({ ...patch, p: null }),
    clear: () => void write({ ...Object.fromEntries(keys.map((k) => [k, null])), p: null }),
    setWalked: (p) => void write({ p }),
    range,
    rangeKeys: [config.urlKeys?.from ?? "from", config.urlKeys?.to ?? "to"],
    pageSize,
  };
}

export type LedgerTableProps<Row extends RowData, Q extends LedgerUrlState, P extends AnyPage> = {
  view: LedgerView<Row, Q, P>;
  /** The table's accessible name. */
  label: string;
  /** What a row is, plural: "fills". */
  rowsNoun: string;
  /** One row's noun, for a count of 1; rowsNoun without its last "s" when left out. */
  rowNoun?: string;
  /** The page's filters (before the range). */
  controls?: ReactNode;
  actions?: ReactNode;
  /**
   * Above the table (how fresh the ledger is). Its place is kept from the first paint (two lines, a skeleton
   * while the page loads), so a line that arrives with the page pushes nothing down: pass null, not nothing,
   * while it has nothing to say yet.
   */
  before?: ReactNode;
  /** The lines of text `before` takes at a desktop width, kept from the first paint so nothing below moves. */
  beforeLines?: number;
  /** Below the table (totals of the whole filtered set). */
  after?: ReactNode;
  /** The range fields' words ("Requested from"): "From" and "To" unless said; each says its time zone. */
  rangeLabels?: readonly [string, string];
  /** false: the page says the count itself (in `after`), so no count line. */
  countLine?: boolean;
  /** An empty list still shows its columns (a page's own ledger, wide enough for them), not only the words. */
  emptyColumns?: boolean;
  /** Where the rows are kept, for the count and the empty state: "in the ledger" unless said ("" for nothing). */
  place?: string;
  /** The pager's words when the list is not newest first (the registry, by name). */
  pagerWords?: PagerWords;
  /** How tall the table may grow before it scrolls (DataTable's default unless said). */
  maxHeight?: string;
  /**
   * What an empty answer says instead of "No … yet" (a range the ledger does not hold completely: "not synced yet").
   */
  emptyText?: string | null;
};

export function LedgerTable<Row extends RowData, Q extends LedgerUrlState, P extends AnyPage>({
  view,
  label,
  rowsNoun,
  rowNoun = rowsNoun.replace(/s$/, ""),
  controls,
  actions,
  before,
  beforeLines = 2,
  after,
  rangeLabels = ["From", "To"],
  countLine = true,
  emptyColumns = false,
  place = "in the ledger",
  pagerWords,
  maxHeight,
  emptyText,
}: LedgerTableProps<Row, Q, P>) {
  const id = useId();
  const { q, page, table } = view;
  const setRange = (patch: { from?: number | null; to?: number | null }) =>
    view.set(patch as Partial<Record<keyof Q & string, unknown>>);
  const { rows } = view;
  const empty = page.isSuccess && rows.length === 0 && !emptyColumns;
  const toolbar = (
    <DataTableToolbar table={table} actions={actions}>
      {controls}
      {view.range ? (
        <>
          <TimeField
            id={`${id}-from`}
            label={rangeLabels[0]}
            value={q.from ?? null}
            onChange={(from) => setRange({ from })}
          />
          <TimeField
            id={`${id}-to`}
            label={rangeLabels[1]}
            value={q.to ?? null}
            onChange={(to) => setRange({ to })}
            end
          />
        </>
      ) : null}
      {view.filtered ? <ClearFilters onClear={view.clear} /> : null}
    </DataTableToolbar>
  );
  const what = place ? `${rowsNoun} ${place}` : rowsNoun;
  const emptyState = (
    <DataTableEmpty>
      {emptyText ?? (view.filtered ? `No ${what} match these filters.` : `No ${what} yet.`)}
    </DataTableEmpty>
  );
  const { pager, ...states } = serverPageProps(page, rows.length, q.p, view.setWalked, pagerWords);
  return (
    <div className="space-y-4">
      {before !== undefined ? (
        <div style={{ minHeight: `${beforeLines * 1.25}rem` }} data-testid="ledger-before">
          {before ??
            (page.isPending ? <LineSkeleton label="Loading how fresh the list is" lines={beforeLines} /> : null)}
        </div>
      ) : null}
      {view.range ? (
        <BadUrlTimes
          keys={[
            [view.rangeKeys[0], rangeLabels[0]],
            [view.rangeKeys[1], rangeLabels[1]],
          ]}
        />
      ) : null}
      <DataTable
        table={table}
        label={label}
        maxHeight={maxHeight}
        {...states}
        toolbar={toolbar}
        emptyState={emptyState}
        wordsWhenEmpty={!emptyColumns}
        expectedRows={view.pageSize}
        // An empty first page has nowhere to go; an empty later page still goes back.
        pager={empty && !q.p.length ? null : pager}
      />
      {page.data?.total !== undefined && countLine ? (
        <p role="status" className="text-sm text-slate-700 dark:text-slate-300" data-testid="ledger-total">
          {counted(page.data.total, rowNoun, rowsNoun)}{" "}
          {view.filtered ? `match${page.data.total === 1 ? "es" : ""} these filters` : place}
        </p>
      ) : null}
      {after}
    </div>
  );
}

const EMPTY: never[] = [];
