import Link from "next/link";
import type { WithdrawalView } from "@/lib/api/withdrawals";
import { dataColumnHelper } from "@/components/data-table/features";
import { IdCell } from "@/components/data-table/copy-button";
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
      <span className={`truncate ${w.state === "failed" ? "text-red-800 dark:text-red-300" : "text-amber-800 dark:text-amber-300"}`} title={text}>
        {text}
      </span>
    );
  }
  return dash;
}

export const withdrawalColumns = col.columns([
  // The time opens the withdrawal's page: a column of its own for the link cost the width a key column needs.
  col.accessor("requestedAt", {
    header: "Requested",
    meta: { priority: 1, time: true, label: "Requested", width: 205 },
    cell: (c) => (
      <Link href={`/withdrawals/${c.row.original.id}`} className="text-blue-800 underline dark:text-blue-300" aria-label={`Open withdrawal ${c.row.original.id}`}>
        <TimeCell ms={ms(c.getValue())} />
      </Link>
    ),
  }),
  col.accessor("state", { header: "State", meta: { priority: 1, label: "State", width: 215 }, cell: (c) => <StateBadge state={c.getValue()} creditedAt={c.row.original.creditedAt} /> }),
  col.accessor("subUid", { header: "Sub-account", meta: { priority: 2, label: "Sub-account", width: 140 }, cell: (c) => <IdCell field="sub-account UID" value={c.getValue()} /> }),
  col.accessor("coin", { header: "Coin", meta: { priority: 3, label: "Coin", width: 70 } }),
  col.accessor("amount", { header: "Amount", meta: { priority: 1, label: "Amount", numeric: true, width: 140 }, cell: (c) => <DecimalCell value={c.getValue()} suffix={c.row.original.coin} /> }),
  col.accessor((w) => w.platformOrderId ?? w.errorCode ?? w.rejectReason ?? "", {
    id: "platform",
    header: "Outcome",
    meta: { priority: 1, label: "Outcome", width: 130 },
    cell: (c) => <PlatformAnswer w={c.row.original} />,
  }),
  col.accessor("dest", {
    header: "Destination",
    meta: { priority: 3, label: "Destination", width: 110 },
    cell: (c) => (c.getValue() === "on_chain" ? "on chain" : "internal"),
  }),
  col.accessor("chain", { header: "Chain", meta: { priority: 3, label: "Chain", width: 110 }, cell: (c) => c.getValue() ?? dash }),
  col.accessor("address", { header: "Address / UID", meta: { priority: 1, label: "Address / UID", width: 150 }, cell: (c) => <IdCell field="address" value={c.getValue()} /> }),
  col.accessor("tag", { header: "Tag", meta: { priority: 3, label: "Tag", width: 90 }, cell: (c) => c.getValue() ?? dash }),
  col.accessor("requestedBy", { header: "Requested by", meta: { priority: 1, label: "Requested by", width: 170 } }),
  col.accessor((w) => w.approvedBy ?? w.rejectedBy ?? "", {
    id: "decidedBy",
    header: "Decided by",
    meta: { priority: 2, label: "Decided by", width: 190 },
    cell: (c) => c.getValue() || dash,
  }),
  col.accessor((w) => w.approvedAt ?? w.rejectedAt ?? "", {
    id: "decidedAt",
    header: "Decided",
    meta: { priority: 3, time: true, label: "Decided", width: 220 },
    cell: (c) => (c.getValue() ? <TimeCell ms={ms(c.getValue())} /> : dash),
  }),
  col.accessor("clientOid", { header: "clientOid", meta: { priority: 3, label: "clientOid", width: 200 }, cell: (c) => <IdCell field="client order ID" value={c.getValue()} /> }),
  col.accessor("reason", {
    header: "Reason",
    meta: { priority: 1, label: "Reason", width: 150 },
    cell: (c) => (
      <span className="truncate" title={c.getValue()}>
        {c.getValue()}
      </span>
    ),
  }),
]);
