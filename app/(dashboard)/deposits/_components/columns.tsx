import type { DepositRecord } from "@/lib/platform/catalog";
import { Badge } from "@/components/ui/badge";
import { dataColumnHelper } from "@/components/data-table/features";
import { IdCell } from "@/components/data-table/copy-button";
import { TimeCell } from "@/components/data-table/time";
import { orDash } from "@/components/data-table/text-cell";
import { DecimalCell } from "@/components/data-table/decimal-cell";
import { DEPOSIT_STATUSES } from "../search-params";

const col = dataColumnHelper<DepositRecord>();

const STATUS_TONE = { success: "ok", pending: "warn", fail: "error" } as const;
const tone = (s: string) => (s in STATUS_TONE ? STATUS_TONE[s as keyof typeof STATUS_TONE] : "neutral");

export const depositColumns = col.columns([
  col.accessor("orderId", {
    header: "Record ID",
    meta: { label: "Record ID", width: 200 },
    sortFn: "decimal",
    enableHiding: false,
    cell: (c) => <IdCell field="orderId" value={c.getValue()} />,
  }),
  col.accessor("cTime", { header: "Time", meta: { time: true, label: "Time", width: 230 }, sortFn: "decimal", cell: (c) => <TimeCell ms={c.getValue()} /> }),
  col.accessor("userId", { header: "Sub-account UID", meta: { priority: 2, label: "Sub-account UID", width: 150 }, sortFn: "decimal", cell: (c) => <IdCell field="userId" value={c.getValue()} /> }),
  col.accessor("coin", {
    header: "Coin",
    meta: { label: "Coin", width: 80, filter: { kind: "select" } },
    filterFn: "equalsString",
    sortFn: "text",
  }),
  col.accessor("amount", { header: "Amount", meta: { label: "Amount", numeric: true, width: 160 }, sortFn: "decimal", cell: (c) => <DecimalCell value={c.getValue()} /> }),
  col.accessor("fee", { header: "Fee", meta: { priority: 3, label: "Fee", numeric: true, width: 100 }, sortFn: "decimal", cell: (c) => <DecimalCell value={c.getValue()} /> }),
  col.accessor("chain", { header: "Chain", meta: { priority: 3, label: "Chain", width: 110 }, sortFn: "text", cell: (c) => orDash(c.getValue()) }),
  col.accessor("dest", { header: "Destination", meta: { priority: 3, label: "Destination", width: 140 }, sortFn: "text", cell: (c) => orDash(c.getValue()) }),
  col.accessor("status", {
    header: "Status",
    meta: { label: "Status", width: 100, filter: { kind: "select", options: DEPOSIT_STATUSES } },
    filterFn: "equalsString",
    sortFn: "text",
    cell: (c) => <Badge tone={tone(c.getValue())}>{c.getValue() || "—"}</Badge>,
  }),
  col.accessor("txId", { header: "Transaction ID", meta: { label: "Transaction ID", width: 200 }, sortFn: "text", cell: (c) => <IdCell field="txId" value={c.getValue()} /> }),
  col.accessor("fromAddress", { header: "From", meta: { priority: 3, label: "From", width: 180 }, sortFn: "text", cell: (c) => <IdCell field="fromAddress" value={c.getValue()} /> }),
  col.accessor("toAddress", { header: "To", meta: { priority: 3, label: "To", width: 180 }, sortFn: "text", cell: (c) => <IdCell field="toAddress" value={c.getValue()} /> }),
]);
