import "server-only";
// One run of a coin's daily prices: E8 (public market trades of COINUSDT, newest first) asked for one trade
// at most per UTC day, the day's last one, over the days E8 still holds (the last PRICE_DAYS). Today's price
// is the newest trade so far and is asked again at each run; a past day is asked until it holds a price
// taken after that day ended (its final last trade). A run asks at most MAX_CALLS, newest days first, so
// one coin never holds the queue; the sweep queues it again at once while days are missing.
import { PlatformError } from "@/server/platform/errors";
import type { Queryable } from "@/server/db";
import { platformNow, type LedgerRunDeps } from "../run-deps";
import { VALUE_COIN } from "./queries";

export const PRICES_JOB = "coin-prices";
const DAY = 86_400_000;
/** Days back E8 is asked for: its 90 days of data, less one so a window's start is never past its retention. */
export const PRICE_DAYS = 89;
/** Calls one run makes at most. */
export const MAX_CALLS = 20;
/** E8's answer for a symbol it does not list. */
const UNKNOWN_SYMBOL = "40034";

export type PriceRun = { calls: number; stored: number; remaining: number; noMarket: boolean };

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The market whose trades price `coin` in USDT. */
export const priceSymbol = (coin: string) => `${coin}${VALUE_COIN}`;

/** The days of the last PRICE_DAYS (newest first) that still want a price: none yet, or taken before the day ended. */
export async function daysWanted(db: Queryable, coin: string, now: number): Promise<number[]> {
  const today = Math.floor(now / DAY);
  const { rows } = await db.query<{ k: number }>(
    `SELECT (day - DATE '1970-01-01')::int AS k FROM ledger_coin_prices
      WHERE coin = $1 AND day >= DATE '1970-01-01' + $2::int AND fetched_at >= (day + 1)::timestamp AT TIME ZONE 'UTC'`,
    [coin, today - PRICE_DAYS],
  );
  const final = new Set(rows.map((r) => Number(r.k)));
  const wanted: number[] = [];
  for (let k = today; k >= today - PRICE_DAYS; k--) if (k === today || !final.has(k)) wanted.push(k);
  return wanted;
}

export async function syncCoinPrices(coin: string, deps: LedgerRunDeps): Promise<PriceRun> {
  const out: PriceRun = { calls: 0, stored: 0, remaining: 0, noMarket: false };
  const now = platformNow(deps);
  const wanted = await daysWanted(deps.db, coin, now);
  for (const [i, k] of wanted.entries()) {
    if (out.calls >= MAX_CALLS) {
      out.remaining = wanted.length - i;
      break;
    }
    deps.signal?.throwIfAborted();
    await deps.budget();
    const start = k * DAY;
    const end = Math.min(start + DAY - 1, now);
    let data: { tradeId: string; price: string; ts: string }[];
    try {
      const answer = await deps.client.call(
        "market.trades",
        { symbol: priceSymbol(coin), startTime: String(start), endTime: String(end), limit: "1" },
        { signal: deps.signal, priority: "background" },
      );
      data = answer.data;
    } catch (e) {
      out.calls++;
      if (e instanceof PlatformError && e.code === UNKNOWN_SYMBOL) {
        out.noMarket = true;
        return out;
      }
      throw e;
    }
    out.calls++;
    const last = data[0];
    // A day without a trade keeps no price (asked again at a later run): never the price of another day.
    if (!last) continue;
    await deps.db.query(
      `INSERT INTO ledger_coin_prices (coin, day, usdt, trade_id, trade_ts, fetched_at)
       VALUES ($1, $2::date, $3::numeric, $4, $5::bigint, to_timestamp($6 / 1000.0))
       ON CONFLICT (coin, day) DO UPDATE SET usdt = $3::numeric, trade_id = $4,
         trade_ts = $5::bigint, fetched_at = to_timestamp($6 / 1000.0)`,
      [coin, dayOf(start), last.price, last.tradeId, last.ts, now],
    );
    out.stored++;
  }
  return out;
}

/** The coins the ledger holds deposits of (a walk of the coin index, one step per coin), each given a row here. */
export async function addPricedCoins(db: Queryable): Promise<void> {
  await db.query(
    `WITH RECURSIVE c AS (
       SELECT min(coin) AS coin FROM ledger_deposits
       UNION ALL SELECT (SELECT min(coin) FROM ledger_deposits WHERE coin > c.coin) FROM c WHERE c.coin IS NOT NULL
     )
     INSERT INTO ledger_price_sync (coin) SELECT coin FROM c WHERE coin IS NOT NULL AND coin <> $1
       ON CONFLICT DO NOTHING`,
    [VALUE_COIN],
  );
}

/** Records a run's outcome and when the coin is due next. */
export async function recordPriceRun(
  db: Queryable,
  coin: string,
  outcome: { run: PriceRun; nextAt: number } | { error: unknown },
): Promise<void> {
  if ("error" in outcome) {
    const e = outcome.error as { code?: string; msg?: string; message?: string };
    const message =
      [e?.code, e?.msg ?? e?.message].filter(Boolean).join(" ").slice(0, 500) || String(outcome.error).slice(0, 500);
    await db.query(
      `UPDATE ledger_price_sync SET last_checked_at = now(), errors = errors + 1, last_error = $2,
         next_check_at = now() + interval '1 minute' WHERE coin = $1`,
      [coin, message],
    );
    return;
  }
  const { run, nextAt } = outcome;
  await db.query(
    `UPDATE ledger_price_sync SET last_checked_at = now(), last_success_at = now(), errors = 0,
       last_error = CASE WHEN $3 THEN $4 ELSE NULL END, no_market = $3, calls = calls + $2,
       next_check_at = to_timestamp($5 / 1000.0) WHERE coin = $1`,
    [coin, run.calls, run.noMarket, `E8 lists no ${priceSymbol(coin)} market: no price`, nextAt],
  );
}
