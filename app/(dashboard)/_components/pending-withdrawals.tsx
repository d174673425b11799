"use client";

import { type WithdrawalView } from "@/lib/api/withdrawals/ledger";
import { useResourceQuery } from "@/lib/client/use-resource-query";
import { formatUtc, groupDecimal } from "@/lib/format";
import { Panel } from "@/components/ui/panel";
import { CardError, CardSkeleton, QueryView } from "@/components/ui/query-view";
import { withdrawalsRoutes } from "@/lib/api/withdrawals/routes";

const SHOWN = 5;

/** Withdrawal requests waiting for a second person (a lead who did not request them). */
export function PendingWithdrawals({ currentEmail }: { currentEmail: string }) {
  const q = useResourceQuery(withdrawalsRoutes.list, { input: { state: "requested" } });
  return (
    <Panel
      id="pending-withdrawals-title"
      title="Pending withdrawals"
      more={{ href: "/withdrawals", label: "Approval queue" }}
    >
      <QueryView
        query={q}
        loading={<CardSkeleton label="Loading withdrawal requests" />}
        errorView={CardError}
        empty={(page) =>
          page.items.length === 0 ? (
            <p className="text-sm text-slate-700 dark:text-slate-300">
              No withdrawal requests are waiting for approval.
            </p>
          ) : null
        }
      >
        {(page) => <PendingList items={page.items} more={Boolean(page.nextCursor)} currentEmail={currentEmail} />}
      </QueryView>
    </Panel>
  );
}

function PendingList({ items, more, currentEmail }: { items: WithdrawalView[]; more: boolean; currentEmail: string }) {
  const own = (w: WithdrawalView) => w.requestedBy.toLowerCase() === currentEmail.toLowerCase();
  return (
    <>
      <p className="text-sm text-slate-700 dark:text-slate-300">
        <span className="tabular text-2xl font-bold text-slate-900 dark:text-white">
          {items.length}
          {more ? "+" : ""}
        </span>{" "}
        {items.length === 1 && !more ? "request is" : "requests are"} waiting for approval.
      </p>
      <ul className="divide-y divide-slate-100 text-sm dark:divide-slate-800">
        {items.slice(0, SHOWN).map((w) => (
          <li key={w.id} className="flex flex-wrap items-baseline justify-between gap-x-3 py-1.5">
            <span>
              <span className="tabular font-mono">{groupDecimal(w.amount)}</span> {w.coin}
              <span className="text-slate-600 dark:text-slate-400"> from {w.subUid}</span>
            </span>
            <span className="text-xs text-slate-600 dark:text-slate-400">
              {/* The two-person rule: one's own request waits for another lead. */}
              {own(w) ? "yours (another lead approves), " : `${w.requestedBy}, `}
              {formatUtc(Date.parse(w.requestedAt))}
            </span>
          </li>
        ))}
      </ul>
    </>
  );
}
