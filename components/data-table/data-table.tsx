"use client";
// The one generic table of Brokerdesk. It renders a TanStack `table` it is given, plus slots; it owns
// no data fetching (STYLE rule 11). Rows are virtualised so E8's 1,000-row pages scroll smoothly, and
// the markup stays a real <table> (spacer rows, not CSS grid) so assistive technology reads it as one.
import { useEffect, useRef, type ReactNode } from "react";
import type { RowData } from "@tanstack/react-table";
import { sorts, type DataTableColumnMeta, type DataTableInstance } from "./features";
import { useRowWindow } from "./use-row-window";
import { useTimeZone } from "./time";
import { columnWidth } from "./column-fit";
import { reportTableWidth } from "./use-data-table";

const ROW_HEIGHT = 36;
/**
 * Skeleton rows at most: enough to fill the tallest scrolling body (720 px) and make it scroll, so a page of
 * rows that fills it replaces a skeleton of the same height.
 */
const SKELETON_MAX = 24;

export type DataTableStatus = "pending" | "error" | "success" | "blocked";

export type DataTableProps<TData extends RowData> = {
  table: DataTableInstance<TData>;
  /** Accessible name of the table (also its visually hidden caption). */
  label: string;
  status: DataTableStatus;
  /** A refetch is running while the current rows stay on screen. */
  busy?: boolean;
  toolbar?: ReactNode;
  pager?: ReactNode;
  emptyState?: ReactNode;
  errorState?: ReactNode;
  blockedState?: ReactNode;
  /** Height of the scrolling body; the header stays visible inside it. */
  maxHeight?: string;
  /**
   * With no rows, only the words (the empty state), not a wide empty table: a scrollable region nobody can
   * reach. The toolbar stays where it was, so a control in it keeps its focus and what is typed in it.
   */
  wordsWhenEmpty?: boolean;
  /**
   * Rows a page will most likely hold (the page size it asks for): the skeleton shows as many, up to what fills
   * the scrolling body, so the rows' arrival moves nothing below the table. 8 unless said.
   */
  expectedRows?: number;
};

export function DataTable<TData extends RowData>({
  table,
  label,
  status,
  busy = false,
  toolbar,
  pager,
  emptyState,
  errorState,
  blockedState,
  maxHeight = "min(70vh, 720px)",
  wordsWhenEmpty = false,
  expectedRows = 8,
}: DataTableProps<TData>) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const { mode } = useTimeZone();
  const rows = table.getRowModel().rows;
  const columns = table.getVisibleLeafColumns();
  // The ledgers' tables register no sorting (features-plain.ts): their headers are plain text.
  const canSort = sorts(table);
  const showRows = status === "success" && rows.length > 0;

  const { first, last, padTop, padBottom } = useRowWindow({
    scrollRef,
    count: showRows ? rows.length : 0,
    rowHeight: ROW_HEIGHT,
    overscan: 12,
  });
  const shown = rows.slice(first, last + 1);

  // The width the columns have, for the columns the person has not chosen (column-fit.ts). Measured on the
  // outer box, whose width does not depend on the columns: the scrolling box's own width changes with its
  // scrollbars, which change with the columns, and would never settle.
  const boxRef = useRef<HTMLElement>(null);
  useEffect(() => {
    const el = boxRef.current;
    if (!el) return;
    const report = () => reportTableWidth(table, Math.floor(el.clientWidth) - 2);
    report();
    const observer = new ResizeObserver(report);
    observer.observe(el);
    return () => observer.disconnect();
  }, [table]);

  const notice =
    status === "error"
      ? errorState
      : status === "blocked"
        ? blockedState
        : status === "success" && rows.length === 0
          ? emptyState
          : null;

  return (
    <section ref={boxRef} aria-label={label} className="space-y-3">
      {toolbar}
      {notice ? <div>{notice}</div> : null}
      {wordsWhenEmpty && status === "success" && rows.length === 0 ? null : (
        <div
          ref={scrollRef}
          // The skeleton fills the body without scrolling it: a scrollable region with nothing to focus is no use.
          className={
            "relative " +
            (status === "pending" ? "overflow-hidden" : "overflow-auto") +
            " rounded-lg border border-slate-200 dark:border-slate-700"
          }
          style={{ maxHeight }}
          data-testid="data-table-scroll"
          tabIndex={showRows ? 0 : undefined}
          role={showRows ? "region" : undefined}
          aria-label={showRows ? `${label}, scrollable` : undefined}
        >
          <table
            className="w-full table-fixed border-separate border-spacing-0 text-left text-sm"
            aria-busy={status === "pending" || busy}
            aria-rowcount={showRows ? rows.length + 1 : undefined}
          >
            <caption className="sr-only">{label}</caption>
            <colgroup>
              {columns.map((c) => (
                <col key={c.id} style={{ width: widthOf(c.columnDef.meta, mode) }} />
              ))}
            </colgroup>
            <thead>
              {table.getHeaderGroups().map((group) => (
                <tr key={group.id} aria-rowindex={1}>
                  {group.headers.map((header) => {
                    const meta = header.column.columnDef.meta;
                    const sortable = canSort && header.column.getCanSort();
                    const sorted = canSort ? header.column.getIsSorted() : false;
                    const th =
                      `sticky top-0 z-10 border-b border-slate-200 bg-slate-50 px-3 py-2 text-xs font-semibold ` +
                      "text-slate-700 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200 " +
                      (meta?.numeric ? "text-right" : "");
                    const title = meta?.label ?? header.column.id;
                    return (
                      <th
                        key={header.id}
                        scope="col"
                        className={th}
                        aria-sort={sorted === "asc" ? "ascending" : sorted === "desc" ? "descending" : undefined}
                      >
                        {header.isPlaceholder ? null : sortable ? (
                          <button
                            type="button"
                            onClick={header.column.getToggleSortingHandler()}
                            className={
                              "inline-flex items-center gap-1 rounded hover:underline " +
                              (meta?.numeric ? "flex-row-reverse" : "")
                            }
                            title={`Sort the loaded rows by ${title}`}
                          >
                            <table.FlexRender header={header} />
                            <span aria-hidden="true" className="text-[10px] text-slate-500 dark:text-slate-400">
                              {sorted === "asc" ? "▲" : sorted === "desc" ? "▼" : "↕"}
                            </span>
                          </button>
                        ) : (
                          <table.FlexRender header={header} />
                        )}
                      </th>
                    );
                  })}
                </tr>
              ))}
            </thead>
            <tbody>
              {status === "pending" ? (
                <SkeletonRows columns={columns.length} rows={Math.min(Math.max(1, expectedRows), SKELETON_MAX)} />
              ) : showRows ? (
                <>
                  {padTop > 0 ? (
                    <tr aria-hidden="true">
                      <td colSpan={columns.length} style={{ height: padTop, padding: 0, border: 0 }} />
                    </tr>
                  ) : null}
                  {shown.map((row, i) => (
                    <tr
                      key={row.id}
                      aria-rowindex={first + i + 2}
                      data-row-id={row.id}
                      className={
                        "odd:bg-white even:bg-slate-50/60 hover:bg-blue-50 dark:odd:bg-slate-950 " +
                        "dark:even:bg-slate-900/60 dark:hover:bg-slate-800"
                      }
                      style={{ height: ROW_HEIGHT }}
                    >
                      {row.getVisibleCells().map((cell) => (
                        <td
                          key={cell.id}
                          className={
                            `overflow-hidden border-b border-slate-100 px-3 text-ellipsis whitespace-nowrap ` +
                            `dark:border-slate-800 ${cell.column.columnDef.meta?.numeric ? "text-right" : ""}`
                          }
                        >
                          <table.FlexRender cell={cell} />
                        </td>
                      ))}
                    </tr>
                  ))}
                  {padBottom > 0 ? (
                    <tr aria-hidden="true">
                      <td colSpan={columns.length} style={{ height: padBottom, padding: 0, border: 0 }} />
                    </tr>
                  ) : null}
                </>
              ) : (
                <tr>
                  <td
                    colSpan={columns.length}
                    className="px-3 py-4 text-center text-sm text-slate-600 dark:text-slate-400"
                  >
                    {status === "error"
                      ? "No rows: the request failed (see above)."
                      : status === "blocked"
                        ? "No rows: nothing was requested."
                        : "No rows."}
                  </td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
      )}
      {pager}
    </section>
  );
}

// A local time's offset ("UTC+05:30") is longer than "UTC": its column grows rather than cut it.
function widthOf(meta: DataTableColumnMeta | undefined, mode: "utc" | "local"): string | undefined {
  return meta?.width ? `${columnWidth(meta, mode === "local")}px` : undefined;
}

function SkeletonRows({ columns, rows }: { columns: number; rows: number }) {
  return (
    <>
      {Array.from({ length: rows }, (_, r) => (
        <tr key={r} aria-hidden="true" style={{ height: ROW_HEIGHT }}>
          {Array.from({ length: columns }, (_, c) => (
            <td key={c} className="border-b border-slate-100 px-3 dark:border-slate-800">
              <span
                className="block h-3 animate-pulse rounded bg-slate-200 dark:bg-slate-700"
                style={{ width: `${50 + ((r * 7 + c * 13) % 45)}%` }}
              />
            </td>
          ))}
        </tr>
      ))}
      <tr className="sr-only">
        <td colSpan={columns}>Loading…</td>
      </tr>
    </>
  );
}
