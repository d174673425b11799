"use client";
// /sync (issue 14): where each sync job stands (lag, failures, records, calls), the sub-accounts whose deposit
// sync needs attention most or any one by UID (never the whole registry at once), and "check now" for one
// (audited; the next sweep of any instance takes it, within seconds).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import Link from "next/link";
import { SubAccountFilter } from "@/components/data-table/subaccount-filter";
import { Badge } from "@/components/ui/badge";
import { secondaryButton } from "@/components/ui/styles";
import { callResource } from "@/lib/api/call";
import { pageCalls } from "@/lib/api/page-routes";
import { describeError } from "@/lib/client/api";
import { formatUtc } from "@/lib/format";
import { TableHead } from "@/components/ui/table-head";

/** A time in a narrow cell: its UTC day over its hour ("2026-11-26" / "13:00:00 UTC"). */
function At({ iso }: { iso: string | null }) {
  if (!iso) return <>—</>;
  const [day, ...rest] = formatUtc(Date.parse(iso)).split(" ");
  return (
    <time dateTime={iso} className="whitespace-nowrap">
      <span className="block">{day}</span> {rest.join(" ")}
    </time>
  );
}

/** A table's column headers (both tables of the page). */
/** Job names as staff read them. */
const JOB_LABELS: Record<string, string> = {
  deposits: "Deposits (E1), per sub-account",
  fills: "Fills (E4), per key",
  "plan-orders": "Plan orders (E3), per key and symbol",
  "assets-snapshot": "Daily assets (E2), per sub-account",
  "rebate-snapshot": "Daily rebate info (E7), per sub-account",
};

const lag = (s: number | null) => (s === null ? "—" : s < 120 ? `${s} s` : s < 7200 ? `${Math.round(s / 60)} min` : `${Math.round(s / 3600)} h`);

export function SyncView() {
  const qc = useQueryClient();
  // One sub-account looked up by UID (any of the registry's), else those needing attention most.
  const [subUid, setSubUid] = useState<string | null>(null);
  const q = useQuery({
    queryKey: [pageCalls.ledgerSync.id, subUid],
    queryFn: ({ signal }) => callResource(pageCalls.ledgerSync, { input: subUid ? { subUid } : {}, signal }),
    refetchInterval: 5_000,
    placeholderData: (previous) => previous,
  });
  const check = useMutation({
    mutationFn: (subUid: string) => callResource(pageCalls.ledgerCheckNow, { params: { subUid } }),
    onSettled: () => qc.invalidateQueries({ queryKey: [pageCalls.ledgerSync.id] }),
  });
  if (q.isPending) return <p role="status">Loading the sync&apos;s state…</p>;
  if (q.isError)
    return (
      <p role="alert" className="text-red-700 dark:text-red-300">
        Could not load the sync&apos;s state: {describeError(q.error).title}
      </p>
    );
  const { sync, freshness, jobs, rows } = q.data;
  return (
    <div className="space-y-4">
      <p role="status" data-testid="sync-summary" className="text-sm">
        {sync.on ? (
          <>
            The sync is on: at most {Math.round(sync.share * 100)}% of each operation&apos;s rate, a sweep every {sync.sweepSeconds} s. Active
            sub-accounts ({sync.active.toLocaleString("en-US")}, a deposit in the last week) are checked every{" "}
            {sync.activeEverySeconds.toLocaleString("en-US")} s, every other at least every {sync.otherEverySeconds.toLocaleString("en-US")} s.{" "}
          </>
        ) : (
          <>The sync is off on this instance (LEDGER_SYNC=off): another instance may run it. </>
        )}
        {freshness.checked} of {freshness.subaccounts} sub-accounts checked, {freshness.backfilled} with their history complete
        {freshness.failing ? `, ${freshness.failing} failing` : ""}.
      </p>
      <div className="overflow-x-auto rounded-lg border border-slate-200 dark:border-slate-700">
        <table className="w-full text-sm" aria-label="Sync jobs">
          <TableHead className="bg-slate-50 text-left dark:bg-slate-900" cell="px-3 py-2 font-semibold" columns={["Job", "Started on", "Checked", "Failing", "Lag (stalest)", "Records", "Calls", "Budget used (last 60 s)"]} />
          <tbody>
            {jobs.map((j) => (
              <tr key={j.job} data-job={j.job} className="border-t border-slate-200 dark:border-slate-700">
                <th scope="row" className="px-3 py-1.5 text-left font-normal">
                  {JOB_LABELS[j.job] ?? j.job}
                </th>
                {[j.units, j.checked, j.failing].map((n, i) => (
                  <td key={i} className="px-3 py-1.5 text-right tabular-nums">
                    {n.toLocaleString("en-US")}
                  </td>
                ))}
                <td className="px-3 py-1.5 text-right tabular-nums">{lag(j.lagSeconds)}</td>
                <td className="px-3 py-1.5 text-right tabular-nums">{j.records.toLocaleString("en-US")}</td>
                <td className="px-3 py-1.5 text-right tabular-nums">{j.calls.toLocaleString("en-US")}</td>
                <td className="px-3 py-1.5 text-right tabular-nums">{budgetUsed(j.budget)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="flex flex-wrap items-end gap-3">
        <SubAccountFilter id="sync-subaccount" value={subUid} allLabel="Those needing attention most" onChange={setSubUid} />
        <p className="text-xs text-slate-600 dark:text-slate-400">
          {subUid ? "The deposit sync of the sub-account chosen." : `The ${rows.length} sub-accounts needing attention most: failing first, then the longest since a success.`}
        </p>
      </div>
      {check.isError ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          Check now was refused: {describeError(check.error).title}
        </p>
      ) : null}
      <div className="overflow-x-auto rounded-lg border border-slate-200 dark:border-slate-700">
        <table className="w-full text-sm" aria-label="Deposit sync per sub-account">
          <TableHead className="bg-slate-50 text-left dark:bg-slate-900" cell="px-3 py-2 font-semibold" columns={["Sub-account", "State", "Last success", "Next check", "Newest record", "Records", "Calls", "Last error", ""]} />
          <tbody>
            {rows.map((r) => (
              <tr key={r.subUid} data-row-id={r.subUid} className="border-t border-slate-200 dark:border-slate-700">
                <td className="px-3 py-1.5">
                  {/* Name over UID, and each time's day over its hour (At): the nine columns fit a laptop's width. */}
                  <Link href={`/sub-accounts/${r.subUid}`} className="underline-offset-2 hover:underline">
                    {r.subaccountName ? <span className="block break-all">{r.subaccountName}</span> : null}
                    <span className="font-mono text-xs">{r.subUid}</span>
                  </Link>
                </td>
                <td className="px-3 py-1.5">
                  {r.errors > 0 ? (
                    <Badge tone="error">failing ({r.errors})</Badge>
                  ) : r.lastSuccessAt === null ? (
                    <Badge tone="neutral">not yet</Badge>
                  ) : r.backfillDone ? (
                    <Badge tone="ok">current</Badge>
                  ) : (
                    <Badge tone="warn">backfilling</Badge>
                  )}
                </td>
                <td className="px-3 py-1.5">
                  <At iso={r.lastSuccessAt} />
                </td>
                <td className="px-3 py-1.5">
                  <At iso={r.nextCheckAt} />
                </td>
                <td className="px-3 py-1.5">
                  <At iso={r.newestRecordAt} />
                </td>
                <td className="px-3 py-1.5 text-right tabular-nums">{r.records.toLocaleString("en-US")}</td>
                <td className="px-3 py-1.5 text-right tabular-nums">{r.calls.toLocaleString("en-US")}</td>
                <td className="max-w-48 truncate px-3 py-1.5" title={r.lastError ?? undefined}>
                  {r.lastError ?? "—"}
                </td>
                <td className="px-3 py-1.5">
                  <button
                    type="button"
                    className={`${secondaryButton} whitespace-nowrap`}
                    disabled={check.isPending && check.variables === r.subUid}
                    onClick={() => check.mutate(r.subUid)}
                    aria-label={`Check ${r.subaccountName ?? r.subUid} now`}
                  >
                    Check now
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/** "2.4 of 5 calls/s (48%)": the job's calls over the last 60 s against the share it may take. */
function budgetUsed(b: { usedPerSecond: number; allowedPerSecond: number } | null): string {
  if (!b) return "—";
  return `${b.usedPerSecond} of ${b.allowedPerSecond} calls/s (${Math.round((b.usedPerSecond / b.allowedPerSecond) * 100)}%)`;
}
