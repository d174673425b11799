"use client";
// /spot/fills: the shared ledger view (../../_ledger/trades-ledger-view.tsx) with the fills' columns:
// functions, so handed over here, in the browser's code, rather than by the page.
import type { LedgerFill } from "@/lib/api/ledger/trades";
import { Badge } from "@/components/ui/badge";
import { dataColumnHelper } from "@/components/data-table/features";
import { IdCell } from "@/components/data-table/copy-button";
import { TimeCell } from "@/components/data-table/time";
import { orDash } from "@/components/data-table/text-cell";
import { DecimalCell } from "@/components/data-table/decimal-cell";
import { signedAmount } from "../_components/fee";
import { TradesLedgerView } from "../../_ledger/trades-ledger-view";

const col = dataColumnHelper<LedgerFill>();

/** The ledger's fills: ordered by the server (newest first); a ledger's table sorts nothing (features-plain.ts). */
const ledgerFillColumns = col.columns([
  col.accessor("cTime", {
    header: "Time",
    meta: { label: "Time", width: 215 },
    cell: (c) => <TimeCell ms={c.getValue()} />,
  }),
  col.accessor("symbol", { header: "Symbol", meta: { label: "Symbol", width: 110 } }),
  col.accessor("side", {
    header: "Side",
    meta: { label: "Side", width: 80 },
    cell: (c) => <Badge tone={c.getValue() === "buy" ? "ok" : "error"}>{c.getValue() || "—"}</Badge>,
  }),
  col.accessor("orderType", {
    header: "Order type",
    meta: { label: "Order type", width: 110 },
    cell: (c) => orDash(c.getValue()),
  }),
  col.accessor("priceAvg", {
    header: "Average price",
    meta: { label: "Average price", numeric: true, width: 145 },
    cell: (c) => <DecimalCell value={c.getValue() ?? ""} />,
  }),
  col.accessor("size", {
    header: "Size",
    meta: { label: "Size", numeric: true, width: 120 },
    cell: (c) => <DecimalCell value={c.getValue() ?? ""} />,
  }),
  col.accessor("amount", {
    header: "Amount",
    meta: { label: "Amount", numeric: true, width: 150 },
    cell: (c) => <DecimalCell value={c.getValue() ?? ""} />,
  }),
  col.accessor("totalFee", {
    header: "Fee",
    meta: { label: "Fee", numeric: true, width: 200 },

    cell: (c) => (c.getValue() ? `${signedAmount(c.getValue()!)} ${c.row.original.feeCoin}` : "—"),
  }),
  col.accessor("tradeScope", {
    header: "Scope",
    meta: { label: "Scope", width: 90 },
    cell: (c) => orDash(c.getValue()),
  }),
  col.accessor("tradeId", {
    header: "Trade ID",
    meta: { label: "Trade ID", width: 175 },
    cell: (c) => <IdCell field="tradeId" value={c.getValue()} />,
  }),
  col.accessor("orderId", {
    header: "Order ID",
    meta: { label: "Order ID", width: 175 },
    cell: (c) => <IdCell field="orderId" value={c.getValue()} />,
  }),
]);

export const FillsLedgerView = () => <TradesLedgerView list="fills" columns={ledgerFillColumns} />;
