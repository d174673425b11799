// The coverage of a key's fills (E4) and plan orders (E3) against the simulator over loopback, on PGlite and
// (with TEST_DATABASE_URL) PostgreSQL: the span the ledger claims complete holds exactly the simulator's
// records of that span, by ID, after every run, whole or cut short by 5xx, resets and 429s; and an answer over a
// range the ledger does not hold completely says "not synced yet", never "none".
import { beforeAll, describe, expect, it } from "vitest";
import { DAY_MS as DAY } from "@/lib/platform/windows";
import { ledgerFillFiltersSchema, ledgerPlanOrderFiltersSchema } from "@/lib/api/ledger/trades";
import { keyNotSyncedText } from "@/lib/coverage-words";
import { databaseTestBed, testEngines } from "@/server/db/testing";
import type { Db } from "@/server/db";
import type { PlatformClient } from "@/server/platform/client";
import type { Simulator } from "@/server/simulator";
import { keyCoverageOf } from "../coverage";
import { freeBudget as free, ledgerTestBed, untilBackfilled } from "../testing";
import { searchFills, searchPlanOrders } from "./queries";
import { FILL_WINDOW_MS, syncKeyTrades, type TradeTask } from "./sync";
import { FILLS_JOB, PLAN_ORDERS_JOB } from "./store";

const bed = ledgerTestBed();
let sim: Simulator;
let client: PlatformClient;
beforeAll(() => void ({ sim, client } = bed));

const trading = () => sim.state.tradingOf(sim.keys.brokerMain.uid);
const fillsTask: TradeTask = { job: FILLS_JOB, key: "main", symbol: "" };
const planTask = (symbol: string): TradeTask => ({ job: PLAN_ORDERS_JOB, key: "main", symbol });

/**
 * Every covered span of the main key against the simulator: the IDs the ledger holds in it are exactly those
 * the platform holds in it (fills: within E4's 90 days, what the platform still answers).
 */
async function keyCoverageMismatches(db: Db): Promise<string[]> {
  const { rows: spans } = await db.query<{ job: string; symbol: string; covered_from: string; covered_to: string }>(
    `SELECT job, symbol, covered_from::text AS covered_from, covered_to::text AS covered_to
       FROM ledger_key_sync WHERE key_name = 'main' AND covered_to IS NOT NULL`,
  );
  const wrong: string[] = [];
  for (const s of spans) {
    const [from, to] = [Number(s.covered_from), Number(s.covered_to)];
    const fills = s.job === FILLS_JOB;
    const { rows } = await db.query<{ id: string }>(
      fills
        ? `SELECT trade_id AS id FROM ledger_fills WHERE key_name = 'main' AND ctime >= $1 AND ctime <= $2`
        : `SELECT order_id AS id FROM ledger_plan_orders WHERE key_name = 'main' AND symbol = $3
             AND ctime >= $1 AND ctime <= $2`,
      fills ? [from, to] : [from, to, s.symbol],
    );
    const held = new Set(rows.map((r) => r.id));
    const platform = fills
      ? trading()
          .fills.filter((f) => f.cTime >= sim.clock.now() - FILL_WINDOW_MS - DAY)
          .map((f) => ({ id: f.tradeId, t: Number(f.cTime) }))
      : (trading().planOrders.get(s.symbol) ?? []).map((o) => ({ id: o.orderId, t: Number(o.cTime) }));
    const expected = platform.filter((r) => r.t >= from && r.t <= to).map((r) => r.id);
    const lost = expected.filter((id) => !held.has(id));
    if (lost.length) wrong.push(`${s.job}:${s.symbol} [${from}, ${to}] misses ${lost.length}: ${lost.slice(0, 3)}`);
    const ids = new Set(expected);
    const extra = [...held].filter((id) => !ids.has(id));
    if (extra.length) wrong.push(`${s.job}:${s.symbol} [${from}, ${to}] holds ${extra.length} the platform does not`);
  }
  return wrong;
}

describe.each(testEngines(process.env.TEST_DATABASE_URL))(
  "[ledger][coverage] fills and plan orders on $engine",
  (engine) => {
    const t = databaseTestBed(engine);
    let db: Db;
    beforeAll(() => void ({ db } = t));
    const run = (task: TradeTask) => syncKeyTrades(task, { db, client, budget: free });

    it("[ledger][coverage] what the ledger claims complete of a key's fills and plan orders equals the simulator's records of that span, by ID, after every run under faults", async () => {
      const symbols = [...trading().planOrders.keys()].sort().slice(0, 2);
      expect(symbols.length).toBe(2);
      const tasks = [fillsTask, ...symbols.map(planTask)];
      sim.faults.set(
        (["fills.list", "planOrders.history"] as const).flatMap((path) => [
          { path, kind: "status" as const, status: 503, probability: 0.35 },
          { path, kind: "reset" as const, probability: 0.35 },
          { path, kind: "rate-limit" as const, probability: 0.35 },
        ]),
      );
      let failures = 0;
      try {
        for (let round = 0; round < 8; round++) {
          for (const task of tasks) {
            await run(task).catch(() => failures++);
            expect(await keyCoverageMismatches(db)).toEqual([]);
          }
        }
      } finally {
        sim.faults.clear();
      }
      expect(failures).toBeGreaterThan(0);
      for (const task of tasks) await untilBackfilled(() => run(task));
      expect(await keyCoverageMismatches(db)).toEqual([]);

      const now = sim.clock.now();
      // Fills: complete over the last 30 days; never over the whole history (E4 forgets what is older than 90 days).
      const month = await keyCoverageOf(db, { dataset: "fills", key: "main", from: now - 30 * DAY, to: now });
      expect(month).toMatchObject({ total: 1, complete: 1, historyComplete: false, missingSymbols: [] });
      const whole = await keyCoverageOf(db, { dataset: "fills", key: "main" });
      expect(whole).toMatchObject({ total: 1, complete: 0 });
      expect(Date.parse(whole.completeFrom!)).toBeLessThanOrEqual(now - 89 * DAY);
      // Plan orders: each symbol's backfill found the start of its history.
      const plans = await keyCoverageOf(db, { dataset: "plan-orders", key: "main", symbol: symbols[0]! });
      expect(plans).toMatchObject({
        total: 1,
        complete: 1,
        historyComplete: true,
        completeFrom: new Date(0).toISOString(),
      });
      // Every symbol the ledger syncs for the key: the symbols fills named and not walked yet are not complete.
      const every = await keyCoverageOf(db, { dataset: "plan-orders", key: "main", from: now - 30 * DAY, to: now });
      expect(every.complete).toBe(2);
      expect(every.missingSymbols).toHaveLength(every.total - 2);
      expect(every.missingSymbols).not.toContain(symbols[0]);
      expect(every.completeTo).toBeNull();
      // With only the two walked ones synced for the key, the answer is complete up to the older of their checks.
      await db.query(`DELETE FROM ledger_key_sync WHERE job = $1 AND NOT (symbol = ANY($2))`, [
        PLAN_ORDERS_JOB,
        symbols,
      ]);
      const both = await keyCoverageOf(db, { dataset: "plan-orders", key: "main", from: now - 30 * DAY, to: now });
      const { rows } = await db.query<{ to: string }>(
        `SELECT min(covered_to)::text AS to FROM ledger_key_sync WHERE job = $1`,
        [PLAN_ORDERS_JOB],
      );
      expect(both).toMatchObject({
        total: 2,
        complete: 2,
        historyComplete: true,
        completeFrom: new Date(0).toISOString(),
        completeTo: new Date(Number(rows[0]!.to)).toISOString(),
        missingSymbols: [],
      });
    });

    it("[ledger][coverage] an empty fills or plan-orders answer over a range the ledger does not hold says not synced yet, never none", async () => {
      // A key the ledger has not synced at all: its fills are not known, not absent.
      const none = await searchFills(db, ledgerFillFiltersSchema.parse({ key: "sub1" }));
      expect(none.rows).toEqual([]);
      expect(none.coverage).toMatchObject({ dataset: "fills", key: "sub1", total: 1, complete: 0, completeFrom: null });
      expect(keyNotSyncedText(none.coverage)).toMatch(/^Not synced yet/);

      // A symbol whose plan orders the ledger does not sync for the key: named as not complete.
      const unsynced = await searchPlanOrders(db, ledgerPlanOrderFiltersSchema.parse({ symbol: "nopeusdt" }));
      expect(unsynced.rows).toEqual([]);
      expect(unsynced.coverage).toMatchObject({ total: 1, complete: 0, missingSymbols: ["NOPEUSDT"] });
      expect(keyNotSyncedText(unsynced.coverage)).toMatch(/^Not synced yet/);

      // A range before the fills' coverage (older than E4's 90 days): not complete, even if it holds nothing.
      const old = sim.clock.now() - 200 * DAY;
      const before = await searchFills(
        db,
        ledgerFillFiltersSchema.parse({ from: String(old), to: String(old + 5 * DAY) }),
      );
      expect(before.coverage.complete).toBe(0);
      expect(keyNotSyncedText(before.coverage)).not.toBeNull();

      // A range the ledger holds completely and that is empty reads as none: the empty answer is the truth.
      const symbol = [...trading().planOrders.keys()].sort()[0]!;
      const ancient = await searchPlanOrders(
        db,
        ledgerPlanOrderFiltersSchema.parse({ symbol, from: "1000", to: String(2 * DAY) }),
      );
      expect(ancient.rows).toEqual([]);
      expect(ancient.coverage).toMatchObject({ total: 1, complete: 1 });
      expect(keyNotSyncedText(ancient.coverage)).toBeNull();
    });
  },
);
