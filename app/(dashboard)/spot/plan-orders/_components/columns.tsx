import type { PlanOrder } from "@/lib/platform/catalog";
import { Badge } from "@/components/ui/badge";
import { dataColumnHelper } from "@/components/data-table/features";
import { IdCell } from "@/components/data-table/copy-button";
import { TimeCell } from "@/components/data-table/time";
import { orDash } from "@/components/data-table/text-cell";
import { DecimalCell } from "@/components/data-table/decimal-cell";
import { PLAN_ORDER_STATUSES } from "../search-params";
import { planOrderStatusTone } from "./status-tone";

const col = dataColumnHelper<PlanOrder>();

export const planOrderColumns = col.columns([
  col.accessor("orderId", {
    header: "Order ID",
    meta: { label: "Order ID", width: 185 },
    sortFn: "decimal",
    enableHiding: false,
    cell: (c) => <IdCell field="orderId" value={c.getValue()} />,
  }),
  col.accessor("clientOid", {
    header: "Client order ID",
    meta: { label: "Client order ID", width: 175 },
    sortFn: "text",
    cell: (c) => <IdCell field="clientOid" value={c.getValue()} />,
  }),
  col.accessor("cTime", { header: "Created", meta: { time: true, label: "Created", width: 215 }, sortFn: "decimal", cell: (c) => <TimeCell ms={c.getValue()} /> }),
  col.accessor("side", {
    header: "Side",
    meta: { label: "Side", width: 80, filter: { kind: "select", options: ["buy", "sell"] } },
    filterFn: "equalsString",
    sortFn: "text",
    cell: (c) => <Badge tone={c.getValue() === "buy" ? "ok" : "error"}>{c.getValue() || "—"}</Badge>,
  }),
  col.accessor("orderType", { header: "Order type", meta: { label: "Order type", width: 115 }, sortFn: "text", cell: (c) => orDash(c.getValue()) }),
  col.accessor("planType", { header: "Plan type", meta: { label: "Plan type", width: 105 }, sortFn: "text", cell: (c) => orDash(c.getValue()) }),
  col.accessor("triggerType", { header: "Trigger type", meta: { label: "Trigger type", width: 125 }, sortFn: "text", cell: (c) => orDash(c.getValue()) }),
  col.accessor("triggerPrice", {
    header: "Trigger price",
    meta: { label: "Trigger price", numeric: true, width: 140 },
    sortFn: "decimal",
    cell: (c) => <DecimalCell value={c.getValue()} />,
  }),
  col.accessor("executePrice", {
    header: "Execute price",
    meta: { label: "Execute price", numeric: true, width: 140 },
    sortFn: "decimal",
    cell: (c) => <DecimalCell value={c.getValue()} />,
  }),
  col.accessor("size", { header: "Size", meta: { label: "Size", numeric: true, width: 130 }, sortFn: "decimal", cell: (c) => <DecimalCell value={c.getValue()} /> }),
  col.accessor("status", {
    header: "Status",
    meta: { label: "Status", width: 130, filter: { kind: "select", options: PLAN_ORDER_STATUSES } },
    filterFn: "equalsString",
    sortFn: "text",
    cell: (c) => <Badge tone={planOrderStatusTone(c.getValue())}>{c.getValue() || "—"}</Badge>,
  }),
  col.accessor("enterPointSource", { header: "Source", meta: { label: "Source", width: 100 }, sortFn: "text", cell: (c) => orDash(c.getValue()) }),
]);
