"use client";
// /spot/plan-orders: the shared ledger view (../../_ledger/trades-ledger-view.tsx) with the plan orders' columns:
// functions, so handed over here, in the browser's code, rather than by the page.
import type { LedgerPlanOrder } from "@/lib/api/ledger/trades";
import { Badge } from "@/components/ui/badge";
import { column } from "@/components/data-table/column-builders";
import { dataColumnHelper } from "@/components/data-table/features";
import { IdCell } from "@/components/data-table/copy-button";
import { planOrderStatusTone } from "../_components/status-tone";
import { ledgerColumn } from "../../_ledger/ledger-columns";
import { TradesLedgerView } from "../../_ledger/trades-ledger-view";

const col = dataColumnHelper<LedgerPlanOrder>();

/**
 * The ledger's plan orders: ordered by the server (newest first); a ledger's table sorts nothing (features-plain.ts).
 */
const ledgerPlanOrderColumns = col.columns([
  col.accessor("cTime", ledgerColumn.time("Created")),
  col.accessor("symbol", column("Symbol", 110)),
  col.accessor("side", ledgerColumn.side),
  col.accessor("status", {
    ...column("Status", 170),
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
  col.accessor("orderType", ledgerColumn.text("Order type", 110)),
  col.accessor("planType", ledgerColumn.text("Plan type", 100)),
  col.accessor("triggerPrice", ledgerColumn.decimal("Trigger price", 140)),
  col.accessor("executePrice", ledgerColumn.decimal("Execute price", 140)),
  col.accessor("size", ledgerColumn.decimal("Size", 130)),
  col.accessor("uTime", ledgerColumn.time("Updated")),
  col.accessor("orderId", ledgerColumn.id("orderId", "Order ID", 185)),
  col.accessor("clientOid", {
    ...column("Client order ID", 175),
    cell: (c) => (c.getValue() ? <IdCell field="clientOid" value={c.getValue()} /> : "—"),
  }),
]);

export const PlanOrdersLedgerView = () => <TradesLedgerView list="plan-orders" columns={ledgerPlanOrderColumns} />;
