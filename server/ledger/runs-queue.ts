import "server-only";
// The queue of one kind of ledger run (a sub-account's deposits, a key's trades, a sub-account's day
// snapshot) on pg-boss: at most one job queued or running per unit across every instance (policy exclusive,
// the caller's singleton key), retried with backoff, each failure recorded (for /sync) before it is retried.
import type { PgBoss } from "pg-boss";

/**
 * A run beats every 5 s; one that stops beating (its instance died) is retried after 10 s. Without it an
 * exclusive key stays "active" for pg-boss's 15-minute expiry, and that unit is not synced meanwhile.
 */
export const RUN_RETRIES = {
  retryLimit: 4,
  retryDelay: 5,
  retryBackoff: true,
  retryDelayMax: 20,
  heartbeatSeconds: 10,
};

export async function workRuns<T extends object>(
  boss: PgBoss,
  queue: string,
  concurrency: number,
  run: (data: T, signal: AbortSignal) => Promise<void>,
  recordFailure: (data: T, error: unknown) => Promise<void>,
): Promise<void> {
  await boss.createQueue(queue, { policy: "exclusive", ...RUN_RETRIES });
  // A queue made by an earlier version keeps its options unless told (createQueue leaves an existing one as it is).
  await boss.updateQueue(queue, RUN_RETRIES);
  await boss.work<T>(queue, { pollingIntervalSeconds: 1, localConcurrency: concurrency }, async ([job]) => {
    if (!job) return;
    try {
      await run(job.data, job.signal);
    } catch (e) {
      await recordFailure(job.data, e).catch(() => undefined);
      throw e;
    }
  });
}
