import Link from "next/link";
import type { WithdrawalView } from "@/lib/api/withdrawals";
import { dataColumnHelper } from "@/components/data-table/features";
import { column } from "@/components/data-table/column-builders";
import { IdCell, idColumn } from "@/components/data-table/copy-button";
import { textColumn } from "@/components/data-table/text-cell";
import { DecimalCell } from "@/components/data-table/decimal-cell";
import { TimeCell } from "@/components/data-table/time";
import { StateBadge } from "./state-badge";

const col = dataColumnHelper<WithdrawalView>();
const dash = <span className="text-slate-500 dark:text-slate-400">—</span>;
const ms = (iso: string | null) => (iso ? String(Date.parse(iso)) : "");

/**
 * How it ended: the platform's orderId of an accepted withdrawal, the code and message of a refusal, or the
 * lead's reason for rejecting it (never both: a rejected request is not sent). One column, so the ledger's
 * key columns still fit a 1,440 px screen.
 */
function PlatformAnswer({ w }: { w: WithdrawalView }) {
  if (w.rejectReason) {
    return (
      <span className="truncate" title={w.rejectReason}>
        rejected: “{w.rejectReason}”
      </span>
    );
  }
  if (w.platformOrderId) {
    // The ID itself takes the room (cut with "…", whole in its title and its copy button): "order ID" in
    // words cut a 16-digit ID to 8 digits with no mark, which read as an ID of its own.
    return (
      <span className="flex min-w-0 items-center">
        <span className="sr-only">order ID </span>
        <IdCell field="platform order ID" value={w.platformOrderId} />
      </span>
    );
  }
  if (w.errorCode) {
    const text = `${w.errorCode} ${w.errorMsg ?? ""}`.trim();
    return (
      <span
        className={
          "truncate " + (w.state === "failed" ? "text-red-800 dark:text-red-300" : "text-amber-800 dark:text-amber-300")
        }
        title={text}
      >
        {text}
      </span>
    );
  }
  return dash;
}

export const withdrawalColumns = col.columns([
  // The time opens the withdrawal's page: a column of its own for the link cost the width a key column needs.
  col.accessor("requestedAt", {
    ...column("Requested", 205, { time: true }),
    cell: (c) => (
      <Link
        href={`/withdrawals/${c.row.original.id}`}
        className="text-blue-800 underline dark:text-blue-300"
        aria-label={`Open withdrawal ${c.row.original.id}`}
      >
        <TimeCell ms={ms(c.getValue())} />
      </Link>
    ),
  }),
  col.accessor("state", {
    ...column("State", 215),
    cell: (c) => <StateBadge state={c.getValue()} creditedAt={c.row.original.creditedAt} />,
  }),
  col.accessor("subUid", idColumn("sub-account UID", "Sub-account", 140, { priority: 2 })),
  col.accessor("coin", textColumn("Coin", 70, 3)),
  col.accessor("amount", {
    ...column("Amount", 140, { numeric: true }),
    cell: (c) => <DecimalCell value={c.getValue()} suffix={c.row.original.coin} />,
  }),
  col.accessor((w) => w.platformOrderId ?? w.errorCode ?? w.rejectReason ?? "", {
    id: "platform",
    ...column("Outcome", 130),
    cell: (c) => <PlatformAnswer w={c.row.original} />,
  }),
  col.accessor("dest", {
    ...column("Destination", 110, { priority: 3 }),
    cell: (c) => (c.getValue() === "on_chain" ? "on chain" : "internal"),
  }),
  col.accessor("chain", textColumn("Chain", 110, 3)),
  col.accessor("address", idColumn("address", "Address / UID", 150)),
  col.accessor("tag", textColumn("Tag", 90, 3)),
  col.accessor("requestedBy", textColumn("Requested by", 170)),
  col.accessor((w) => w.approvedBy ?? w.rejectedBy ?? "", {
    id: "decidedBy",
    ...column("Decided by", 190, { priority: 2 }),
    cell: (c) => c.getValue() || dash,
  }),
  col.accessor((w) => w.approvedAt ?? w.rejectedAt ?? "", {
    id: "decidedAt",
    ...column("Decided", 220, { priority: 3, time: true }),
    cell: (c) => (c.getValue() ? <TimeCell ms={ms(c.getValue())} /> : dash),
  }),
  col.accessor("clientOid", idColumn("client order ID", "clientOid", 200, { priority: 3 })),
  col.accessor("reason", {
    ...column("Reason", 150),
    cell: (c) => (
      <span className="truncate" title={c.getValue()}>
        {c.getValue()}
      </span>
    ),
  }),
]);
