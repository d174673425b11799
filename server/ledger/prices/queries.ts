import "server-only";
// Values in one unit: each coin's daily price in USDT (ledger_coin_prices, kept by ./sync.ts from E8's
// trades of COINUSDT, the day's last trade), and how a ledger record is valued with it. USDT is 1 and is not
// stored. A coin or day without a price values to NULL, said "no price" by every page: never 0, never a
// guess from another day. Readers of values (the deposit views, monitoring rules) use this module's
// expressions or the view ledger_deposit_values (migration 0025), which is the same expression.
import type { Queryable } from "@/server/db";

/** The coin every value is said in. */
export const VALUE_COIN = "USDT";

/** The UTC day (a date) of a ms creation time column, as ledger_coin_prices.day holds it. */
export const utcDayOf = (ctimeColumn: string) => `(DATE '1970-01-01' + (${ctimeColumn} / 86400000)::int)`;

/**
 * The join that prices the rows of `alias` (a table with coin and ctime columns) at their UTC day; `as` names
 * the price row. LEFT: a row without a price stays, its value NULL.
 */
export const priceJoin = (alias: string, as = "px") =>
  `LEFT JOIN ledger_coin_prices ${as} ON ${as}.coin = ${alias}.coin AND ${as}.day = ${utcDayOf(`${alias}.ctime`)}`;

/** The USDT price of the row's coin on its day (1 for USDT, NULL for no price); with priceJoin. */
export const priceOf = (alias: string, as = "px") =>
  `(CASE WHEN ${alias}.coin = '${VALUE_COIN}' THEN 1::numeric ELSE ${as}.usdt END)`;

/** The row's amount in USDT at its day's price (NULL for no price); with priceJoin. */
export const valueOf = (alias: string, as = "px", amountColumn = "amount") =>
  `(CASE WHEN ${alias}.coin = '${VALUE_COIN}' THEN ${alias}.${amountColumn}
    ELSE ${alias}.${amountColumn} * ${as}.usdt END)`;

export type CoinPrice = { coin: string; day: string; usdt: string; tradeId: string; tradeTs: string } | null;

/** The price of `coin` on the UTC day `day` (YYYY-MM-DD): USDT is 1; null when the ledger has no price for it. */
export async function coinPriceOn(db: Queryable, coin: string, day: string): Promise<CoinPrice> {
  if (coin === VALUE_COIN) return { coin, day, usdt: "1", tradeId: "", tradeTs: "" };
  const { rows } = await db.query<{ usdt: string; trade_id: string; trade_ts: string }>(
    `SELECT usdt::text AS usdt, trade_id, trade_ts::text AS trade_ts FROM ledger_coin_prices
      WHERE coin = $1 AND day = $2::date`,
    [coin, day],
  );
  const r = rows[0];
  return r ? { coin, day, usdt: r.usdt, tradeId: r.trade_id, tradeTs: r.trade_ts } : null;
}

/**
 * What the ledger knows of each coin's prices: the days it holds, the newest, and whether the platform has a market.
 */
export async function priceCoverage(db: Queryable): Promise<
  {
    coin: string;
    days: number;
    newestDay: string | null;
    noMarket: boolean;
    lastError: string | null;
  }[]
> {
  const { rows } = await db.query<{
    coin: string;
    days: number;
    newest: string | null;
    no_market: boolean;
    last_error: string | null;
  }>(
    `SELECT s.coin, count(p.day)::int AS days, max(p.day)::text AS newest, s.no_market, s.last_error
       FROM ledger_price_sync s LEFT JOIN ledger_coin_prices p ON p.coin = s.coin
      GROUP BY s.coin, s.no_market, s.last_error ORDER BY s.coin`,
  );
  return rows.map((r) => ({
    coin: r.coin,
    days: r.days,
    newestDay: r.newest,
    noMarket: r.no_market,
    lastError: r.last_error,
  }));
}
