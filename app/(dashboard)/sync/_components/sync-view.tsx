"use client";
// /sync (issue 14): where the deposit sync stands for every registry sub-account, and "check now" for one
// (audited; the next sweep of any instance takes it, within seconds).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { secondaryButton } from "@/components/ui/styles";
import { callResource } from "@/lib/api/call";
import { ledgerResources } from "@/lib/api/ledger";
import { describeError } from "@/lib/client/api";
import { formatUtc } from "@/lib/format";

const at = (iso: string | null) => (iso ? formatUtc(Date.parse(iso)) : "—");

export function SyncView() {
  const qc = useQueryClient();
  const q = useQuery({
    queryKey: [ledgerResources.sync.id],
    queryFn: ({ signal }) => callResource(ledgerResources.sync, { signal }),
    refetchInterval: 5_000,
  });
  const check = useMutation({
    mutationFn: (subUid: string) => callResource(ledgerResources.checkNow, { params: { subUid } }),
    onSettled: () => qc.invalidateQueries({ queryKey: [ledgerResources.sync.id] }),
  });
  if (q.isPending) return <p role="status">Loading the sync&apos;s state…</p>;
  if (q.isError)
    return (
      <p role="alert" className="text-red-700 dark:text-red-300">
        Could not load the sync&apos;s state: {describeError(q.error).title}
      </p>
    );
  const { sync, freshness, rows } = q.data;
  return (
    <div className="space-y-4">
      <p role="status" data-testid="sync-summary" className="text-sm">
        {sync.on ? (
          <>
            The sync is on: at most {Math.round(sync.share * 100)}% of each operation&apos;s rate, a sweep every {sync.sweepSeconds} s, active
            sub-accounts every {sync.activeSeconds} s.{" "}
          </>
        ) : (
          <>The sync is off on this instance (LEDGER_SYNC=off): another instance may run it. </>
        )}
        {freshness.checked} of {freshness.subaccounts} sub-accounts checked, {freshness.backfilled} with their history complete
        {freshness.failing ? `, ${freshness.failing} failing` : ""}.
      </p>
      {check.isError ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          Check now was refused: {describeError(check.error).title}
        </p>
      ) : null}
      <div className="overflow-x-auto rounded-lg border border-slate-200 dark:border-slate-700">
        <table className="w-full text-sm" aria-label="Deposit sync per sub-account">
          <thead className="bg-slate-50 text-left dark:bg-slate-900">
            <tr>
              {["Sub-account", "State", "Last success", "Next check", "Newest record", "Records", "Calls", "Last error", ""].map((h) => (
                <th key={h} scope="col" className="px-3 py-2 font-semibold">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.subUid} data-row-id={r.subUid} className="border-t border-slate-200 dark:border-slate-700">
                <td className="px-3 py-1.5">
                  <Link href={`/sub-accounts/${r.subUid}`} className="underline-offset-2 hover:underline">
                    {r.subaccountName ? `${r.subaccountName} · ` : ""}
                    <span className="font-mono">{r.subUid}</span>
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
                <td className="px-3 py-1.5 whitespace-nowrap">{at(r.lastSuccessAt)}</td>
                <td className="px-3 py-1.5 whitespace-nowrap">{at(r.nextCheckAt)}</td>
                <td className="px-3 py-1.5 whitespace-nowrap">{at(r.newestRecordAt)}</td>
                <td className="px-3 py-1.5 text-right tabular-nums">{r.records.toLocaleString("en-US")}</td>
                <td className="px-3 py-1.5 text-right tabular-nums">{r.calls.toLocaleString("en-US")}</td>
                <td className="max-w-64 truncate px-3 py-1.5" title={r.lastError ?? undefined}>
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
