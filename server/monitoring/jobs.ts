import "server-only";
// Monitoring's jobs on the ledger's pg-boss (server/ledger/engine.ts):
// - "monitoring-batch", one per sub-account at a time (policy stately: one running and one waiting, so a
//   batch synced while one runs is evaluated by the waiting one): the active deposit rules over what the
//   sync added or changed for that sub-account since its watermark;
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
import { activeVersions, evaluateScope, evaluateVersion, gatherIntoCases, versionOf } from "./evaluate";

export const BATCH_QUEUE = "monitoring-batch";
export const HISTORY_QUEUE = "monitoring-history";
export const BACKTEST_QUEUE = "monitoring-backtest";
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

/**
 * One batch: the deposit rules over the sub-account's records touched since its watermark, then the watermark moves.
 */
export async function evaluateBatch(db: Db, subUid: string): Promise<number> {
  const started = (await db.query<{ now: Date }>(`SELECT now() AS now`)).rows[0]!.now;
  const mark = await db.query<{ at: Date }>(
    `SELECT evaluated_through AS at FROM monitoring_watermarks WHERE sub_uid = $1`,
    [subUid],
  );
  const since = await touchedSince(db, subUid, mark.rows[0]?.at ?? null);
  const raised = since === null ? 0 : await evaluateScope(db, { subUid, since }, "deposits");
  await db.query(
    `INSERT INTO monitoring_watermarks (sub_uid, evaluated_through) VALUES ($1, $2)
     ON CONFLICT (sub_uid) DO UPDATE SET evaluated_through = greatest(monitoring_watermarks.evaluated_through,
       EXCLUDED.evaluated_through)`,
    [subUid, new Date(started).toISOString()],
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
  await boss.work<{ subUid: string }>(
    BATCH_QUEUE,
    { pollingIntervalSeconds: 1, localConcurrency: 2 },
    async ([job]) => {
      if (job) await evaluateBatch(db, job.data.subUid).catch(failed(`batch ${job.data.subUid}`));
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
      return queued;
    },
  };
}
