import { Badge } from "@/components/ui/badge";
import { dataColumnHelper } from "@/components/data-table/features";
import { IdCell } from "@/components/data-table/copy-button";
import { TimeCell } from "@/components/data-table/time";
import type { Binding } from "./api";

const col = dataColumnHelper<Binding>();
// Brokerdesk keeps ISO times; the shared time cell reads the platform's ms strings.
const ms = (iso: string | null) => (iso ? String(Date.parse(iso)) : "");

export const bindingColumns = col.columns([
  col.accessor("uid", {
    header: "UID",
    meta: { label: "UID", width: 145, filter: { kind: "text", placeholder: "UID" } },
    filterFn: "includesString",
    sortFn: "decimal",
    enableHiding: false,
    cell: (c) => <IdCell field="UID" value={c.getValue()} />,
  }),
  col.accessor("riskUnitId", {
    header: "Risk unit",
    meta: { label: "Risk unit", width: 145, filter: { kind: "select" } },
    filterFn: "equalsString",
    sortFn: "decimal",
    cell: (c) => <IdCell field="Risk unit" value={c.getValue()} />,
  }),
  col.accessor("state", {
    header: "State",
    meta: { label: "State", width: 95, filter: { kind: "select", options: ["bound", "unbound"] } },
    filterFn: "equalsString",
    sortFn: "text",
    cell: (c) => <Badge tone={c.getValue() === "bound" ? "ok" : "neutral"}>{c.getValue()}</Badge>,
  }),
  col.accessor("boundBy", { header: "Bound by", meta: { label: "Bound by", width: 195 }, sortFn: "text" }),
  col.accessor((b) => ms(b.boundAt), {
    id: "boundAt",
    header: "Bound at",
    meta: { label: "Bound at", width: 215 },
    sortFn: "decimal",
    cell: (c) => <TimeCell ms={c.getValue()} />,
  }),
  col.accessor((b) => b.unboundBy ?? "", {
    id: "unboundBy",
    header: "Unbound by",
    meta: { label: "Unbound by", width: 195 },
    sortFn: "text",
    cell: (c) => c.getValue() || <span className="text-slate-500 dark:text-slate-400">—</span>,
  }),
  col.accessor((b) => ms(b.unboundAt), {
    id: "unboundAt",
    header: "Unbound at",
    meta: { label: "Unbound at", width: 215 },
    sortFn: "decimal",
    cell: (c) => <TimeCell ms={c.getValue()} />,
  }),
]);
