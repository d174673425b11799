import "server-only";
// The fills and plan-order jobs on the ledger's pg-boss (../engine.ts): one "ledger-trades" queue, at most one
// job queued or running per (job, key, symbol) across every instance (../runs-queue.ts); the state is in
// ledger_key_sync, so a restart resumes. Its sweep makes sure each
// configured key has its fills task and its configured plan-order symbols (the fills sync adds the symbols
// the key trades), then queues what is due.
import { jobBudgets, sharePerSecond } from "../budget";
import { sweepLimit, type DatasetJobs, type EngineContext, type SyncedDataset } from "../dataset";
import { recordTradeSyncFailure, syncKeyTrades, type TradeJob, type TradeTask } from "./sync";
import { FILLS_JOB, PLAN_ORDERS_JOB } from "./store";
import { workRuns } from "../runs-queue";

export const TRADES_QUEUE = "ledger-trades";
/** While a backfill is under way the task is due again at once (next sweep). */
const BACKFILL_NEXT_MS = 1_000;

export type TradeJobsOptions = {
  /** The configured platform keys whose fills and plan orders are kept. */
  keys: readonly string[];
  /** Symbols whose plan orders are kept for every key, besides those its fills name. */
  planSymbols: readonly string[];
};

/** The fills and plan orders of the configured keys, as a dataset of the engine. */
export const tradesDataset = (opts: TradeJobsOptions): SyncedDataset => ({
  name: "trades",
  start: (ctx) => startTradeJobs(ctx, opts),
});

async function startTradeJobs(deps: EngineContext, opts: TradeJobsOptions): Promise<DatasetJobs> {
  const { db, boss, now } = deps;
  const limit = sweepLimit(deps, sharePerSecond("fills.list", deps.share));
  const budgets = jobBudgets([FILLS_JOB, PLAN_ORDERS_JOB], deps.share, deps.budget);
  await workRuns<TradeTask>(
    boss,
    TRADES_QUEUE,
    2,
    async (task, signal) => {
      const out = await syncKeyTrades(task, { db, client: deps.client, budget: budgets[task.job], now, signal });
      const next = now() + (out.backfillDone ? deps.activeSeconds * 1000 : BACKFILL_NEXT_MS);
      await db.query(
        `UPDATE ledger_key_sync SET next_check_at = to_timestamp($4 / 1000.0) WHERE job = $1 AND key_name = ` +
          `$2 AND symbol = $3`,
        [task.job, task.key, task.symbol, next],
      );
    },
    (task, e) => recordTradeSyncFailure(db, task, e),
  );

  const sweep = async (): Promise<number> => {
    await db.query(
      `INSERT INTO ledger_key_sync (job, key_name, symbol)
       SELECT $1, k, '' FROM unnest($3::text[]) AS k
       UNION ALL SELECT $2, k, s FROM unnest($3::text[]) AS k CROSS JOIN unnest($4::text[]) AS s
       ON CONFLICT DO NOTHING`,
      [FILLS_JOB, PLAN_ORDERS_JOB, [...opts.keys], [...opts.planSymbols]],
    );
    const { rows } = await db.query<{ job: TradeJob; key_name: string; symbol: string }>(
      `SELECT job, key_name, symbol FROM ledger_key_sync
        WHERE job IN ($1, $2) AND key_name = ANY($3) AND next_check_at <= now()
        ORDER BY next_check_at, job, key_name, symbol LIMIT $4`,
      [FILLS_JOB, PLAN_ORDERS_JOB, [...opts.keys], limit],
    );
    let queued = 0;
    for (const r of rows) {
      const task: TradeTask = { job: r.job, key: r.key_name, symbol: r.symbol };
      if (await boss.send(TRADES_QUEUE, task, { singletonKey: `${r.job}:${r.key_name}:${r.symbol}` })) queued++;
    }
    return queued;
  };
  return { sweep };
}
