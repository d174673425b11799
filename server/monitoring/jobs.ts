import "server-only";
// Monitoring's jobs on the ledger's pg-boss (server/ledger/engine.ts):
// - "monitoring-batch", one per sub-account at a time (policy stately: one running and one waiting, so a
//   batch synced while one runs is evaluated by the waiting one): the active deposit rules, and the
//   withdrawal rules that read deposits (pass-through), over what the sync added or changed for that
//   sub-account since its watermark, and over what was waiting for the ledger's coverage when that grew
//   (a record a rule could not judge yet: its sub-account's history not synced back far enough);
// - "monitoring-history", one per rule version: a version just activated, over the whole history; the
//   ledger's sweep queues every active version whose history is not evaluated yet, so a run lost with its
//   instance is queued again.
// - "monitoring-backtest", one per rule version: a backtest asked for (backtest.ts) and not yet run since.
// The first two are idempotent (evaluate.ts): a retry, a rerun or a second instance raise nothing twice.
import type { PgBoss } from "pg-boss";
import type { Db, Queryable } from "@/server/db";
import { logger } from "@/server/log";
import { RUN_RETRIES } from "@/server/ledger/runs-queue";
import { backtestVersion } from "./backtest";
import { coverageNeedOf } from "@/lib/api/monitoring/rule-kinds";
import { activeVersions, evaluateScope, evaluateVersion, gatherIntoCases, versionOf } from "./evaluate";
import { sourceOf } from "./kinds";

export const BATCH_QUEUE = "monitoring-batch";
export const HISTORY_QUEUE = "monitoring-history";
export const BACKTEST_QUEUE = "monitoring-backtest";
/** Sub-accounts' batches one fetch takes. */
const BATCH_FETCH = 20;
/**
 * A sync transaction that began before a watermark was read may commit after it with an earlier
 * first_seen_at: the next batch looks back this far before the watermark (evaluating twice is harmless).
 */
const OVERLAP_SECONDS = 120;

export type MonitoringJobs = {
  /** Queue the evaluation of what a sync run of this sub-account added or changed. */
  afterSync(subUid: string): Promise<void>;
  /** Queue the history evaluation of every active version still without one; answers how many were queued. */
  sweep(): Promise<number>;
};

/** The earliest deposit time of what the sync added or changed for the sub-account after `after`. */
export async function touchedSince(db: Db, subUid: string, after: Date | null): Promise<number | null> {
  const { rows } = await db.query<{ t: string | null }>(
    `SELECT min(d.ctime)::text AS t FROM ledger_deposits d
      WHERE d.sub_uid = $1 AND ($2::timestamptz IS NULL OR d.first_seen_at > $2::timestamptz - $3 * interval '1 second'
         OR EXISTS (SELECT 1 FROM ledger_deposit_changes c WHERE c.order_id = d.order_id
                     AND c.seen_at > $2::timestamptz - $3 * interval '1 second'))`,
    [subUid, after?.toISOString() ?? null, OVERLAP_SECONDS],
  );
  return rows[0]?.t == null ? null : Number(rows[0].t);
}

type Span = { from: number | null; to: number | null };
const num = (v: string | null | undefined) => (v == null ? null : Number(v));

/**
 * Where a batch must look again because the sub-account's covered deposits grew since its last batch: the
 * whole history when the span reaches further back (or is new), the old end when it only reaches further
 * forward (records stored past it were waiting), nothing when it did not grow.
 */
export function grownSince(before: Span | null, now: Span): "all" | number | null {
  if (now.to === null || now.from === null) return null;
  if (!before || before.to === null || before.from === null || now.from < before.from) return "all";
  return now.to > before.to ? before.to : null;
}

/**
 * One batch: the rules that read deposits, over the sub-account's records touched since its watermark and
 * those that waited for its coverage, then the watermark (and the coverage it was evaluated under) moves.
 */
export async function evaluateBatch(db: Db, subUid: string): Promise<number> {
  const started = (await db.query<{ now: Date }>(`SELECT now() AS now`)).rows[0]!.now;
  const mark = await db.query<{ at: Date; covered_from: string | null; covered_to: string | null }>(
    `SELECT evaluated_through AS at, covered_from::text AS covered_from, covered_to::text AS covered_to
       FROM monitoring_watermarks WHERE sub_uid = $1`,
    [subUid],
  );
  // Read before evaluating: coverage that grows meanwhile is the next batch's (the sync queues one).
  const cov = await db.query<{ covered_from: string | null; covered_to: string | null }>(
    `SELECT covered_from::text AS covered_from, covered_to::text AS covered_to FROM ledger_sync
      WHERE job = 'deposits' AND sub_uid = $1`,
    [subUid],
  );
  const m = mark.rows[0];
  const covered: Span = { from: num(cov.rows[0]?.covered_from), to: num(cov.rows[0]?.covered_to) };
  const grown = grownSince(m ? { from: num(m.covered_from), to: num(m.covered_to) } : null, covered);
  const touched = await touchedSince(db, subUid, m?.at ?? null);
  const since = grown === "all" ? null : grown === null ? touched : touched === null ? grown : Math.min(touched, grown);
  const versions = (await activeVersions(db)).filter(
    (v) => sourceOf(v.spec) === "deposits" || coverageNeedOf(v.spec).needs !== "none",
  );
  const raised =
    since === null && grown !== "all" ? 0 : await evaluateScope(db, { subUid, since }, undefined, versions);
  await db.query(
    `INSERT INTO monitoring_watermarks (sub_uid, evaluated_through, covered_from, covered_to) VALUES ($1, $2, $3, $4)
     ON CONFLICT (sub_uid) DO UPDATE SET evaluated_through = greatest(monitoring_watermarks.evaluated_through,
       EXCLUDED.evaluated_through), covered_from = EXCLUDED.covered_from, covered_to = EXCLUDED.covered_to`,
    [subUid, new Date(started).toISOString(), covered.from, covered.to],
  );
  return raised;
}

/** A version over the whole history; marks it done so the sweep stops queueing it. */
export async function evaluateHistory(db: Db, versionId: string): Promise<number> {
  const { rows } = await db.query<Parameters<typeof versionOf>[0]>(
    `SELECT id, rule_id, kind, params, severity, holds FROM monitoring_rule_versions
      WHERE id = $1 AND state = 'active'`,
    [versionId],
  );
  if (!rows[0]) return 0;
  const raised = (await evaluateVersion(db, versionOf(rows[0]), { subUid: null, since: null })).length;
  await gatherIntoCases(db);
  await db.query(`UPDATE monitoring_rule_versions SET history_evaluated_at = now() WHERE id = $1`, [versionId]);
  return raised;
}

/**
 * The sub-accounts with something waiting for coverage that has grown since their last batch: the span reaches
 * further back (or is new), or further forward past a deposit or withdrawal request it did not reach (a deposit
 * stored past a check's end, a request made after it). Only while an active rule needs coverage; at most `limit`.
 */
export async function coverageDue(db: Queryable, limit = 1_000): Promise<string[]> {
  if (!(await activeVersions(db)).some((v) => coverageNeedOf(v.spec).needs !== "none")) return [];
  const { rows } = await db.query<{ sub_uid: string }>(
    `SELECT s.sub_uid FROM ledger_sync s LEFT JOIN monitoring_watermarks w ON w.sub_uid = s.sub_uid
      WHERE s.job = 'deposits' AND s.covered_to IS NOT NULL
        AND (w.covered_to IS NULL OR s.covered_from < w.covered_from
          OR (s.covered_to > w.covered_to
            AND (EXISTS (SELECT 1 FROM ledger_deposits d WHERE d.sub_uid = s.sub_uid AND d.ctime > w.covered_to)
              OR EXISTS (SELECT 1 FROM withdrawal_requests r WHERE r.sub_uid = s.sub_uid AND r.state <> 'cancelled'
                          AND r.requested_at > timestamptz 'epoch' + w.covered_to * interval '1 millisecond'))))
      ORDER BY s.sub_uid LIMIT $1`,
    [limit],
  );
  return rows.map((r) => r.sub_uid);
}

/**
 * The kinds that fire on time passing, not on a record arriving (a deposit still without its originator's data
 * after N days): no sync batch comes when nothing new arrives, so each sweep evaluates them over the deposits
 * whose wait ran out within WAITING_LOOKBACK_MS (sweeps come far more often; a rerun raises nothing twice).
 */
export const WAITING_KINDS: ReadonlySet<string> = new Set(["deposit_without_originator"]);
const WAITING_LOOKBACK_MS = 86_400_000;

export async function evaluateWaitingKinds(db: Db, now: number = Date.now()): Promise<number> {
  const versions = (await activeVersions(db, "deposits")).filter((v) => WAITING_KINDS.has(v.spec.kind));
  if (!versions.length) return 0;
  // The kind reaches back its own wait from `since`: the deposits whose wait ended after now - lookback.
  return evaluateScope(db, { subUid: null, since: now - WAITING_LOOKBACK_MS }, "deposits", versions);
}

/** The active versions not yet evaluated over the whole history (a run lost with its instance included). */
export async function historyDue(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT id::text FROM monitoring_rule_versions WHERE state = 'active' AND history_evaluated_at IS NULL ORDER BY id`,
  );
  return rows.map((r) => r.id);
}

export async function startMonitoringJobs(boss: PgBoss, db: Db): Promise<MonitoringJobs> {
  for (const queue of [BATCH_QUEUE, HISTORY_QUEUE, BACKTEST_QUEUE]) {
    await boss.createQueue(queue, { policy: "stately", ...RUN_RETRIES });
    await boss.updateQueue(queue, RUN_RETRIES);
  }
  const failed = (what: string) => (e: unknown) => {
    logger.error({ err: e instanceof Error ? e.message : String(e), what }, "monitoring evaluation failed");
    throw e;
  };
  // Up to BATCH_FETCH sub-accounts a fetch, fetched again at once while they come full: a first sync queues a
  // batch for every sub-account as its backfill steps, and a poll a second for one job each would lag behind it.
  // A failure retries the fetch's jobs (each is idempotent), after the others have run.
  await boss.work<{ subUid: string }>(
    BATCH_QUEUE,
    { pollingIntervalSeconds: 1, localConcurrency: 2, batchSize: BATCH_FETCH, burstWhenBatchFull: true },
    async (jobs) => {
      let error: unknown = null;
      for (const job of jobs)
        await evaluateBatch(db, job.data.subUid).catch((e: unknown) => {
          logger.error(
            { err: e instanceof Error ? e.message : String(e), what: `batch ${job.data.subUid}` },
            "monitoring evaluation failed",
          );
          error ??= e;
        });
      if (error) throw error;
    },
  );
  await boss.work<{ versionId: string }>(HISTORY_QUEUE, { pollingIntervalSeconds: 2 }, async ([job]) => {
    if (!job) return;
    const raised = await evaluateHistory(db, job.data.versionId).catch(failed(`history ${job.data.versionId}`));
    logger.info({ versionId: job.data.versionId, raised }, "rule version evaluated over the whole history");
  });
  await boss.work<{ versionId: string }>(BACKTEST_QUEUE, { pollingIntervalSeconds: 2 }, async ([job]) => {
    if (job) await backtestVersion(db, job.data.versionId).catch(failed(`backtest ${job.data.versionId}`));
  });
  return {
    async afterSync(subUid) {
      await boss.send(BATCH_QUEUE, { subUid }, { singletonKey: subUid });
    },
    async sweep() {
      let queued = 0;
      // A failure is logged and the sweep goes on: the next sweep looks back over the same day.
      await evaluateWaitingKinds(db).catch((e: unknown) =>
        logger.error({ err: e instanceof Error ? e.message : String(e) }, "monitoring: the waiting kinds failed"),
      );
      for (const id of await historyDue(db))
        if (await boss.send(HISTORY_QUEUE, { versionId: id }, { singletonKey: id })) queued++;
      const asked = await db.query<{ id: string }>(
        `SELECT id::text FROM monitoring_rule_versions
          WHERE backtest_requested_at IS NOT NULL AND (backtest_at IS NULL OR backtest_at < backtest_requested_at)`,
      );
      for (const { id } of asked.rows)
        if (await boss.send(BACKTEST_QUEUE, { versionId: id }, { singletonKey: id })) queued++;
      // What waited for the ledger's coverage, once it has grown (a check that found nothing new moves it too).
      for (const subUid of await coverageDue(db))
        if (await boss.send(BATCH_QUEUE, { subUid }, { singletonKey: subUid })) queued++;
      return queued;
    },
  };
}
