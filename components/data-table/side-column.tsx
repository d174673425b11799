// Badge columns (a state, a side) of the lists (features.ts says how the column builders are used).
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { choiceColumn, type CellValue } from "./column-builders";

/** A value shown as a badge of its tone ("—" when empty), filtered by a choice of its values. */
export const badgeColumn = (
  label: string,
  width: number,
  tone: (value: string) => BadgeTone,
  options?: readonly string[],
) => ({
  ...choiceColumn(label, width, options),
  cell: (c: CellValue<string>) => <Badge tone={tone(c.getValue())}>{c.getValue() || "—"}</Badge>,
});

/** buy or sell as a badge, filtered on the loaded rows. */
export const sideColumn = (width: number) =>
  badgeColumn("Side", width, (v) => (v === "buy" ? "ok" : "error"), ["buy", "sell"]);
