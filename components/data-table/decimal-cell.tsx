import { groupDecimal } from "@/lib/format";
import { ranked, type CellValue, type ColumnPriority } from "./column-builders";

/** An amount exactly as the platform sent it, grouped in thousands (never through a float). */
export function DecimalCell({ value, suffix }: { value: string; suffix?: string }) {
  if (value === "") return <span className="text-slate-500 dark:text-slate-400">—</span>;
  return (
    <span className="tabular whitespace-nowrap">
      {groupDecimal(value)}
      {suffix ? <span className="ml-1 text-xs text-slate-500 dark:text-slate-400">{suffix}</span> : null}
    </span>
  );
}

/** An amount as the platform sent it, right-aligned, sorted by value. */
export const decimalColumn = (label: string, width: number, priority?: ColumnPriority) => ({
  header: label,
  meta: { ...ranked(priority), label, numeric: true, width },
  sortFn: "decimal" as const,
  cell: (c: CellValue<string | null>) => <DecimalCell value={c.getValue() ?? ""} />,
});
