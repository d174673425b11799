import "server-only";
// The daily price jobs on the ledger's pg-boss (../engine.ts): one "ledger-prices" queue, at most one job queued
// or running per coin across every instance (../runs-queue.ts). The sweep gives every coin the ledger holds
// deposits of a row in ledger_price_sync, then queues the coins that are due. E8 is public and limited per IP
// (10 a second): the prices take a small share of it (PRICE_SHARE), so a staff member's market page keeps
// the rest.
import { syncBudget } from "../budget";
import type { DatasetJobs, EngineContext, SyncedDataset } from "../dataset";
import { workRuns } from "../runs-queue";
import { addPricedCoins, recordPriceRun, syncCoinPrices } from "./sync";

export const PRICES_QUEUE = "ledger-prices";
/** E8's share the price sync may use: one call a second of its ten. */
export const PRICE_SHARE = 0.1;
/** How often a coin whose days are all priced is asked again (today's price moves; yesterday's becomes final). */
const REFRESH_MS = 60 * 60_000;
/** A coin E8 lists no market for is asked again a day later (a market may be listed). */
const NO_MARKET_MS = 24 * 60 * 60_000;
/** While days are missing, the coin is due again at once (next sweep). */
const MORE_MS = 1_000;

/** Coins a sweep queues at the most. */
const SWEEP_LIMIT = 4;

/** The daily USDT prices of the coins deposited, as a dataset of the engine. */
export const pricesDataset: SyncedDataset = { name: "prices", start: startPriceJobs };

async function startPriceJobs(deps: EngineContext): Promise<DatasetJobs> {
  const { db, boss, now } = deps;
  const limit = SWEEP_LIMIT;
  const budget = deps.budget ?? syncBudget("market.trades", PRICE_SHARE);
  await workRuns<{ coin: string }>(
    boss,
    PRICES_QUEUE,
    1,
    async ({ coin }, signal) => {
      const run = await syncCoinPrices(coin, { db, client: deps.client, budget, now: deps.givenNow, signal });
      const wait = run.noMarket ? NO_MARKET_MS : run.remaining > 0 ? MORE_MS : REFRESH_MS;
      await recordPriceRun(db, coin, { run, nextAt: now() + wait });
    },
    ({ coin }, e) => recordPriceRun(db, coin, { error: e }),
  );

  const sweep = async (): Promise<number> => {
    await addPricedCoins(db);
    const { rows } = await db.query<{ coin: string }>(
      `SELECT coin FROM ledger_price_sync WHERE next_check_at <= now() ORDER BY next_check_at, coin LIMIT $1`,
      [limit],
    );
    let queued = 0;
    for (const { coin } of rows) if (await boss.send(PRICES_QUEUE, { coin }, { singletonKey: coin })) queued++;
    return queued;
  };
  return { sweep };
}
