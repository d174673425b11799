import Link from "next/link";
import type { LedgerDeposit } from "@/lib/api/ledger";
import { Badge } from "@/components/ui/badge";
import { dataColumnHelper } from "@/components/data-table/features";
import { IdCell } from "@/components/data-table/copy-button";
import { TimeCell } from "@/components/data-table/time";
import { orDash } from "@/components/data-table/text-cell";
import { DecimalCell } from "@/components/data-table/decimal-cell";
import { depositTone } from "../_components/deposit-tone";

const col = dataColumnHelper<LedgerDeposit>();

/** The ledger's columns: sorted by the server (newest first), so no client sorting here. */
export const ledgerDepositColumns = col.columns([
  col.accessor("cTime", { header: "Time", meta: { time: true, label: "Time", width: 220 }, enableSorting: false, cell: (c) => <TimeCell ms={c.getValue()} /> }),
  col.accessor("subUid", {
    header: "Sub-account",
    meta: { label: "Sub-account", width: 230 },
    enableSorting: false,
    cell: (c) => (
      <Link href={`/sub-accounts/${c.getValue()}`} className="underline-offset-2 hover:underline">
        {c.row.original.subaccountName ? `${c.row.original.subaccountName} · ` : ""}
        <span className="font-mono">{c.getValue()}</span>
      </Link>
    ),
  }),
  col.accessor("coin", { header: "Coin", meta: { label: "Coin", width: 80 }, enableSorting: false }),
  col.accessor("amount", { header: "Amount", meta: { label: "Amount", numeric: true, width: 160 }, enableSorting: false, cell: (c) => <DecimalCell value={c.getValue()} /> }),
  col.accessor("status", {
    header: "Status",
    meta: { label: "Status", width: 150 },
    enableSorting: false,
    cell: (c) => {
      const gone = c.row.original.goneAt;
      return (
        <span className="inline-flex flex-wrap items-center gap-1">
          <Badge tone={depositTone(c.getValue())}>{c.getValue() || "—"}</Badge>
          {gone ? (
            // The platform forgot it (its retention) or stopped returning it; the ledger keeps what it saw.
            <span data-testid="gone-mark" title={`Missing from the platform's answers since ${gone}; kept here as last seen`} className="text-xs text-neutral-500">
              no longer on the platform
            </span>
          ) : null}
        </span>
      );
    },
  }),
  col.accessor("chain", { header: "Chain", meta: { priority: 3, label: "Chain", width: 110 }, enableSorting: false, cell: (c) => orDash(c.getValue()) }),
  col.accessor("dest", { header: "Destination", meta: { priority: 3, label: "Destination", width: 140 }, enableSorting: false, cell: (c) => orDash(c.getValue()) }),
  col.accessor("txId", { header: "Transaction ID", meta: { label: "Transaction ID", width: 220 }, enableSorting: false, cell: (c) => (c.getValue() ? <IdCell field="txId" value={c.getValue()} /> : "—") }),
  col.accessor("orderId", { header: "Record ID", meta: { priority: 3, label: "Record ID", width: 200 }, enableSorting: false, cell: (c) => <IdCell field="orderId" value={c.getValue()} /> }),
]);
