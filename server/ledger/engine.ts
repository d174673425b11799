import "server-only";
// The ledger's sync, run as jobs on pg-boss (a maintained job engine on PostgreSQL, here on PGlite too):
// - "ledger-sweep", once per few seconds across every instance (pg-boss's throttle, singletonSeconds):
//   queues the registry's due deposit runs in the order staff need them (deposits/backfill-order.ts): a sub-account
//   staff look at first (also queued at once by prioritize), every newest window before any older one;
// - "ledger-deposits", at most one queued or running per sub-account across every instance (policy
//   exclusive, keyed by the UID): one run of server/ledger/deposits/sync.ts; a failure is recorded (for /sync)
//   and retried with backoff, and a job that keeps failing stays in pg-boss's failed state with its error.
// - "ledger-retention", hourly (a pg-boss schedule, so one run across every instance) and once at start:
//   deletes what is older than Brokerdesk's own retention (LEDGER_RETENTION_DAYS), if one is set.
// A restarted instance resumes: the state is in the database (ledger_sync), not in memory.
import { PgBoss } from "pg-boss";
import { env } from "@/lib/env";
import type { Db } from "@/server/db";
import { logger } from "@/server/log";
import { metrics } from "@/server/metrics";
import { syncLag } from "./lag";
import type { PlatformClient } from "@/server/platform/client";
import { jobBudgets, sharePerSecond, type Budget } from "./budget";
import { purgeLedger } from "./retention";
import { DEPOSITS_JOB, recordSyncFailure, syncSubaccountDeposits } from "./deposits/sync";
import { startSnapshotJobs } from "./snapshots/jobs";
import { startPriceJobs } from "./prices/jobs";
import { startTradeJobs, type TradeJobsOptions } from "./trades/jobs";
import { callsPerCheckSet, checkIntervals, nextCheckMs, scheduleCounts } from "./deposits/schedule";
import { workRuns } from "./runs-queue";
import { dueRuns, hurryQueuedRun, PRIORITY_RUN, requestPriority, type RunMode } from "./deposits/backfill-order";
import { catalog } from "@/lib/platform/catalog";
import { startMonitoringJobs } from "@/server/monitoring/jobs";

export const SWEEP_QUEUE = "ledger-sweep";
export const DEPOSITS_QUEUE = "ledger-deposits";
export const RETENTION_QUEUE = "ledger-retention";
const DAY = 86_400_000;

export type LedgerOptions = {
  db: Db;
  client: PlatformClient;
  /** Share of each operation's rate the sync may use (0–1). */
  share: number;
  sweepSeconds: number;
  /** How often an active sub-account (a deposit in the last week) is checked at the most. */
  activeSeconds: number;
  /** The most of the share that active sub-accounts' extra checks may take (checkIntervals); default 0.25. */
  activeShare?: number;
  /** Brokerdesk's own retention in days (null: forever). */
  retentionDays?: number | null;
  /** pg-boss's schema (tests give each run its own). */
  schema?: string;
  budget?: Budget;
  now?: () => number;
  /** Fills and plan orders of these keys (trades/jobs.ts); none when left out. */
  trades?: TradeJobsOptions;
  /** Daily snapshots of every registry sub-account's spot assets and rebate info (snapshots/jobs.ts). */
  snapshots?: boolean;
  /** Daily USDT prices of the coins deposited (prices/jobs.ts, from E8's public trades). */
  prices?: boolean;
};

export type Ledger = {
  boss: PgBoss;
  stop(): Promise<void>;
  sweep(): Promise<number>;
  /** Staff are looking at this sub-account: its whole history ahead of every other run (deposits/backfill-order.ts). */
  prioritize(subUid: string): Promise<void>;
};

/** pg-boss over Brokerdesk's own database handle: one connection for PGlite, the pool for PostgreSQL. */
function bossDb(db: Db) {
  return {
    async executeSql(text: string, values?: unknown[]) {
      return values && values.length ? db.query(text, values) : db.script(text);
    },
  };
}

export async function startLedger(opts: LedgerOptions): Promise<Ledger> {
  const { db } = opts;
  const now = opts.now ?? Date.now;
  const budget = jobBudgets([DEPOSITS_JOB], opts.share, opts.budget)[DEPOSITS_JOB];
  const schema = opts.schema ?? "pgboss";
  const boss = new PgBoss({
    db: bossDb(db),
    schema,
    backend: db.engine === "pglite" ? "pglite" : "postgres",
    // The monitor is what notices a run whose instance died (kill -9, a lost machine): every 5 s, not 60.
    monitorIntervalSeconds: 5,
    superviseIntervalSeconds: 5,
  });
  boss.on("error", (e) => logger.error({ err: e instanceof Error ? e.message : String(e) }, "job engine error"));
  await boss.start();
  // Throttled, not exclusive: a sweep queues the next one while it is still active (one per time slot).
  await boss.createQueue(SWEEP_QUEUE, { policy: "standard" });
  await boss.createQueue(RETENTION_QUEUE, { policy: "exclusive", retryLimit: 3, retryDelay: 60, retryBackoff: true });
  const retentionDays = opts.retentionDays ?? null;
  const retentionMs = retentionDays === null ? null : retentionDays * DAY;

  const perSecond = sharePerSecond("deposits.list", opts.share);
  const trades = opts.trades ? await startTradeJobs(boss, opts.trades, { ...opts, now }) : null;
  const snapshots = opts.snapshots ? await startSnapshotJobs(boss, opts) : null;
  const prices = opts.prices ? await startPriceJobs(boss, opts) : null;
  // Monitoring's rules are evaluated over what each run added or changed (server/monitoring/jobs.ts).
  const monitoring = await startMonitoringJobs(boss, db);

  // How often each kind is due again: from the registry and its active part, counted by each sweep.
  const intervalsOf = (counts: Awaited<ReturnType<typeof scheduleCounts>>) =>
    checkIntervals({ perSecond, ...counts, activeSeconds: opts.activeSeconds, activeShare: opts.activeShare ?? 0.25 });
  let intervals = intervalsOf({ registry: 1, active: 0, cost: { active: 1, dormant: 1 } });

  /**
   * Queues the due runs, in backfill order: as many as the sync can serve before the next sweep, twice over,
   * at the most it may take (beyond its share while staff leave the rate unused: budget.ts).
   */
  const sweep = async (): Promise<number> => {
    const counts = await scheduleCounts(db, now());
    intervals = intervalsOf(counts);
    const most = Math.max(perSecond, (catalog["deposits.list"].rateLimit?.count ?? 1) - 1);
    const runs = await dueRuns(db, Math.max(4, most * opts.sweepSeconds * 2));
    let queued = 0;
    for (const { subUid, mode, priority } of runs) {
      const options = { singletonKey: subUid, ...(priority ? { priority: PRIORITY_RUN } : {}) };
      if (await boss.send(DEPOSITS_QUEUE, { subUid, mode }, options)) queued++;
    }
    if (trades)
      queued += await trades.sweep(Math.max(4, sharePerSecond("fills.list", opts.share) * opts.sweepSeconds * 2));
    queued += await monitoring.sweep();
    if (snapshots)
      queued += await snapshots.sweep(
        Math.max(4, sharePerSecond("subaccounts.assets", opts.share) * opts.sweepSeconds * 2),
      );
    if (prices) queued += await prices.sweep(4);
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
    if (!sent) await hurryQueuedRun(db, schema, DEPOSITS_QUEUE, subUid);
  };

  await boss.work<{ subUid?: string }>(SWEEP_QUEUE, { pollingIntervalSeconds: 1 }, async () => {
    await sweep();
    // The next sweep: one per slot of sweepSeconds whichever instance asks (pg-boss's throttle).
    await boss.send(SWEEP_QUEUE, {}, { singletonSeconds: opts.sweepSeconds, singletonNextSlot: true });
  });

  // Runs at once: enough that the budget is spent while runs wait on the database and pg-boss, not only on the
  // platform (a steady-state check is one call, so the runs' own time is most of a check's); beyond the share
  // while staff leave the rate unused (budget.ts), so up to the whole limit's worth.
  await workRuns<{ subUid: string; mode?: RunMode }>(
    boss,
    DEPOSITS_QUEUE,
    Math.max(4, 2 * perSecond, 2 * (catalog["deposits.list"].rateLimit?.count ?? 0)),
    async ({ subUid, mode = "step" }, signal) => {
      const started = now();
      // A run staff asked for goes ahead of the other runs' calls too.
      const runBudget = mode === "all" ? () => budget({ urgent: true }) : budget;
      const out = await syncSubaccountDeposits(subUid, {
        db,
        client: opts.client,
        budget: runBudget,
        now,
        signal,
        retentionMs,
        backfill: mode,
      });
      const next = nextCheckMs(out, now(), intervals);
      // A backfill's runs take more calls than the checks after it: only those count towards a check's cost.
      // A priority asked for before this run began is served once the history is complete.
      await db.query(
        `UPDATE ledger_sync SET next_check_at = to_timestamp($3 / 1000.0),
                priority_at = CASE WHEN $4::boolean AND priority_at <= to_timestamp($5 / 1000.0)
                  THEN NULL ELSE priority_at END
                ${out.backfillDone ? `, ${callsPerCheckSet("$6")}` : ""} WHERE job = $1 AND sub_uid = $2`,
        [DEPOSITS_JOB, subUid, next, out.backfillDone, started, ...(out.backfillDone ? [out.calls] : [])],
      );
      if (out.records || out.changes) await monitoring.afterSync(subUid);
    },
    ({ subUid }, e) => recordSyncFailure(db, subUid, e),
  );

  await boss.work(RETENTION_QUEUE, { pollingIntervalSeconds: 5 }, async () => {
    const deleted = await purgeLedger(db, retentionDays, now());
    if (deleted) logger.info({ deleted, retentionDays }, "ledger records past Brokerdesk's retention deleted");
  });
  if (retentionDays !== null) {
    await boss.schedule(RETENTION_QUEUE, "17 * * * *");
    await boss.send(RETENTION_QUEUE, {}, { singletonKey: "start" });
  } else {
    await boss.unschedule(RETENTION_QUEUE);
  }

  await boss.send(SWEEP_QUEUE, {});
  return { boss, sweep, prioritize, stop: () => boss.stop({ graceful: true, timeout: 5_000 }) };
}

// ---- the process's ledger (started by server/startup.ts) ----

const g = globalThis as typeof globalThis & { __brokerdeskLedger?: Promise<Ledger | null> };

export function startProcessLedger(db: Db, client: PlatformClient): Promise<Ledger | null> {
  if (g.__brokerdeskLedger) return g.__brokerdeskLedger;
  const started = (async () => {
    if (!env.ledger.sync) return null;
    const trades = {
      keys: env.ledger.tradeKeys ?? client.config.credentials.names(),
      planSymbols: env.ledger.planSymbols,
    };
    const ledger = await startLedger({
      db,
      client,
      share: env.ledger.share,
      sweepSeconds: env.ledger.sweepSeconds,
      activeSeconds: env.ledger.activeSeconds,
      activeShare: env.ledger.activeShare,
      retentionDays: env.ledger.retentionDays,
      trades,
      snapshots: true,
      prices: true,
    });
    metrics().setSyncLagSource(() => syncLag(db));
    logger.info(
      {
        share: env.ledger.share,
        sweepSeconds: env.ledger.sweepSeconds,
        retentionDays: env.ledger.retentionDays ?? "forever",
      },
      "ledger sync started",
    );
    return ledger;
  })();
  g.__brokerdeskLedger = started;
  // A failed start is tried again by the caller (server/startup.ts), not remembered.
  started.catch(() => {
    if (g.__brokerdeskLedger === started) g.__brokerdeskLedger = undefined;
  });
  return started;
}

/**
 * Staff are looking at a sub-account (opened it, searched for it, asked to check it): its whole deposit
 * history goes ahead of every other run: at once when this process runs the sync, else at any instance's
 * next sweep (the request is in the database).
 */
export async function prioritizeSubaccount(db: Db, subUid: string): Promise<void> {
  const ledger = g.__brokerdeskLedger ? await g.__brokerdeskLedger.catch(() => null) : null;
  if (ledger) await ledger.prioritize(subUid);
  else await requestPriority(db, subUid);
}
