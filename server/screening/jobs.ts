import "server-only";
// Screening's job on the ledger's pg-boss (server/ledger/engine.ts), as monitoring's (server/monitoring/jobs.ts):
// "screening-rescreen", one per rescreen (policy stately, keyed by its id), run one at a time by each instance.
// The engine's sweep queues what is due (queued, or running and silent: its instance died); a rescreen run twice
// writes nothing twice (./rescreen.ts).
import type { PgBoss } from "pg-boss";
import type { Db } from "@/server/db";
import { logger } from "@/server/log";
import { RUN_RETRIES } from "@/server/ledger/runs-queue";
import { runRescreen } from "./rescreen";
import { rescreensDue } from "./rescreen-queue";

export const RESCREEN_QUEUE = "screening-rescreen";

export async function startScreeningJobs(boss: PgBoss, db: Db): Promise<{ sweep(): Promise<number> }> {
  await boss.createQueue(RESCREEN_QUEUE, { policy: "stately", ...RUN_RETRIES });
  await boss.updateQueue(RESCREEN_QUEUE, RUN_RETRIES);
  await boss.work<{ rescreenId: number }>(RESCREEN_QUEUE, { pollingIntervalSeconds: 2 }, async ([job]) => {
    if (!job) return;
    await runRescreen(db, job.data.rescreenId).catch((e: unknown) => {
      logger.error(
        { err: e instanceof Error ? e.message : String(e), rescreen: job.data.rescreenId },
        "rescreen failed",
      );
      throw e;
    });
  });
  return {
    async sweep() {
      let queued = 0;
      for (const id of await rescreensDue(db))
        if (await boss.send(RESCREEN_QUEUE, { rescreenId: id }, { singletonKey: String(id) })) queued++;
      return queued;
    },
  };
}
