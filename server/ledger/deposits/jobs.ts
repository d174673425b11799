import "server-only";
// The deposit jobs on the ledger's pg-boss (../engine.ts): "ledger-deposits", at most one queued or running
// per sub-account across every instance (policy exclusive, keyed by the UID): one run of ./sync.ts; a failure
// is recorded (for /sync) and retried with backoff, and a job that keeps failing stays in pg-boss's failed
// state with its error. The sweep queues the registry's due runs in the order staff need them
// (./backfill-order.ts): a sub-account staff look at first (also queued at once by prioritize), every newest
// window before any older one.
import { catalog } from "@/lib/platform/catalog";
import { jobBudgets, sharePerSecond } from "../budget";
import { sweepLimit, type DatasetJobs, type EngineContext, type SyncedDataset } from "../dataset";
import { workRuns } from "../runs-queue";
import { dueRuns, hurryQueuedRun, PRIORITY_RUN, requestPriority, type RunMode } from "./backfill-order";
import { callsPerCheckSet, checkIntervals, nextCheckMs, scheduleCounts } from "./schedule";
import { DEPOSITS_JOB, recordSyncFailure, syncSubaccountDeposits } from "./sync";

export const DEPOSITS_QUEUE = "ledger-deposits";

export type DepositJobs = DatasetJobs & {
  /** Staff are looking at this sub-account: its whole history ahead of every other run (./backfill-order.ts). */
  prioritize(subUid: string): Promise<void>;
};

export const depositsDataset: SyncedDataset<DepositJobs> = { name: "deposits", start: startDepositJobs };

async function startDepositJobs(ctx: EngineContext): Promise<DepositJobs> {
  const { db, boss, now } = ctx;
  const budget = jobBudgets([DEPOSITS_JOB], ctx.share, ctx.budget)[DEPOSITS_JOB];
  const perSecond = sharePerSecond("deposits.list", ctx.share);
  const limit = catalog["deposits.list"].rateLimit?.count ?? 1;

  // How often each kind is due again: from the registry and its active part, counted by each sweep.
  const intervalsOf = (counts: Awaited<ReturnType<typeof scheduleCounts>>) =>
    checkIntervals({ perSecond, ...counts, activeSeconds: ctx.activeSeconds, activeShare: ctx.activeShare });
  let intervals = intervalsOf({ registry: 1, active: 0, cost: { active: 1, dormant: 1 } });

  /**
   * Queues the due runs, in backfill order: as many as the sync can serve before the next sweep, twice over,
   * at the most it may take (beyond its share while staff leave the rate unused: ../budget.ts).
   */
  const sweep = async (): Promise<number> => {
    const counts = await scheduleCounts(db, now());
    intervals = intervalsOf(counts);
    const runs = await dueRuns(db, sweepLimit(ctx, Math.max(perSecond, limit)));
    let queued = 0;
    for (const { subUid, mode, priority, check } of runs) {
      const options = { singletonKey: subUid, ...(priority ? { priority: PRIORITY_RUN } : {}) };
      if (await boss.send(DEPOSITS_QUEUE, { subUid, mode, check }, options)) queued++;
    }
    return queued;
  };

  /**
   * Staff are looking at a sub-account: its whole history is queued ahead of every other run now (the next
   * free runner takes it), not at the next sweep; a run of it already queued is moved ahead instead.
   */
  const prioritize = async (subUid: string): Promise<void> => {
    await requestPriority(db, subUid);
    const sent = await boss.send(
      DEPOSITS_QUEUE,
      { subUid, mode: "all" },
      { singletonKey: subUid, priority: PRIORITY_RUN },
    );
    if (!sent) await hurryQueuedRun(db, ctx.schema, DEPOSITS_QUEUE, subUid);
  };

  // Runs at once: enough that the budget is spent while runs wait on the database and pg-boss, not only on the
  // platform (a steady-state check is one call, so the runs' own time is most of a check's); beyond the share
  // while staff leave the rate unused (../budget.ts), so up to the whole limit's worth.
  await workRuns<{ subUid: string; mode?: RunMode; check?: boolean }>(
    boss,
    DEPOSITS_QUEUE,
    Math.max(4, 2 * perSecond, 2 * (catalog["deposits.list"].rateLimit?.count ?? 0)),
    async ({ subUid, mode = "step", check = true }, signal) => {
      const started = now();
      // A run staff asked for goes ahead of the other runs' calls too.
      const runBudget = mode === "all" ? () => budget({ urgent: true }) : budget;
      const out = await syncSubaccountDeposits(subUid, {
        db,
        client: ctx.client,
        budget: runBudget,
        urgent: mode === "all",
        now,
        signal,
        retentionMs: ctx.retentionMs,
        backfill: mode,
        check,
      });
      // A backfill step that was no check (./sync.ts) leaves the schedule as it was.
      const next = out.checked ? nextCheckMs(out, now(), intervals) : null;
      // A backfill's runs take more calls than the checks after it: only those count towards a check's cost.
      // A priority asked for before this run began is served once the history is complete.
      const cost = out.backfillDone && out.checked;
      await db.query(
        `UPDATE ledger_sync SET next_check_at = COALESCE(to_timestamp($3 / 1000.0), next_check_at),
                priority_at = CASE WHEN $4::boolean AND priority_at <= to_timestamp($5 / 1000.0)
                  THEN NULL ELSE priority_at END
                ${cost ? `, ${callsPerCheckSet("$6")}` : ""} WHERE job = $1 AND sub_uid = $2`,
        [DEPOSITS_JOB, subUid, next, out.backfillDone, started, ...(cost ? [out.calls] : [])],
      );
      // Monitoring evaluates what the run added or changed, and, while the backfill extends the coverage (an
      // empty window too), what waited for it: a rule that needs more history than the ledger held.
      if (out.records || out.changes || out.backfillWasOn) await ctx.afterSync(subUid);
    },
    ({ subUid }, e) => recordSyncFailure(db, subUid, e),
  );

  return { sweep, prioritize };
}
