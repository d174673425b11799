// The buy/sell badge column of the trading lists (features.ts says how the column builders are used).
import { Badge } from "@/components/ui/badge";
import type { CellValue } from "./column-builders";

/** buy or sell as a badge, filtered on the loaded rows. */
export const sideColumn = (width: number) => ({
  header: "Side",
  meta: { label: "Side", width, filter: { kind: "select" as const, options: ["buy", "sell"] } },
  filterFn: "equalsString" as const,
  sortFn: "text" as const,
  cell: (c: CellValue<string>) => <Badge tone={c.getValue() === "buy" ? "ok" : "error"}>{c.getValue() || "—"}</Badge>,
});
