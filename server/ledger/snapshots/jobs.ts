import "server-only";
// The daily snapshot jobs on the ledger's pg-boss (../engine.ts): one "ledger-snapshots" queue, at most one job
// queued or running per (snapshot, sub-account) across every instance (../runs-queue.ts). The sweep
// queues every registry sub-account whose snapshot is due (none yet, or past the UTC midnight after the last).
import { jobBudgets, sharePerSecond } from "../budget";
import { sweepLimit, type DatasetJobs, type EngineContext, type SyncedDataset } from "../dataset";
import { workRuns } from "../runs-queue";
import { nextUtcMidnight, recordSnapshotRun, SNAPSHOT_JOBS, takeSnapshot, type SnapshotJob } from "./sync";

export const SNAPSHOTS_QUEUE = "ledger-snapshots";
type Task = { job: SnapshotJob; subUid: string };

/** The daily snapshots of every registry sub-account, as a dataset of the engine. */
export const snapshotsDataset: SyncedDataset = { name: "snapshots", start: startSnapshotJobs };

async function startSnapshotJobs(deps: EngineContext): Promise<DatasetJobs> {
  const { db, boss } = deps;
  const limit = sweepLimit(deps, sharePerSecond("subaccounts.assets", deps.share));
  const budgets = jobBudgets(SNAPSHOT_JOBS, deps.share, deps.budget);
  await workRuns<Task>(
    boss,
    SNAPSHOTS_QUEUE,
    2,
    async ({ job: kind, subUid }, signal) => {
      const out = await takeSnapshot(kind, subUid, {
        db,
        client: deps.client,
        budget: budgets[kind],
        now: deps.givenNow,
        signal,
      });
      await recordSnapshotRun(db, kind, subUid, {
        nextAt: nextUtcMidnight(Date.parse(`${out.day}T00:00:00Z`)),
        rows: out.rows,
      });
    },
    ({ job: kind, subUid }, e) => recordSnapshotRun(db, kind, subUid, { error: e }),
  );

  const sweep = async (): Promise<number> => {
    let queued = 0;
    for (const kind of SNAPSHOT_JOBS) {
      const { rows } = await db.query<{ sub_uid: string }>(
        `SELECT r.sub_uid FROM subaccounts r LEFT JOIN ledger_sync s ON s.job = $1 AND s.sub_uid = r.sub_uid
          WHERE s.next_check_at IS NULL OR s.next_check_at <= now()
          ORDER BY s.next_check_at NULLS FIRST, r.sub_uid LIMIT $2`,
        [kind, limit],
      );
      for (const { sub_uid } of rows) {
        if (await boss.send(SNAPSHOTS_QUEUE, { job: kind, subUid: sub_uid }, { singletonKey: `${kind}:${sub_uid}` }))
          queued++;
      }
    }
    return queued;
  };
  return { sweep };
}
