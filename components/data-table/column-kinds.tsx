// The column shapes the platform's lists repeat: an amount, a time, an ID, a side, a text. Each is
// the options of a col.accessor, so a list names its key and only what differs:
// `col.accessor("price", decimalColumn("Price", 160))`, `{ ...idColumn("tradeId", "Trade ID", 175), enableHiding: false }`.
import { Badge } from "@/components/ui/badge";
import { IdCell } from "./copy-button";
import { DecimalCell } from "./decimal-cell";
import { orDash } from "./text-cell";
import { TimeCell } from "./time";

type Value<V> = { getValue: () => V };
/** 2 or 3: hidden when the table is too narrow (column-fit.ts); left out, always shown. */
type Priority = 2 | 3;
const ranked = (priority?: Priority) => (priority ? { priority } : {});

/** An amount as the platform sent it, right-aligned, sorted by value. */
export const decimalColumn = (label: string, width: number, priority?: Priority) => ({
  header: label,
  meta: { ...ranked(priority), label, numeric: true, width },
  sortFn: "decimal" as const,
  cell: (c: Value<string>) => <DecimalCell value={c.getValue()} />,
});

/** A time (ms as a string), in the table's time zone, sorted by value. */
export const timeColumn = (label: string, width: number) => ({
  header: label,
  meta: { time: true, label, width },
  sortFn: "decimal" as const,
  cell: (c: Value<string>) => <TimeCell ms={c.getValue()} />,
});

/** An ID with its copy button; `field` names it to the button. Numeric IDs sort by value. */
export const idColumn = (field: string, label: string, width: number, { sortFn = "decimal", priority }: { sortFn?: "decimal" | "text"; priority?: Priority } = {}) => ({
  header: label,
  meta: { ...ranked(priority), label, width },
  sortFn,
  cell: (c: Value<string>) => <IdCell field={field} value={c.getValue()} />,
});

/** buy or sell as a badge, filtered on the loaded rows. */
export const sideColumn = (width: number) => ({
  header: "Side",
  meta: { label: "Side", width, filter: { kind: "select" as const, options: ["buy", "sell"] } },
  filterFn: "equalsString" as const,
  sortFn: "text" as const,
  cell: (c: Value<string>) => <Badge tone={c.getValue() === "buy" ? "ok" : "error"}>{c.getValue() || "—"}</Badge>,
});

/** A text the platform may send empty (a dash then), sorted as text. */
export const textColumn = (label: string, width: number, priority?: Priority) => ({
  header: label,
  meta: { ...ranked(priority), label, width },
  sortFn: "text" as const,
  cell: (c: Value<string>) => orDash(c.getValue()),
});
