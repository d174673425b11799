// The coverage of every synced dataset over one range (what /api/ledger/coverage answers besides the deposit
// sub-accounts it lists), on PGlite and (with TEST_DATABASE_URL) on PostgreSQL: each dataset in its own unit,
// a unit complete only when its span or every day of the range is held.
import { beforeAll, describe, expect, it } from "vitest";
import { SYNCED_DATASETS } from "@/lib/api/ledger/coverage";
import { databaseTestBed, testEngines } from "@/server/db/testing";
import type { Db } from "@/server/db";
import { datasetsCoverage } from "./datasets-coverage";
import { DEPOSITS_JOB } from "./deposits/sync";
import { ASSETS_SNAPSHOT_JOB } from "./snapshots/sync";
import { FILLS_JOB, PLAN_ORDERS_JOB } from "./trades/store";

const DAY = 86_400_000;
// Noon of a UTC day, so the days of a range are whole.
const NOW = Date.UTC(2026, 10, 20, 12);
const day = (back: number) => new Date(NOW - back * DAY).toISOString().slice(0, 10);

describe.each(testEngines(process.env.TEST_DATABASE_URL))("[ledger][coverage] every dataset on $engine", (engine) => {
  const t = databaseTestBed(engine);
  let db: Db;
  beforeAll(async () => {
    db = t.db;
    await db.query(
      `INSERT INTO subaccounts (sub_uid, subaccount_name, source, created_by)
       VALUES ('9001', 'cov-a', 'added', 'test'), ('9002', 'cov-b', 'added', 'test'), ('9003', 'cov-c', 'added', 'test')`,
    );
    // Deposits: a whole history, the last 10 days only, nothing yet.
    await db.query(
      `INSERT INTO ledger_sync (job, sub_uid, covered_from, covered_to) VALUES
         ($1, '9001', 0, $2), ($1, '9002', $3, $2)`,
      [DEPOSITS_JOB, NOW - 60_000, NOW - 10 * DAY],
    );
    // Fills: one key complete back to 30 days, one to 3; plan orders: one symbol complete, one never walked.
    await db.query(
      `INSERT INTO ledger_key_sync (job, key_name, symbol, covered_from, covered_to) VALUES
         ($1, 'main', '', $3, $4), ($1, 'desk', '', $5, $4),
         ($2, 'main', 'BTCUSDT', 0, $4), ($2, 'main', 'ETHUSDT', NULL, NULL)`,
      [FILLS_JOB, PLAN_ORDERS_JOB, NOW - 30 * DAY, NOW - 60_000, NOW - 3 * DAY],
    );
    // Balance snapshots from 5 days back: 9001 every day, 9002 missing one; rebate snapshots: none taken yet.
    for (let b = 5; b >= 0; b--) {
      await db.query(`INSERT INTO ledger_snapshot_days (job, sub_uid, day) VALUES ($1, '9001', $2::date)`, [
        ASSETS_SNAPSHOT_JOB,
        day(b),
      ]);
      if (b !== 2)
        await db.query(`INSERT INTO ledger_snapshot_days (job, sub_uid, day) VALUES ($1, '9002', $2::date)`, [
          ASSETS_SNAPSHOT_JOB,
          day(b),
        ]);
    }
    // Prices: BTC every day of E8's last 89 and today, ETH missing one, DOGE without a market.
    await db.query(
      `INSERT INTO ledger_price_sync (coin, no_market) VALUES ('BTC', false), ('ETH', false), ('DOGE', true)`,
    );
    await db.query(
      `INSERT INTO ledger_coin_prices (coin, day, usdt, trade_id, trade_ts)
       SELECT c, $1::date - g, 100, 't', 0 FROM unnest(ARRAY['BTC', 'ETH']) c, generate_series(0, 89) g
        WHERE NOT (c = 'ETH' AND g = 40)`,
      [day(0)],
    );
  });

  it("answers for every synced dataset, each in its unit, complete only where the whole range is held", async () => {
    const all = await datasetsCoverage(db, { from: NOW - 20 * DAY, now: NOW });
    expect(all.map((d) => d.dataset)).toEqual([...SYNCED_DATASETS]);
    const of = (name: string) => all.find((d) => d.dataset === name)!;
    // The last 20 days: only the whole history reaches them; the 10-day one and the never-synced do not.
    expect(of("deposits")).toMatchObject({ unit: "sub-account", total: 3, complete: 1 });
    expect(of("fills")).toMatchObject({ unit: "key", total: 2, complete: 1 });
    expect(of("plan-orders")).toMatchObject({ unit: "key and symbol", total: 2, complete: 1 });
    // Snapshots are judged from the first one taken (5 days back): 9001 has every day, 9002 lacks one, 9003 none.
    expect(of("balance-snapshots")).toMatchObject({ unit: "sub-account", total: 3, complete: 1 });
    expect(of("balance-snapshots").from).toBe(`${day(5)}T00:00:00.000Z`);
    expect(of("rebate-snapshots")).toMatchObject({ total: 3, complete: 0 });
    // Prices over the last 20 days: BTC has each, ETH's missing day is older, DOGE has no market.
    expect(of("prices")).toMatchObject({ unit: "coin", total: 3, complete: 2 });
  });

  it("narrows with the range: ETH's missing day and the 3-day key count once the range reaches them", async () => {
    const week = await datasetsCoverage(db, { from: NOW - 7 * DAY, now: NOW });
    const wide = await datasetsCoverage(db, { from: NOW - 60 * DAY, now: NOW });
    const of = (a: typeof week, name: string) => a.find((d) => d.dataset === name)!;
    expect(of(week, "deposits").complete).toBe(2);
    expect(of(week, "fills").complete).toBe(1);
    expect(of(wide, "prices").complete).toBe(1);
    expect(of(wide, "fills").complete).toBe(0);
    // Only the sub-accounts asked for: 9002 alone is complete over the week, and its snapshots are not.
    const one = await datasetsCoverage(db, { from: NOW - 7 * DAY, uids: ["9002"], now: NOW });
    expect(of(one, "deposits")).toMatchObject({ total: 1, complete: 1 });
    expect(of(one, "balance-snapshots")).toMatchObject({ total: 1, complete: 0 });
  });
});
