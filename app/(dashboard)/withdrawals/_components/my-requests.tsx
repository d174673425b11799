"use client";
// "Concerning me": the requester's own latest requests, each with what became of it (the decision, who made
// it, when and why; the platform's answer) and, while one still waits for a decision, a way to cancel it.
import Link from "next/link";
import { useState } from "react";
import { describeError } from "@/lib/client/api";
import type { WithdrawalView } from "@/lib/api/withdrawals";
import { DataTableError } from "@/components/data-table/data-table-states";
import { useWithdrawalPage } from "./api";
import { useCancelWithdrawal } from "./mutations";
import { StateBadge, UtcTime } from "./state-badge";
import { outcomeText, Summary } from "./withdrawal-summary";
import { Panel } from "@/components/ui/panel";

const plainClass =
  "inline-flex items-center rounded-md border border-slate-300 px-2.5 py-1 text-sm font-semibold hover:bg-slate-100 disabled:cursor-not-allowed disabled:opacity-50 dark:border-slate-600 dark:hover:bg-slate-800";

function Decision({ w }: { w: WithdrawalView }) {
  if (w.state === "requested") return <span className="text-slate-600 dark:text-slate-400">Waiting for a lead&apos;s decision.</span>;
  if (w.state === "cancelled") return <span>You cancelled it at <UtcTime iso={w.cancelledAt} />; nothing was sent.</span>;
  if (w.state === "rejected") {
    return (
      <span>
        Rejected by {w.rejectedBy} at <UtcTime iso={w.rejectedAt} />: “{w.rejectReason}”. Nothing was sent.
      </span>
    );
  }
  return (
    <span>
      Approved by {w.approvedBy} at <UtcTime iso={w.approvedAt} />. {outcomeText(w)}
    </span>
  );
}

export function MyRequests({ me }: { me: string }) {
  const mine = useWithdrawalPage(new URLSearchParams({ requestedBy: me, limit: "10" }));
  const cancel = useCancelWithdrawal();
  const [notice, setNotice] = useState<{ error: boolean; text: string } | null>(null);
  const items = mine.data?.items ?? [];
  return (
    <Panel title="Your requests" surface={false}>
      <div aria-live="polite">
        {notice ? (
          <p role={notice.error ? "alert" : "status"} className={`text-sm ${notice.error ? "text-red-700 dark:text-red-300" : "text-emerald-800 dark:text-emerald-300"}`}>
            {notice.text}
          </p>
        ) : null}
      </div>
      {mine.isError ? <DataTableError error={mine.error} onRetry={() => void mine.refetch()} /> : null}
      {mine.isPending ? <p className="text-sm">Loading…</p> : null}
      {mine.isSuccess && items.length === 0 ? <p className="text-sm text-slate-600 dark:text-slate-400">You have requested no withdrawal yet.</p> : null}
      <ul className="space-y-2 text-sm" aria-label="Your latest withdrawal requests">
        {items.map((w) => (
          <li key={w.id} data-withdrawal-id={w.id} className="flex flex-wrap items-center gap-2">
            <Link href={`/withdrawals/${w.id}`} className="text-blue-800 underline dark:text-blue-300">
              <UtcTime iso={w.requestedAt} />
            </Link>{" "}
            <StateBadge state={w.state} creditedAt={w.creditedAt} /> <Summary w={w} /> · <Decision w={w} />
            {w.state === "requested" ? (
              <button
                type="button"
                className={plainClass}
                disabled={cancel.isPending}
                aria-label={`Cancel your request of ${w.amount} ${w.coin}`}
                onClick={() =>
                  cancel.mutate(w.id, {
                    onSuccess: (r) => setNotice({ error: false, text: `Cancelled your request of ${r.amount} ${r.coin}; it no longer holds the balance.` }),
                    onError: (e) => setNotice({ error: true, text: `Not cancelled: ${describeError(e).title}` }),
                  })
                }
              >
                {cancel.isPending && cancel.variables === w.id ? "Cancelling…" : "Cancel request"}
              </button>
            ) : null}
          </li>
        ))}
      </ul>
    </Panel>
  );
}
