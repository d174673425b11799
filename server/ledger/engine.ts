import "server-only";
// The ledger's sync engine, run as jobs on pg-boss (a maintained job engine on PostgreSQL, here on PGlite too),
// with one registration call per synced dataset (./dataset.ts: each dataset's folder holds its sync, its jobs
// and its queries):
// - "ledger-sweep", once per few seconds across every instance (pg-boss's throttle, singletonSeconds): runs
//   every registered dataset's sweep, which queues what is due of it, then monitoring's and screening's;
// - each dataset's own queue of runs (./runs-queue.ts): deposits/jobs.ts, trades/jobs.ts, snapshots/jobs.ts,
//   prices/jobs.ts;
// - "ledger-retention", hourly (a pg-boss schedule, so one run across every instance) and once at start:
//   deletes what is older than Brokerdesk's own retention (LEDGER_RETENTION_DAYS), if one is set.
// A restarted instance resumes: the state is in the database (ledger_sync, ledger_key_sync), not in memory.
import { PgBoss } from "pg-boss";
import { env } from "@/lib/env";
import type { Db } from "@/server/db";
import { logger } from "@/server/log";
import { metrics } from "@/server/metrics";
import { syncLag } from "./lag";
import type { PlatformClient } from "@/server/platform/client";
import type { Budget } from "./budget";
import type { DatasetJobs, EngineContext, SyncedDataset } from "./dataset";
import { purgeLedger } from "./retention";
import { depositsDataset } from "./deposits/jobs";
import { requestPriority } from "./deposits/backfill-order";
import { snapshotsDataset } from "./snapshots/jobs";
import { pricesDataset } from "./prices/jobs";
import { tradesDataset, type TradeJobsOptions } from "./trades/jobs";
import { startMonitoringJobs } from "@/server/monitoring/jobs";
import { startScreeningJobs } from "@/server/screening/jobs";
import { setProcessRollout, startRolloutJobs } from "@/server/leverage/plans/jobs";

export const SWEEP_QUEUE = "ledger-sweep";
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
  /** Leverage plans' rollout jobs (server/leverage/plans/jobs.ts), this process's. */
  leverageRollout?: boolean;
};

export type Ledger = {
  boss: PgBoss;
  stop(): Promise<void>;
  sweep(): Promise<number>;
  /** Staff are looking at this sub-account: its whole history ahead of every other run (deposits/backfill-order.ts). */
  prioritize(subUid: string): Promise<void>;
};

/** pg-boss over Brokerdesk's own database handle: one connection for PGlite, the pool for PostgreSQL. */
export function bossDb(db: Db) {
  return {
    async executeSql(text: string, values?: unknown[]) {
      return values && values.length ? db.query(text, values) : db.script(text);
    },
  };
}

export async function startLedger(opts: LedgerOptions): Promise<Ledger> {
  const { db } = opts;
  const now = opts.now ?? Date.now;
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

  // Monitoring's rules are evaluated over what each run added or changed (server/monitoring/jobs.ts).
  const monitoring = await startMonitoringJobs(boss, db);
  // A rescreen after each list version that became active (server/screening/jobs.ts).
  const screening = await startScreeningJobs(boss, db);
  // Leverage plans' rollouts: a start queues its run; the sweep resumes a run whose instance died.
  const rollout = opts.leverageRollout ? await startRolloutJobs(boss, db, opts.client) : null;
  if (rollout) setProcessRollout(rollout);
  const ctx: EngineContext = {
    boss,
    schema,
    db,
    client: opts.client,
    share: opts.share,
    sweepSeconds: opts.sweepSeconds,
    activeSeconds: opts.activeSeconds,
    activeShare: opts.activeShare ?? 0.25,
    retentionMs: retentionDays === null ? null : retentionDays * DAY,
    budget: opts.budget,
    now,
    givenNow: opts.now,
    afterSync: (subUid) => monitoring.afterSync(subUid),
  };
  const registered: DatasetJobs[] = [];
  /** Starts one dataset's runs on this engine; its sweep joins the engine's. */
  const register = async <J extends DatasetJobs>(dataset: SyncedDataset<J>): Promise<J> => {
    const jobs = await dataset.start(ctx);
    registered.push(jobs);
    return jobs;
  };

  const deposits = await register(depositsDataset);
  if (opts.trades) await register(tradesDataset(opts.trades));
  if (opts.snapshots) await register(snapshotsDataset);
  if (opts.prices) await register(pricesDataset);

  /** Every dataset's sweep, in the order they were registered, then monitoring's: how many runs were queued. */
  const sweep = async (): Promise<number> => {
    let queued = 0;
    for (const jobs of registered) queued += await jobs.sweep();
    queued += await monitoring.sweep();
    queued += await screening.sweep();
    if (rollout) queued += await rollout.sweep();
    return queued;
  };

  await boss.work<{ subUid?: string }>(SWEEP_QUEUE, { pollingIntervalSeconds: 1 }, async () => {
    await sweep();
    // The next sweep: one per slot of sweepSeconds whichever instance asks (pg-boss's throttle).
    await boss.send(SWEEP_QUEUE, {}, { singletonSeconds: opts.sweepSeconds, singletonNextSlot: true });
  });

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
  return { boss, sweep, prioritize: deposits.prioritize, stop: () => boss.stop({ graceful: true, timeout: 5_000 }) };
}

// ---- the process's ledger (started by server/startup.ts) ----

const g = globalThis as typeof globalThis & { __brokerdeskLedger?: Promise<Ledger | null> };

/** What the process's ledger runs with: the environment's settings and every job (the benchmarks start the same). */
export function processLedgerOptions(db: Db, client: PlatformClient): LedgerOptions {
  return {
    db,
    client,
    share: env.ledger.share,
    sweepSeconds: env.ledger.sweepSeconds,
    activeSeconds: env.ledger.activeSeconds,
    activeShare: env.ledger.activeShare,
    retentionDays: env.ledger.retentionDays,
    trades: {
      // The environment's keys: sub-account keys held in the database (a few hundred) are not walked for fills.
      keys: env.ledger.tradeKeys ?? client.config.credentials.environmentNames(),
      planSymbols: env.ledger.planSymbols,
    },
    snapshots: true,
    prices: true,
    leverageRollout: true,
  };
}

export function startProcessLedger(db: Db, client: PlatformClient): Promise<Ledger | null> {
  if (g.__brokerdeskLedger) return g.__brokerdeskLedger;
  const started = (async () => {
    if (!env.ledger.sync) return null;
    const ledger = await startLedger(processLedgerOptions(db, client));
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
