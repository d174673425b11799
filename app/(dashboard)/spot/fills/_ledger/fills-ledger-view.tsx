"use client";
// /spot/fills: the shared ledger view (../../_ledger/trades-ledger-view.tsx) with the fills' columns:
// functions, so handed over here, in the browser's code, rather than by the page.
import type { LedgerFill } from "@/lib/api/ledger/trades";
import { column } from "@/components/data-table/column-builders";
import { dataColumnHelper } from "@/components/data-table/features";
import { signedAmount } from "../_components/fee";
import { ledgerColumn } from "../../_ledger/ledger-columns";
import { TradesLedgerView } from "../../_ledger/trades-ledger-view";

const col = dataColumnHelper<LedgerFill>();

/** The ledger's fills: ordered by the server (newest first); a ledger's table sorts nothing (features-plain.ts). */
const ledgerFillColumns = col.columns([
  col.accessor("cTime", ledgerColumn.time("Time")),
  col.accessor("symbol", column("Symbol", 110)),
  col.accessor("side", ledgerColumn.side),
  col.accessor("orderType", ledgerColumn.text("Order type", 110)),
  col.accessor("priceAvg", ledgerColumn.decimal("Average price", 145)),
  col.accessor("size", ledgerColumn.decimal("Size", 120)),
  col.accessor("amount", ledgerColumn.decimal("Amount", 150)),
  col.accessor("totalFee", {
    ...column("Fee", 200, { numeric: true }),
    cell: (c) => (c.getValue() ? `${signedAmount(c.getValue()!)} ${c.row.original.feeCoin}` : "—"),
  }),
  col.accessor("tradeScope", ledgerColumn.text("Scope", 90)),
  col.accessor("tradeId", ledgerColumn.id("tradeId", "Trade ID", 175)),
  col.accessor("orderId", ledgerColumn.id("orderId", "Order ID", 175)),
]);

export const FillsLedgerView = () => <TradesLedgerView list="fills" columns={ledgerFillColumns} />;
