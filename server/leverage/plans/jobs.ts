import "server-only";
// The rollout as jobs on the ledger's pg-boss (server/ledger/engine.ts), as screening's rescreens are
// (server/screening/jobs.ts): "leverage-rollout", one job per run of a plan. A start, a resume or a retry queues
// one at once (`kick`); the engine's sweep queues one for each running plan whose run went silent (its instance
// died: kill -9, a lost machine), and pg-boss retries a job whose worker stopped sending heartbeats. Two jobs of
// one plan are harmless: a run takes the plan in the database first (./rollout.ts).
import type { PgBoss } from "pg-boss";
import { env } from "@/lib/env";
import { thisInstance } from "@/server/db/instance-lease";
import type { Db } from "@/server/db";
import { logger } from "@/server/log";
import type { PlatformClient } from "@/server/platform/client";
import { ROLLOUT_TIMES, runPlan, type RolloutOptions } from "./rollout";

export const ROLLOUT_QUEUE = "leverage-rollout";

const QUEUE_OPTIONS = {
  retryLimit: 3,
  retryDelay: 2,
  heartbeatSeconds: 10,
  // A plan of 20,000 targets at 16 in flight and 300 ms per call: about 6 minutes.
  expireInSeconds: 3_600,
};

export type RolloutJobs = { kick(planId: string): Promise<void>; sweep(): Promise<number> };

/** Running plans whose run has been silent past `staleMs` (or never started): to queue again. */
export async function plansToResume(db: Db, staleMs: number): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT id::text FROM leverage_plans
      WHERE state = 'running' AND (heartbeat_at IS NULL OR heartbeat_at < now() - $1 * interval '1 millisecond')
      ORDER BY started_at`,
    [staleMs],
  );
  return rows.map((r) => r.id);
}

export async function startRolloutJobs(
  boss: PgBoss,
  db: Db,
  client: PlatformClient,
  opts: Partial<RolloutOptions> = {},
): Promise<RolloutJobs> {
  const run: RolloutOptions = {
    concurrency: env.leverageRolloutConcurrency,
    instance: thisInstance().id,
    ...ROLLOUT_TIMES,
    ...opts,
  };
  await boss.createQueue(ROLLOUT_QUEUE, { policy: "standard", ...QUEUE_OPTIONS });
  await boss.updateQueue(ROLLOUT_QUEUE, QUEUE_OPTIONS);
  await boss.work<{ planId: string }>(
    ROLLOUT_QUEUE,
    { pollingIntervalSeconds: 1, localConcurrency: 4 },
    async ([job]) => {
      if (!job) return;
      const end = await runPlan(db, client, job.data.planId, run).catch((e: unknown) => {
        logger.error(
          { err: e instanceof Error ? e.message : String(e), planId: job.data.planId },
          "leverage rollout failed",
        );
        throw e;
      });
      logger.info({ planId: job.data.planId, end }, "leverage rollout run ended");
    },
  );
  return {
    async kick(planId) {
      await boss.send(ROLLOUT_QUEUE, { planId });
    },
    async sweep() {
      let queued = 0;
      for (const planId of await plansToResume(db, run.staleMs ?? ROLLOUT_TIMES.staleMs))
        if (await boss.send(ROLLOUT_QUEUE, { planId })) queued++;
      return queued;
    },
  };
}

// ---- the process's rollout (started with the ledger's engine) ----

const g = globalThis as typeof globalThis & { __brokerdeskRollout?: RolloutJobs };

export function setProcessRollout(jobs: RolloutJobs): void {
  g.__brokerdeskRollout = jobs;
}

/**
 * Queues a plan's run: at once on this process's engine, else (no engine here: the ledger's sync is off on this
 * instance) the next sweep of an instance that runs one finds the plan running and silent.
 */
export async function kickRollout(planId: string): Promise<void> {
  await g.__brokerdeskRollout?.kick(planId);
}
