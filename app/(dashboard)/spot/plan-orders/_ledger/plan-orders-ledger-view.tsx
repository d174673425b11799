"use client";
// /spot/plan-orders: the shared ledger view (../../_ledger/trades-ledger-view.tsx) with the plan orders' columns:
// functions, so handed over here, in the browser's code, rather than by the page.
import type { LedgerPlanOrder } from "@/lib/api/ledger/trades";
import { Badge } from "@/components/ui/badge";
import { dataColumnHelper } from "@/components/data-table/features";
import { IdCell } from "@/components/data-table/copy-button";
import { TimeCell } from "@/components/data-table/time";
import { orDash } from "@/components/data-table/text-cell";
import { DecimalCell } from "@/components/data-table/decimal-cell";
import { planOrderStatusTone } from "../_components/status-tone";
import { TradesLedgerView } from "../../_ledger/trades-ledger-view";

const col = dataColumnHelper<LedgerPlanOrder>();
const decimal = (header: string, width: number) => ({ header, meta: { label: header, numeric: true, width } });

/**
 * The ledger's plan orders: ordered by the server (newest first); a ledger's table sorts nothing (features-plain.ts).
 */
const ledgerPlanOrderColumns = col.columns([
  col.accessor("cTime", {
    header: "Created",
    meta: { label: "Created", width: 215 },
    cell: (c) => <TimeCell ms={c.getValue()} />,
  }),
  col.accessor("symbol", { header: "Symbol", meta: { label: "Symbol", width: 110 } }),
  col.accessor("side", {
    header: "Side",
    meta: { label: "Side", width: 80 },
    cell: (c) => <Badge tone={c.getValue() === "buy" ? "ok" : "error"}>{c.getValue() || "—"}</Badge>,
  }),
  col.accessor("status", {
    header: "Status",
    meta: { label: "Status", width: 170 },

    cell: (c) => (
      <span className="whitespace-nowrap">
        <Badge tone={planOrderStatusTone(c.getValue())}>{c.getValue() || "—"}</Badge>
        {/* A status that changed while the ledger kept the order: the earlier ones are kept too. */}
        {c.row.original.statusesSeen > 1 ? (
          <span className="ml-1 text-xs text-slate-600 dark:text-slate-400">({c.row.original.statusesSeen} seen)</span>
        ) : null}
      </span>
    ),
  }),
  col.accessor("orderType", {
    header: "Order type",
    meta: { label: "Order type", width: 110 },
    cell: (c) => orDash(c.getValue()),
  }),
  col.accessor("planType", {
    header: "Plan type",
    meta: { label: "Plan type", width: 100 },
    cell: (c) => orDash(c.getValue()),
  }),
  col.accessor("triggerPrice", {
    ...decimal("Trigger price", 140),
    cell: (c) => <DecimalCell value={c.getValue() ?? ""} />,
  }),
  col.accessor("executePrice", {
    ...decimal("Execute price", 140),
    cell: (c) => <DecimalCell value={c.getValue() ?? ""} />,
  }),
  col.accessor("size", { ...decimal("Size", 130), cell: (c) => <DecimalCell value={c.getValue() ?? ""} /> }),
  col.accessor("uTime", {
    header: "Updated",
    meta: { label: "Updated", width: 215 },
    cell: (c) => <TimeCell ms={c.getValue() ?? ""} />,
  }),
  col.accessor("orderId", {
    header: "Order ID",
    meta: { label: "Order ID", width: 185 },
    cell: (c) => <IdCell field="orderId" value={c.getValue()} />,
  }),
  col.accessor("clientOid", {
    header: "Client order ID",
    meta: { label: "Client order ID", width: 175 },
    cell: (c) => (c.getValue() ? <IdCell field="clientOid" value={c.getValue()} /> : "—"),
  }),
]);

export const PlanOrdersLedgerView = () => <TradesLedgerView list="plan-orders" columns={ledgerPlanOrderColumns} />;
