"use client";

import { useQuery } from "@tanstack/react-query";
import { callResource } from "@/lib/api/call";
import { withdrawalLedgerResources, type WithdrawalView } from "@/lib/api/withdrawal-ledger";
import { ApiError, isTransient } from "@/lib/client/api";
import { formatUtc, groupDecimal } from "@/lib/format";
import { Panel } from "@/components/ui/panel";
import { CardError, CardSkeleton, QueryView } from "@/components/ui/query-view";

const SHOWN = 5;

type PendingRequest = WithdrawalView;

/** ISO or milliseconds → the staff pages' UTC format. */
function when(value: string | number | undefined): string {
  if (value === undefined) return "";
  const ms = typeof value === "number" || /^\d+$/.test(value) ? Number(value) : Date.parse(value);
  return Number.isFinite(ms) ? formatUtc(ms) : "";
}

/** Withdrawal requests waiting for a second person (a lead who did not request them). */
export function PendingWithdrawals({ currentEmail }: { currentEmail: string }) {
  const q = useQuery({
    queryKey: [withdrawalLedgerResources.list.id, { state: "requested" }],
    queryFn: async ({ signal }) => {
      try {
        return await callResource(withdrawalLedgerResources.list, { input: { state: "requested" }, signal });
      } catch (e) {
        // The approvals API is not deployed everywhere yet: its absence (404) is not an outage.
        if (e instanceof ApiError && e.status === 404) return null;
        throw e;
      }
    },
    retry: (count, e) => count < 1 && isTransient(e),
  });

  return (
    <Panel id="pending-withdrawals-title" title="Pending withdrawals" more={{ href: "/withdrawals", label: "Approval queue" }}>
      <QueryView
        query={q}
        loading={<CardSkeleton label="Loading withdrawal requests" />}
        errorView={CardError}
        empty={(page) =>
          page === null ? (
            <p className="text-sm text-slate-700 dark:text-slate-300">
              Withdrawal approvals arrive here: requests made by brokers and leads, waiting for a second person to approve
              or reject them.
            </p>
          ) : page.items.length === 0 ? (
            <p className="text-sm text-slate-700 dark:text-slate-300">No withdrawal requests are waiting for approval.</p>
          ) : null
        }
      >
        {(page) => page && <PendingList items={page.items} more={Boolean(page.nextCursor)} currentEmail={currentEmail} />}
      </QueryView>
    </Panel>
  );
}

function PendingList({ items, more, currentEmail }: { items: PendingRequest[]; more: boolean; currentEmail: string }) {
  const own = (w: PendingRequest) => w.requestedBy?.toLowerCase() === currentEmail.toLowerCase();
  return (
    <>
      <p className="text-sm text-slate-700 dark:text-slate-300">
        <span className="text-2xl font-bold text-slate-900 tabular dark:text-white">
          {items.length}
          {more ? "+" : ""}
        </span>{" "}
        {items.length === 1 && !more ? "request is" : "requests are"} waiting for approval.
      </p>
      <ul className="divide-y divide-slate-100 text-sm dark:divide-slate-800">
        {items.slice(0, SHOWN).map((w, i) => (
          <li key={w.id ?? i} className="flex flex-wrap items-baseline justify-between gap-x-3 py-1.5">
            <span>
              <span className="font-mono tabular">{w.amount ? groupDecimal(w.amount) : "—"}</span> {w.coin ?? ""}
              {w.subUid && <span className="text-slate-600 dark:text-slate-400"> from {w.subUid}</span>}
            </span>
            <span className="text-xs text-slate-600 dark:text-slate-400">
              {/* The two-person rule: one's own request waits for another lead. */}
              {w.requestedBy ? (own(w) ? "yours (another lead approves), " : `${w.requestedBy}, `) : ""}
              {when(w.requestedAt)}
            </span>
          </li>
        ))}
      </ul>
    </>
  );
}
