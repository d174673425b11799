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

const headClass = "px-3 py-2 text-left text-xs font-semibold text-slate-600 dark:text-slate-400";
const cellClass = "px-3 py-1.5 align-top";

/**
 * `label` is the table's accessible name (its caption, read only by screen readers). `frame`: "box", its own
 * bordered box that scrolls sideways; "none" inside a card or a scrolling region of the caller's.
 * `rowData` gives each row its data attributes (what the e2e suite and links find a row by).
 */
export function ListTable<Row>({ label, columns, rows, rowKey, rowData, empty, frame = "box", fit = false, testId }: {
  label: string;
  columns: readonly ListColumn<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  rowData?: (row: Row) => Record<`data-${string}`, string>;
  /** Said in one row across the table when there are no rows (else the table is drawn with its head only). */
  empty?: ReactNode;
  frame?: "box" | "none";
  /** As wide as its columns need (a few columns of totals), not the width of its container. */
  fit?: boolean;
  testId?: string;
}) {
  const table = (
    <table className={`${fit ? "w-auto" : "w-full"} border-collapse text-sm`} data-testid={testId}>
      <caption className="sr-only">{label}</caption>
      <thead className={frame === "box" ? "bg-slate-50 dark:bg-slate-900" : "border-b border-slate-200 dark:border-slate-700"}>
        <tr>
          {columns.map((c) => (
            <th key={c.header} scope="col" className={`${headClass} ${c.numeric ? "text-right" : ""}`}>
              {c.hiddenHeader ? <span className="sr-only">{c.header}</span> : c.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.length === 0 && empty ? (
          <tr>
            <td colSpan={columns.length} className={`${cellClass} text-slate-600 dark:text-slate-400`}>
              {empty}
            </td>
          </tr>
        ) : null}
        {rows.map((row) => (
          <tr key={rowKey(row)} {...rowData?.(row)} className="border-t border-slate-200 first:border-t-0 dark:border-slate-700">
            {columns.map((c) => {
              const className = `${cellClass} ${c.numeric ? "tabular text-right" : ""} ${c.className ?? ""}`;
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
      </tbody>
    </table>
  );
  return frame === "box" ? <div className="overflow-x-auto rounded-lg border border-slate-200 dark:border-slate-700">{table}</div> : table;
}
