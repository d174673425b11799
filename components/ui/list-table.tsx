// A small table drawn whole, without a table instance: a card's newest rows, totals per coin, the sync's jobs,
// the approval queue. One column list says each column's header, its cell and whether it holds numbers, so
// every such table looks alike and names itself the same way. The lists staff page, sort and filter are
// <DataTable> (components/data-table).
import type { ReactNode } from "react";

export type ListColumn<Row> = {
  header: string;
  cell: (row: Row) => ReactNode;
  /** A number: aligned right, in tabular figures. */
  numeric?: boolean;
  /** The cell that names its row (a row header, as the job's name in the sync's table). */
  names?: boolean;
  /** The header read only by a screen reader (a column of buttons). */
  hiddenHeader?: boolean;
  className?: string;
};

const headClass = "px-3 py-2 text-xs font-semibold text-slate-600 dark:text-slate-400";
/** A body cell's padding, for rows a caller draws itself (ListTableFrame). */
export const listCellClass = "px-3 py-1.5 align-top";
/** A body row's rule, for rows a caller draws itself. */
export const listRowClass = "border-t border-slate-200 first:border-t-0 dark:border-slate-700";

type Frame = {
  /** The table's accessible name (its caption, read only by screen readers). */
  label: string;
  /** "box": its own bordered box that scrolls sideways; "none": inside a card or a scrolling region of the caller's. */
  frame?: "box" | "none";
  /** As wide as its columns need (a few columns of totals), not the width of its container. */
  fit?: boolean;
  testId?: string;
};

/**
 * The table, its caption and its head, with a body the caller draws: rows that hold their own state (the
 * staff list's, each with its role select and dialogs). Its rows use listRowClass and listCellClass.
 */
export function ListTableFrame({
  label,
  headers,
  frame = "box",
  fit = false,
  testId,
  children,
}: Frame & {
  headers: readonly Pick<ListColumn<never>, "header" | "numeric" | "hiddenHeader">[];
  children: ReactNode;
}) {
  const table = (
    <table className={`${fit ? "w-auto" : "w-full"} border-collapse text-sm`} data-testid={testId}>
      <caption className="sr-only">{label}</caption>
      <thead
        className={
          frame === "box" ? "bg-slate-50 dark:bg-slate-900" : "border-b border-slate-200 dark:border-slate-700"
        }
      >
        <tr>
          {headers.map((c) => (
            <th key={c.header} scope="col" className={`${headClass} ${c.numeric ? "text-right" : "text-left"}`}>
              {c.hiddenHeader ? <span className="sr-only">{c.header}</span> : c.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
  return frame === "box" ? (
    <div className="overflow-x-auto rounded-lg border border-slate-200 dark:border-slate-700">{table}</div>
  ) : (
    table
  );
}

/** `rowData` gives each row its data attributes (what the e2e suite and links find a row by). */
export function ListTable<Row>({
  columns,
  rows,
  rowKey,
  rowData,
  empty,
  ...frame
}: Frame & {
  columns: readonly ListColumn<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  rowData?: (row: Row) => Record<`data-${string}`, string>;
  /** Said in one row across the table when there are no rows (else the table is drawn with its head only). */
  empty?: ReactNode;
}) {
  return (
    <ListTableFrame {...frame} headers={columns}>
      {rows.length === 0 && empty ? (
        <tr>
          <td colSpan={columns.length} className={`${listCellClass} text-slate-600 dark:text-slate-400`}>
            {empty}
          </td>
        </tr>
      ) : null}
      {rows.map((row) => (
        <tr key={rowKey(row)} {...rowData?.(row)} className={listRowClass}>
          {columns.map((c) => {
            const className = `${listCellClass} ${c.numeric ? "tabular text-right" : ""} ${c.className ?? ""}`;
            return c.names ? (
              <th key={c.header} scope="row" className={`${className} text-left font-medium`}>
                {c.cell(row)}
              </th>
            ) : (
              <td key={c.header} className={className}>
                {c.cell(row)}
              </td>
            );
          })}
        </tr>
      ))}
    </ListTableFrame>
  );
}

/**
 * A ListTable's place while its rows load: its head and `rows` rows of the body's own height, so the rows
 * replace it without moving what is below (a card's newest rows, whose count is known).
 */
export function ListTableSkeleton({
  columns,
  rows,
  ...frame
}: Frame & { columns: readonly Pick<ListColumn<never>, "header" | "numeric" | "hiddenHeader">[]; rows: number }) {
  return (
    <div aria-busy="true">
      <span className="sr-only">Loading {frame.label}…</span>
      <div aria-hidden="true">
        <ListTableFrame {...frame} label={`${frame.label} (loading)`} headers={columns}>
          {Array.from({ length: rows }, (_, r) => (
            <tr key={r} className={listRowClass}>
              {columns.map((c, i) => (
                <td key={c.header} className={listCellClass}>
                  <span className="block h-5 py-1">
                    <span
                      className="block h-3 animate-pulse rounded bg-slate-200 dark:bg-slate-700"
                      style={{ width: `${50 + ((r * 7 + i * 13) % 45)}%` }}
                    />
                  </span>
                </td>
              ))}
            </tr>
          ))}
        </ListTableFrame>
      </div>
    </div>
  );
}
