import { dataColumnHelper } from "@/components/data-table/features";
import { timeColumn } from "@/components/data-table/time";
import { choiceColumn } from "@/components/data-table/column-builders";
import { badgeColumn } from "@/components/data-table/side-column";
import type { LeverageChange } from "./history";

/** A change as the table shows it: with the account its key acts as, in words. */
export type HistoryRow = LeverageChange & { account: string };

const col = dataColumnHelper<HistoryRow>();
const dash = <span className="text-slate-500 dark:text-slate-400">—</span>;
const TONE = { success: "ok", failure: "error", "no outcome": "warn" } as const;

// What a lead looks for first (when, which account and symbol, what was set and whether it took) comes first,
// in view at 1,280 px; the platform's answer, who and the product type follow (the box scrolls to them).
// Outcome was past the box's edge.
export const historyColumns = col.columns([
  col.accessor("at", timeColumn("Time", 215)),
  // The whole name and UID on hover when the column is too narrow for them.
  col.accessor("account", {
    header: "Account",
    meta: { label: "Account", width: 260 },
    sortFn: "text",
    cell: (c) => <span title={c.getValue()}>{c.getValue()}</span>,
  }),
  col.accessor("symbol", choiceColumn("Symbol", 110)),
  col.accessor("leverage", {
    header: "Leverage",
    meta: { label: "Leverage", numeric: true, width: 90 },
    sortFn: "decimal",
  }),
  col.accessor("holdSide", {
    header: "Hold side",
    meta: { label: "Hold side", width: 105 },
    sortFn: "text",
    cell: (c) => c.getValue() || dash,
  }),
  col.accessor(
    "outcome",
    badgeColumn("Outcome", 110, (v) => TONE[v as keyof typeof TONE], Object.keys(TONE)),
  ),
  col.accessor("note", {
    header: "Platform's answer",
    meta: { label: "Platform's answer", width: 240 },
    enableSorting: false,
    cell: (c) => (c.getValue() ? <span title={c.getValue()}>{c.getValue()}</span> : dash),
  }),
  col.accessor("actor", { header: "Actor", meta: { label: "Actor", width: 200 }, sortFn: "text" }),
  col.accessor("productType", { header: "Product type", meta: { label: "Product type", width: 135 }, sortFn: "text" }),
]);
