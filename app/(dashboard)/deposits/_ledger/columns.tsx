import Link from "next/link";
import type { LedgerDeposit } from "@/lib/api/ledger";
import { Badge } from "@/components/ui/badge";
import { dataColumnHelper } from "@/components/data-table/features";
import { column } from "@/components/data-table/column-builders";
import { idColumn } from "@/components/data-table/copy-button";
import { timeColumn } from "@/components/data-table/time";
import { textColumn } from "@/components/data-table/text-cell";
import { DecimalCell, decimalColumn } from "@/components/data-table/decimal-cell";
import { depositTone } from "../_components/deposit-tone";

const col = dataColumnHelper<LedgerDeposit>();

/** The ledger's columns: ordered by the server (newest first); a ledger's table sorts nothing (features-plain.ts). */
export const ledgerDepositColumns = col.columns([
  col.accessor("cTime", timeColumn("Time", 220)),
  col.accessor("subUid", {
    ...column("Sub-account", 230),
    cell: (c) => (
      // The name over the UID, so that a long name gives way and the UID is always whole.
      <Link href={`/sub-accounts/${c.getValue()}`} className="block min-w-0 underline-offset-2 hover:underline">
        {c.row.original.subaccountName ? (
          <span className="block truncate" title={c.row.original.subaccountName}>
            {c.row.original.subaccountName}
            <span className="sr-only"> · </span>
          </span>
        ) : null}
        <span className="block font-mono text-xs">{c.getValue()}</span>
      </Link>
    ),
  }),
  col.accessor("coin", textColumn("Coin", 80)),
  col.accessor("amount", decimalColumn("Amount", 160)),
  col.accessor("valueUsdt", {
    // Priority 2: on a narrow page the key columns (time, who, amount, status, transaction) stay in view first.
    ...column("Value (USDT)", 150, { numeric: true, priority: 2 }),
    // At the price of the deposit's UTC day; a coin or day without one says so rather than showing a dash.
    cell: (c) => {
      const v = c.getValue();
      return v === null ? (
        <span className="text-xs text-slate-600 dark:text-slate-400" data-testid="no-price">
          no price
        </span>
      ) : (
        <DecimalCell value={v} />
      );
    },
  }),
  col.accessor("status", {
    ...column("Status", 150),
    cell: (c) => {
      const gone = c.row.original.goneAt;
      return (
        <span className="inline-flex flex-wrap items-center gap-1">
          <Badge tone={depositTone(c.getValue())}>{c.getValue() || "—"}</Badge>
          {gone ? (
            // The platform forgot it (its retention) or stopped returning it; the ledger keeps what it saw.
            <span
              data-testid="gone-mark"
              title={`Missing from the platform's answers since ${gone}; kept here as last seen`}
              className="text-xs text-neutral-500"
            >
              no longer on the platform
            </span>
          ) : null}
        </span>
      );
    },
  }),
  col.accessor("chain", textColumn("Chain", 110, 3)),
  col.accessor("dest", textColumn("Destination", 140, 3)),
  col.accessor("txId", idColumn("txId", "Transaction ID", 220)),
  col.accessor("orderId", {
    ...column("Record ID", 200, { priority: 3 }),
    // The deposit's own page: every field, its addresses and the status history the ledger kept.
    cell: (c) => (
      <Link
        href={`/deposits/${c.getValue()}`}
        className="font-mono text-xs text-blue-800 underline-offset-2 hover:underline dark:text-blue-300"
        aria-label={`Deposit ${c.getValue()}: details and status history`}
      >
        {c.getValue()}
      </Link>
    ),
  }),
]);
