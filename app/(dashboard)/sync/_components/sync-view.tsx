"use client";
// /sync: where each sync job stands (lag, failures, records, calls), the sub-accounts whose deposit
// sync needs attention most or any one by UID (never the whole registry at once), and "check now" for one
// (audited; the next sweep of any instance takes it, within seconds).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import Link from "next/link";
import { SubAccountFilter } from "@/components/data-table/subaccount-filter";
import { Badge } from "@/components/ui/badge";
import { controlClass, secondaryButton } from "@/components/ui/styles";
import { callResource } from "@/lib/api/call";
import { errorText } from "@/lib/client/api";
import { formatUtc } from "@/lib/format";
import { ListTable, type ListColumn } from "@/components/ui/list-table";
import { Loading, QueryView } from "@/components/ui/query-view";
import type { LedgerSyncJob, LedgerSyncRow } from "@/lib/api/ledger";
import { useResourceQuery } from "@/lib/client/use-resource-query";
import { activeCount, backfillWords, checkPace } from "./sync-words";
import { DatasetCoverageTable } from "./dataset-coverage";
import { ledgerRoutes } from "@/lib/api/ledger/routes";

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

/** Job names as staff read them. */
const JOB_LABELS: Record<string, string> = {
  deposits: "Deposits (E1), per sub-account",
  fills: "Fills (E4), per key",
  "plan-orders": "Plan orders (E3), per key and symbol",
  "assets-snapshot": "Daily assets (E2), per sub-account",
  "rebate-snapshot": "Daily rebate info (E7), per sub-account",
};

const lag = (s: number | null) =>
  s === null ? "—" : s < 120 ? `${s} s` : s < 7200 ? `${Math.round(s / 60)} min` : `${Math.round(s / 3600)} h`;

const count = (n: number) => n.toLocaleString("en-US");

const JOB_COLUMNS: ListColumn<LedgerSyncJob>[] = [
  { header: "Job", names: true, cell: (j) => JOB_LABELS[j.job] ?? j.job },
  { header: "Started on", numeric: true, cell: (j) => count(j.units) },
  { header: "Checked", numeric: true, cell: (j) => count(j.checked) },
  { header: "Failing", numeric: true, cell: (j) => count(j.failing) },
  { header: "Lag (stalest)", numeric: true, cell: (j) => lag(j.lagSeconds) },
  { header: "Records read", numeric: true, cell: (j) => count(j.records) },
  { header: "Calls", numeric: true, cell: (j) => count(j.calls) },
  { header: "Budget used (last 60 s)", numeric: true, cell: (j) => budgetUsed(j.budget) },
];

// Name over UID, and each time's day over its hour (At): the nine columns fit a laptop's width.
const SUBACCOUNT_COLUMNS: ListColumn<LedgerSyncRow>[] = [
  {
    header: "Sub-account",
    cell: (r) => (
      <Link href={`/sub-accounts/${r.subUid}`} className="underline-offset-2 hover:underline">
        {r.subaccountName ? <span className="block break-all">{r.subaccountName}</span> : null}
        <span className="font-mono text-xs">{r.subUid}</span>
      </Link>
    ),
  },
  {
    header: "State",
    cell: (r) =>
      r.errors > 0 ? (
        <Badge tone="error">failing ({r.errors})</Badge>
      ) : r.lastSuccessAt === null ? (
        <Badge tone="neutral">not yet</Badge>
      ) : r.backfillDone ? (
        <Badge tone="ok">current</Badge>
      ) : (
        <Badge tone="warn">backfilling</Badge>
      ),
  },
  { header: "Last success", cell: (r) => <At iso={r.lastSuccessAt} /> },
  { header: "Next check", cell: (r) => <At iso={r.nextCheckAt} /> },
  { header: "Newest record", cell: (r) => <At iso={r.newestRecordAt} /> },
  { header: "Records read", numeric: true, cell: (r) => count(r.records) },
  { header: "Calls", numeric: true, cell: (r) => count(r.calls) },
  {
    header: "Last error",
    className: "max-w-48 truncate",
    cell: (r) => <span title={r.lastError ?? undefined}>{r.lastError ?? "—"}</span>,
  },
];

export function SyncView() {
  const qc = useQueryClient();
  // One sub-account looked up by UID (any of the registry's), else those needing attention most.
  const [subUid, setSubUid] = useState<string | null>(null);
  const q = useResourceQuery(
    ledgerRoutes.sync,
    { input: subUid ? { subUid } : {} },
    { refetchInterval: 5_000, placeholderData: (previous) => previous },
  );
  const check = useMutation({
    mutationFn: (subUid: string) => callResource(ledgerRoutes.checkNow, { params: { subUid } }),
    onSettled: () => qc.invalidateQueries({ queryKey: [ledgerRoutes.sync.id] }),
  });
  return (
    <QueryView query={q} loading={<Loading what="the sync's state" />}>
      {({ sync, freshness, backfill, jobs, rows }) => (
        <div className="space-y-4">
          <p role="status" data-testid="sync-summary" className="text-sm">
            {sync.on ? (
              <>
                The sync is on: at most {`${Math.round(sync.share * 100)}%`} of each operation&apos;s rate, a sweep
                every {sync.sweepSeconds} s. Active sub-accounts (a deposit in the last week:{" "}
                {activeCount(sync.active, freshness)}){" "}
                {checkPace(sync.activeEverySeconds, sync.otherEverySeconds, backfill.checkEverySeconds !== null)}.{" "}
              </>
            ) : (
              <>The sync is off on this instance (LEDGER_SYNC=off): another instance may run it. </>
            )}
            {count(freshness.checked)} of {count(freshness.subaccounts)} sub-accounts checked,{" "}
            {count(freshness.backfilled)} with their history complete
            {freshness.failing ? `, ${count(freshness.failing)} failing` : ""}.
          </p>
          <p role="status" data-testid="backfill-estimate" className="text-sm">
            {backfillWords(backfill, sync.on)}
          </p>
          <ListTable
            label="Sync jobs"
            columns={JOB_COLUMNS}
            rows={jobs}
            rowKey={(j) => j.job}
            rowData={(j) => ({ "data-job": j.job })}
          />
          <p className="text-xs text-slate-600 dark:text-slate-400">
            Records read are those the platform sent, counted at every read: each check reads its recent window again,
            so the figure grows while the ledger stays the same. What each ledger holds is counted on its own page:{" "}
            <Link href="/deposits" className="underline">
              Deposits
            </Link>
            ,{" "}
            <Link href="/spot/fills" className="underline">
              Fills
            </Link>
            ,{" "}
            <Link href="/spot/plan-orders" className="underline">
              Plan orders
            </Link>
            .
          </p>
          <div className="flex flex-wrap items-end gap-3">
            <SubAccountFilter
              value={subUid}
              allLabel="Those needing attention most"
              onChange={setSubUid}
              className={`${controlClass} w-[28rem] max-w-full`}
            />
            <p className="text-xs text-slate-600 dark:text-slate-400">
              {subUid
                ? "The deposit sync of the sub-account chosen."
                : `The ${rows.length} sub-accounts needing attention most: failing first, then the longest since ` +
                  `a success.`}
            </p>
          </div>
          {check.isError ? (
            <p role="alert" className="text-sm text-red-700 dark:text-red-300">
              Check now was refused: {errorText(check.error)}
            </p>
          ) : check.isSuccess ? (
            // What was asked, and when its effect shows: the row changes once the check has run, not now.
            <p role="status" className="text-sm" data-testid="check-now-outcome">
              UID {check.data.subUid} is checked now, ahead of every other sync run (with the rest of its history if it
              is not complete): its row shows the check once done.
            </p>
          ) : null}
          <ListTable
            label="Deposit sync per sub-account"
            columns={[
              ...SUBACCOUNT_COLUMNS,
              {
                header: "Check now",
                hiddenHeader: true,
                cell: (r) => (
                  <button
                    type="button"
                    className={`${secondaryButton} whitespace-nowrap`}
                    disabled={check.isPending && check.variables === r.subUid}
                    onClick={() => check.mutate(r.subUid)}
                    aria-label={`Check ${r.subaccountName ?? r.subUid} now`}
                  >
                    Check now
                  </button>
                ),
              },
            ]}
            rows={rows}
            rowKey={(r) => r.subUid}
            rowData={(r) => ({ "data-row-id": r.subUid })}
          />
          {/* Last: it loads on its own, and nothing below it moves when it does. */}
          <DatasetCoverageTable />
        </div>
      )}
    </QueryView>
  );
}

/** "2.4 of 5 calls/s (48%)": the job's calls over the last 60 s against the share it may take. */
function budgetUsed(b: { usedPerSecond: number; allowedPerSecond: number } | null): string {
  if (!b) return "—";
  return (
    `${b.usedPerSecond} of ${b.allowedPerSecond} calls/s ` +
    `(${Math.round((b.usedPerSecond / b.allowedPerSecond) * 100)}%)`
  );
}
