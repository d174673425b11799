import "server-only";
// An instance reduced to monitoring's evaluation, for the kill -9 test (crash.test.ts): it takes its
// configuration over IPC, opens the database, says "started", then does what monitoring's jobs do
// (jobs.ts): every active version not yet evaluated over the whole history, or one batch per sub-account.
// It stops mid-evaluation (stoppingMidEvaluation), says so, and waits there until the test kills it with SIGKILL.
import { openDb, type Db } from "@/server/db";
import { evaluateBatch, evaluateHistory, historyDue } from "./jobs";

export type MonitoringCrashConfig = {
  db: { url: string } | { dataDir: string };
  work: "history" | "batches";
  subUids: string[];
};
/** `raised`: alerts raised before the stop; `finished`: the work ended without stopping (a test bug). */
export type MonitoringCrashProgress = { stopped: boolean; raised: number; finished: boolean };

const send = (p: MonitoringCrashProgress) => process.send?.(p);

/**
 * The database, stopped at its second statement raising alerts, before it runs: one version's alerts (or one
 * sub-account's first rule's) are in, the next is under way, and whatever the evaluation does around them
 * (cases, marks, watermarks) is as far as the code had taken it.
 */
function stoppingMidEvaluation(db: Db): Db {
  const never = new Promise<never>(() => {});
  let raised: number | null = null;
  return new Proxy(db, {
    get(target, key) {
      if (key !== "query") {
        const v: unknown = Reflect.get(target, key, target);
        return typeof v === "function" ? v.bind(target) : v;
      }
      return async (sql: string, params?: unknown[]) => {
        const raises = /^\s*INSERT INTO monitoring_alerts\b/.test(sql);
        if (raises && raised !== null) {
          send({ stopped: true, raised, finished: false });
          await never;
        }
        const result = await target.query(sql, params);
        if (raises) raised = result.rows.length;
        return result;
      };
    },
  });
}

process.once("message", (cfg: MonitoringCrashConfig) => {
  void (async () => {
    const db = stoppingMidEvaluation(await openDb(cfg.db));
    process.send?.("started");
    if (cfg.work === "history") for (const id of await historyDue(db)) await evaluateHistory(db, id);
    else for (const sub of cfg.subUids) await evaluateBatch(db, sub);
    send({ stopped: false, raised: 0, finished: true });
  })().catch((e: unknown) => {
    process.send?.(`failed: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  });
});
