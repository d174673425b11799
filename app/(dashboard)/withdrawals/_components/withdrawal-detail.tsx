"use client";
// One withdrawal's page: its timeline from the request to the platform's answer. Audit rows, the ledger and
// the requester's list link here (/withdrawals/<id>).
import Link from "next/link";
import type { ReactNode } from "react";
import type { WithdrawalView } from "@/lib/api/withdrawals/ledger";
import { ApiError } from "@/lib/client/api";
import { DataTableError } from "@/components/data-table/data-table-states";
import { StateBadge } from "./state-badge";
import { IsoTime } from "@/components/data-table/time";
import { PolicyLine, Summary } from "./withdrawal-summary";
import { HoldNotice } from "./hold-notice";
import { TravelRulePanel } from "./travel-rule-panel";
import { ScreeningsPanel } from "./screenings-panel";
import { NameMatches } from "./name-matches";
import { useResourceQuery } from "@/lib/client/use-resource-query";
import { withdrawalsRoutes } from "@/lib/api/withdrawals/routes";

type Step = { key: string; at: string | null; title: string; body: ReactNode };

/** The steps that happened, in order; the last says what is awaited when nothing is final yet. */
export function timelineOf(w: WithdrawalView): Step[] {
  const steps: Step[] = [
    {
      key: "requested",
      at: w.requestedAt,
      title: "Requested",
      body: (
        <>
          by {w.requestedBy}: “{w.reason}”
        </>
      ),
    },
  ];
  if (w.cancelledAt)
    steps.push({
      key: "cancelled",
      at: w.cancelledAt,
      title: "Cancelled",
      body: <>by the requester; nothing was sent</>,
    });
  if (w.rejectedAt)
    steps.push({
      key: "rejected",
      at: w.rejectedAt,
      title: "Rejected",
      body: (
        <>
          by {w.rejectedBy}: “{w.rejectReason}”; nothing was sent
        </>
      ),
    });
  // Each approval the policy asked for, in order; the last is the one that approved it.
  for (const a of w.policy.approvals.filter((a) => a.by !== w.approvedBy))
    steps.push({
      key: `approval-${a.by}`,
      at: a.at,
      title: "Approved (one of several)",
      body: (
        <>
          by {a.by} as {a.role}
        </>
      ),
    });
  if (w.approvedAt) steps.push({ key: "approved", at: w.approvedAt, title: "Approved", body: <>by {w.approvedBy}</> });
  if (w.submittedAt)
    steps.push({
      key: "sent",
      at: w.submittedAt,
      title: "Sent to the platform",
      body: (
        <>
          with clientOid <span className="font-mono">{w.clientOid}</span>
        </>
      ),
    });
  if (w.state === "confirmed") {
    steps.push({
      key: "answer",
      at: w.settledAt,
      title: "Accepted by the platform",
      body: (
        <>
          order ID <span className="font-mono">{w.platformOrderId}</span>. The platform does not report when the coins
          arrive.
        </>
      ),
    });
    if (w.dest === "internal_transfer") {
      steps.push(
        w.creditedAt
          ? {
              key: "credited",
              at: w.creditedAt,
              title: "Credited to the recipient",
              body: <>the ledger saw the deposit on UID {w.address} settled</>,
            }
          : {
              key: "credited",
              at: null,
              title: "Not yet seen credited",
              body: <>the ledger has not seen the deposit on UID {w.address} settled yet</>,
            },
      );
    }
  } else if (w.state === "failed") {
    steps.push({
      key: "answer",
      at: w.settledAt,
      title: "Refused by the platform",
      body: (
        <>
          {w.errorCode} {w.errorMsg}; nothing moved
        </>
      ),
    });
  } else if (w.state === "unknown") {
    steps.push({
      key: "answer",
      at: null,
      title: "No answer from the platform",
      body: (
        <>
          {w.errorCode}: {w.errorMsg}. A lead reconciles it by resending the same request (same clientOid), which cannot
          pay twice.
        </>
      ),
    });
  } else if (w.state === "approved") {
    steps.push({
      key: "not-sent",
      at: null,
      title: "Not sent yet",
      body: (
        <>
          approved, not yet sent to the platform. While compliance holds the sub-account it is not sent; once the hold
          is cleared, a lead reconciles it (same clientOid)
          {/* Monitoring: compliance's hold on the sub-account, said where the approved request waits. */}
          <HoldNotice subUid={w.subUid} />
        </>
      ),
    });
  } else if (w.state === "requested") {
    steps.push({
      key: "waiting",
      at: null,
      title: "Waiting for a decision",
      body: (
        <>
          {w.policy.stillNeeded ?? "a lead other than the requester approves or rejects it"}; never the requester
          {/* Monitoring: compliance's hold on the sub-account, said where the request waits. */}
          <HoldNotice subUid={w.subUid} />
        </>
      ),
    });
  }
  return steps;
}

/** `compliance`: the viewer reads monitoring (the page gate said so); only then are name matches asked for. */
export function WithdrawalDetail({ id, compliance = false }: { id: string; compliance?: boolean }) {
  const q = useResourceQuery(withdrawalsRoutes.get, { params: { id } });
  if (q.isPending) return <p className="text-sm">Loading…</p>;
  if (q.error instanceof ApiError && q.error.code === "not_found") {
    return (
      <p role="alert" className="text-sm">
        There is no withdrawal {id} in Brokerdesk: check the link.{" "}
        <Link className="text-blue-800 underline dark:text-blue-300" href="/withdrawals">
          All withdrawals
        </Link>
      </p>
    );
  }
  if (q.isError) return <DataTableError error={q.error} onRetry={() => void q.refetch()} />;
  const w = q.data;
  return (
    <div className="space-y-4">
      <p className="flex flex-wrap items-center gap-2 text-sm">
        <StateBadge state={w.state} creditedAt={w.creditedAt} /> <Summary w={w} />
      </p>
      <p className="text-sm" data-testid="withdrawal-policy">
        <PolicyLine w={w} />
      </p>
      <ol aria-label="Timeline" className="space-y-3 border-l-2 border-slate-200 pl-4 dark:border-slate-700">
        {timelineOf(w).map((s) => (
          <li key={s.key} data-step={s.key} className="text-sm">
            <div className="font-semibold">
              {s.title}{" "}
              {s.at ? (
                <span className="font-normal text-slate-600 dark:text-slate-400">
                  · <IsoTime iso={s.at} />
                </span>
              ) : null}
            </div>
            <div>{s.body}</div>
          </li>
        ))}
      </ol>
      {compliance && w.travelRule ? <NameMatches id={w.id} /> : null}
      <TravelRulePanel w={w} />
      <ScreeningsPanel w={w} />
      <p className="text-sm">
        <Link className="text-blue-800 underline dark:text-blue-300" href={`/sub-accounts/${w.subUid}`}>
          Sub-account {w.subUid}
        </Link>{" "}
        ·{" "}
        <Link className="text-blue-800 underline dark:text-blue-300" href="/withdrawals">
          All withdrawals
        </Link>
      </p>
    </div>
  );
}
