"use client";
// "Concerning me": the requester's own latest requests, each with what became of it (the decision, who made
// it, when and why; the platform's answer) and, while one still waits for a decision, a way to cancel it.
import Link from "next/link";
import { errorText } from "@/lib/client/api";
import { groupDecimal } from "@/lib/format";
import type { WithdrawalView } from "@/lib/api/withdrawals";
import { buttonClass } from "@/components/ui/styles";
import { useNotice } from "@/components/ui/notice";
import { Loading, QueryView } from "@/components/ui/query-view";
import { useWithdrawalPage } from "./api";
import { useCancelWithdrawal } from "./mutations";
import { StateBadge } from "./state-badge";
import { HoldNotice } from "./hold-notice";
import { IsoTime } from "@/components/data-table/time";
import { outcomeText, Summary } from "./withdrawal-summary";
import { Panel } from "@/components/ui/panel";

const plainClass = buttonClass("secondary", "sm");

function Decision({ w }: { w: WithdrawalView }) {
  if (w.state === "requested")
    return <span className="text-slate-600 dark:text-slate-400">Waiting for a lead&apos;s decision.</span>;
  if (w.state === "cancelled")
    return (
      <span>
        You cancelled it at <IsoTime iso={w.cancelledAt} />; nothing was sent.
      </span>
    );
  if (w.state === "rejected") {
    return (
      <span>
        Rejected by {w.rejectedBy} at <IsoTime iso={w.rejectedAt} />: “{w.rejectReason}”. Nothing was sent.
      </span>
    );
  }
  return (
    <span>
      Approved by {w.approvedBy} at <IsoTime iso={w.approvedAt} />. {outcomeText(w)}
    </span>
  );
}

export function MyRequests({ me }: { me: string }) {
  const mine = useWithdrawalPage(new URLSearchParams({ requestedBy: me, limit: "10" }));
  const cancel = useCancelWithdrawal();
  const { say, notice } = useNotice();
  return (
    <Panel title="Your requests" surface={false}>
      <div aria-live="polite">{notice}</div>
      <QueryView
        query={mine}
        loading={<Loading what="your requests" />}
        empty={(data) =>
          data.items.length === 0 && (
            <p className="text-sm text-slate-600 dark:text-slate-400">You have requested no withdrawal yet.</p>
          )
        }
      >
        {(data) => (
          <ul className="space-y-2 text-sm" aria-label="Your latest withdrawal requests">
            {data.items.map((w) => (
              <li key={w.id} data-withdrawal-id={w.id} className="flex flex-wrap items-center gap-2">
                <Link href={`/withdrawals/${w.id}`} className="text-blue-800 underline dark:text-blue-300">
                  <IsoTime iso={w.requestedAt} />
                </Link>{" "}
                <StateBadge state={w.state} creditedAt={w.creditedAt} /> <Summary w={w} /> · <Decision w={w} />
                {/* Compliance's hold on one's own request: that it waits for compliance, never why. */}
                {w.state === "requested" ? <HoldNotice subUid={w.subUid} mine /> : null}
                {w.state === "requested" ? (
                  <button
                    type="button"
                    className={plainClass}
                    disabled={cancel.isPending}
                    aria-label={`Cancel request of ${w.amount} ${w.coin}`}
                    onClick={() =>
                      cancel.mutate(w.id, {
                        onSuccess: (r) =>
                          say(
                            "ok",
                            `Cancelled your request of ${groupDecimal(r.amount)} ${r.coin}; it no longer ` +
                              `holds the balance.`,
                          ),
                        onError: (e) => say("error", `Not cancelled: ${errorText(e)}`),
                      })
                    }
                  >
                    {cancel.isPending && cancel.variables === w.id ? "Cancelling…" : "Cancel request"}
                  </button>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </QueryView>
    </Panel>
  );
}
