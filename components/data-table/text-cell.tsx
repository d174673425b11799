// A text field the platform may send empty: shown as a muted dash so an empty cell reads as "none sent".
import { ranked, type CellValue, type ColumnPriority } from "./column-builders";
export function orDash(v: string) {
  return v ? v : <span className="text-slate-500 dark:text-slate-400">—</span>;
}

/** A text the platform may send empty (a dash then), sorted as text. */
export const textColumn = (label: string, width: number, priority?: ColumnPriority) => ({
  header: label,
  meta: { ...ranked(priority), label, width },
  sortFn: "text" as const,
  cell: (c: CellValue<string | null>) => orDash(c.getValue() ?? ""),
});
