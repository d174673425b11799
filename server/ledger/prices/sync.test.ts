// The daily price sync against the simulator over loopback (E8, public trades of COINUSDT), on PGlite and
// (with TEST_DATABASE_URL) PostgreSQL: every day E8 holds gets the day's last trade (no later trade that
// day exists), a run asks a bounded number of days, a rerun asks only today again; a coin E8 lists no
// market for gets no price and says so; and on the job engine the coins the ledger holds are priced.
import { beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/server/db";
import { databaseTestBed, testEngines } from "@/server/db/testing";
import type { PlatformClient } from "@/server/platform/client";
import { freeBudget, ledgerTestBed, runEngineUntil } from "../testing";
import { coinPriceOn, priceCoverage } from "./queries";
import { addPricedCoins, MAX_CALLS, PRICE_DAYS, priceSymbol, recordPriceRun, syncCoinPrices } from "./sync";

const DAY = 86_400_000;
const bed = ledgerTestBed();
let client: PlatformClient;
beforeAll(() => void ({ client } = bed));

describe.each(testEngines(process.env.TEST_DATABASE_URL))("[ledger][prices] daily prices on $engine", (engine) => {
  const t = databaseTestBed(engine);
  let db: Db;
  beforeAll(() => void ({ db } = t));

  it("[ledger][prices] every day E8 holds gets its last trade of COINUSDT, a bounded number of calls a run; a rerun asks today only", async () => {
    const deps = { db, client, budget: freeBudget };
    const runs = [];
    for (;;) {
      const run = await syncCoinPrices("BTC", deps);
      runs.push(run);
      expect(run.calls).toBeLessThanOrEqual(MAX_CALLS);
      if (run.remaining === 0) break;
      expect(runs.length).toBeLessThan(10);
    }
    const { rows } = await db.query<{ day: string; usdt: string; trade_ts: string }>(
      `SELECT day::text AS day, usdt::text AS usdt, trade_ts::text AS trade_ts FROM ledger_coin_prices WHERE coin = 'BTC' ORDER BY day`,
    );
    expect(rows).toHaveLength(PRICE_DAYS + 1);
    const today = new Date().toISOString().slice(0, 10);
    expect(rows.at(-1)!.day).toBe(today);
    // For a few past days: the price's trade is in its day, and E8 has no later trade of that day.
    for (const r of [rows[0]!, rows[40]!, rows.at(-2)!]) {
      const start = Date.parse(`${r.day}T00:00:00Z`);
      const ts = Number(r.trade_ts);
      expect(ts).toBeGreaterThanOrEqual(start);
      expect(ts).toBeLessThan(start + DAY);
      const later = await client.call("market.trades", {
        symbol: priceSymbol("BTC"),
        startTime: String(ts + 1),
        endTime: String(start + DAY - 1),
        limit: "1",
      });
      expect(later.data).toEqual([]);
      expect(Number(r.usdt)).toBeGreaterThan(40_000);
    }
    expect((await coinPriceOn(db, "BTC", rows[40]!.day))?.usdt).toBe(rows[40]!.usdt);
    // Every past day now holds a final price: only today is asked again.
    const again = await syncCoinPrices("BTC", deps);
    expect([again.calls, again.remaining]).toEqual([1, 0]);
  });

  it("[ledger][prices] a coin E8 lists no market for gets no price and says so", async () => {
    await db.query(`INSERT INTO ledger_price_sync (coin) VALUES ('USDC') ON CONFLICT DO NOTHING`);
    const run = await syncCoinPrices("USDC", { db, client, budget: freeBudget });
    expect(run).toMatchObject({ noMarket: true, stored: 0 });
    await recordPriceRun(db, "USDC", { run, nextAt: Date.now() + DAY });
    const usdc = (await priceCoverage(db)).find((c) => c.coin === "USDC");
    expect(usdc).toEqual({ coin: "USDC", days: 0, newestDay: null, noMarket: true, lastError: expect.any(String) });
    expect(usdc!.lastError).toContain("USDCUSDT");
    expect(await coinPriceOn(db, "USDC", new Date().toISOString().slice(0, 10))).toBeNull();
  });

  it("[ledger][prices] the coins the ledger holds deposits of are each given a price row (USDT is 1, not synced)", async () => {
    for (const [id, coin] of [
      ["8001", "ETH"],
      ["8002", "USDT"],
      ["8003", "SOL"],
      ["8004", "ETH"],
    ] as const)
      await db.query(
        `INSERT INTO ledger_deposits (order_id, sub_uid, coin, amount, status, ctime) VALUES ($1, '5100000009', $2, 1, 'success', $3)`,
        [id, coin, Date.now() - DAY],
      );
    await addPricedCoins(db);
    const { rows } = await db.query<{ coin: string }>(`SELECT coin FROM ledger_price_sync ORDER BY coin`);
    expect(rows.map((r) => r.coin)).toEqual(expect.arrayContaining(["ETH", "SOL"]));
    expect(rows.map((r) => r.coin)).not.toContain("USDT");
  });

  it("[ledger][prices] on the job engine, the price job prices the coins the ledger holds", async () => {
    await runEngineUntil(
      t,
      { client, share: 1, sweepSeconds: 1, activeSeconds: 60, budget: freeBudget, prices: true },
      async () => {
        const { rows } = await db.query<{ n: number }>(
          `SELECT count(DISTINCT coin)::int AS n FROM ledger_coin_prices WHERE coin IN ('ETH', 'SOL') AND day = CURRENT_DATE`,
        );
        return rows[0]!.n === 2 || `${rows[0]!.n} of ETH, SOL priced today`;
      },
      { withinMs: 90_000 },
    );
  }, 120_000);
});
