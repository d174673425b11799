// Fills (E4) and plan orders (E3) of a configured key in the ledger, against the simulator over loopback, on
// PGlite and (with TEST_DATABASE_URL) PostgreSQL: after the sync the ledger holds exactly what the platform
// holds for the key, by ID, none twice; a plan order's status change is kept with when it was seen; the
// symbols come from the key's fills plus the configured list; faults leave nothing lost or doubled; fills
// older than the platform's 90 days stay; and on pg-boss the sweep brings every task in.
import { beforeAll, describe, expect, it } from "vitest";
import { DAY_MS as DAY } from "@/lib/platform/windows";
import { databaseTestBed, testEngines, withTestDatabase } from "@/server/db/testing";
import type { Db } from "@/server/db";
import type { PlatformClient } from "@/server/platform/client";
import { CredentialStore } from "@/server/platform/credentials";
import type { Simulator } from "@/server/simulator";
import {
  failuresUnder,
  faultStorm,
  freeBudget as free,
  ledgerTestBed,
  queueHeartbeats,
  runEngineUntil,
  statusChanges,
  untilBackfilled,
  withOwnPlatform,
} from "../testing";
import { ledgerFillFiltersSchema, ledgerPlanOrderFiltersSchema } from "@/lib/api/ledger/trades";
import { ledgerKeyRefusal, searchFills, searchPlanOrders } from "./queries";
import { FILL_WINDOW_MS, syncKeyTrades, type TradeTask } from "./sync";
import { FILLS_JOB, PLAN_ORDERS_JOB } from "./store";
import { DEPOSITS_QUEUE } from "../deposits/jobs";
import { RUN_RETRIES } from "../runs-queue";
import { TRADES_QUEUE } from "./jobs";

const bed = ledgerTestBed();
let sim: Simulator;
let client: PlatformClient;
beforeAll(() => void ({ sim, client } = bed));

const trading = () => sim.state.tradingOf(sim.keys.brokerMain.uid);
/** What E4 still holds: the last 90 days on the platform's clock. */
const simFills = (s = sim) =>
  new Set(
    s.state
      .tradingOf(s.keys.brokerMain.uid)
      .fills.filter((f) => f.cTime >= s.clock.now() - FILL_WINDOW_MS)
      .map((f) => f.tradeId),
  );
const simPlans = (symbol: string) =>
  new Map((trading().planOrders.get(symbol) ?? []).map((o) => [o.orderId, o.status]));

async function ledgerFills(db: Db): Promise<Set<string>> {
  const { rows } = await db.query<{ trade_id: string }>("SELECT trade_id FROM ledger_fills WHERE key_name = 'main'");
  return new Set(rows.map((r) => r.trade_id));
}
async function ledgerPlans(db: Db, symbol: string): Promise<Map<string, string>> {
  const { rows } = await db.query<{ order_id: string; status: string }>(
    "SELECT order_id, status FROM ledger_plan_orders WHERE key_name = 'main' AND symbol = $1",
    [symbol],
  );
  return new Map(rows.map((r) => [r.order_id, r.status]));
}

const syncOnce = (db: Db, task: TradeTask, c = client) => syncKeyTrades(task, { db, client: c, budget: free });
const syncUntilDone = async (db: Db, task: TradeTask, c = client) =>
  (await untilBackfilled(() => syncOnce(db, task, c))).length;

const fillsTask: TradeTask = { job: FILLS_JOB, key: "main", symbol: "" };

describe.each(testEngines(process.env.TEST_DATABASE_URL))("[ledger][trades] sync on $engine", (engine) => {
  const t = databaseTestBed(engine);
  let db: Db;
  beforeAll(() => void ({ db } = t));

  it("[ledger][fills] the ledger holds exactly the key's fills the platform holds, by tradeId, once; amounts exact; traded symbols become plan-order tasks", async () => {
    expect(await syncUntilDone(db, fillsTask)).toBe(1);
    const expected = simFills();
    expect(expected.size).toBeGreaterThan(100);
    expect(await ledgerFills(db)).toEqual(expected);
    const again = await syncOnce(db, fillsTask);
    expect(again.changes).toBe(0);
    const { rows } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM ledger_fills");
    expect(rows[0]!.n).toBe(expected.size);
    const sample = trading().fills[3]!;
    const stored = await db.query<{ amount: string; total_fee: string; size: string }>(
      "SELECT amount::text AS amount, total_fee::text AS total_fee, size::text AS size FROM ledger_fills WHERE trade_id = $1",
      [sample.tradeId],
    );
    expect(stored.rows[0]).toEqual({ amount: sample.amount, total_fee: sample.feeDetail.totalFee, size: sample.size });
    const tasks = await db.query<{ symbol: string }>(
      "SELECT symbol FROM ledger_key_sync WHERE job = $1 AND key_name = 'main' ORDER BY symbol",
      [PLAN_ORDERS_JOB],
    );
    expect(tasks.rows.map((r) => r.symbol)).toEqual(
      [
        ...new Set(
          trading()
            .fills.filter((f) => expected.has(f.tradeId))
            .map((f) => f.symbol),
        ),
      ].sort(),
    );
  });

  it("[ledger][plan-orders] backfill reaches past 90 days; a status change is kept with when it was seen; a new order arrives on the next run", async () => {
    const symbol = "BTCUSDT";
    const task: TradeTask = { job: PLAN_ORDERS_JOB, key: "main", symbol };
    await syncUntilDone(db, task);
    const expected = simPlans(symbol);
    expect([...trading().planOrders.get(symbol)!].some((o) => o.cTime < sim.clock.now() - 90 * DAY)).toBe(true);
    expect(await ledgerPlans(db, symbol)).toEqual(expected);

    // An old order, not yet triggered, is triggered now: the re-check of open orders reaches back to it.
    const orders = trading().planOrders.get(symbol)!;
    const open = orders.filter((o) => o.cTime < sim.clock.now() - 10 * DAY).at(0)!;
    const before = open.status;
    await db.query("UPDATE ledger_plan_orders SET status = 'not_trigger' WHERE order_id = $1", [open.orderId]);
    open.status = "executed";
    const t = sim.clock.now() - 1_000;
    const fresh = {
      ...orders[0]!,
      id: t * 1000 + 5,
      orderId: String(t * 1000 + 5),
      cTime: t,
      uTime: t,
      status: "not_trigger" as const,
    };
    orders.unshift(fresh);
    try {
      const out = await syncOnce(db, task);
      expect(out.changes).toBe(2);
      expect(await ledgerPlans(db, symbol)).toEqual(simPlans(symbol));
      expect(await statusChanges(db, "ledger_plan_order_changes", open.orderId)).toEqual([
        { from_status: null, to_status: before },
        { from_status: "not_trigger", to_status: "executed" },
      ]);
    } finally {
      // The new order stays on the platform (as it would); the old one's status goes back for the tests after.
      open.status = before;
    }
  });

  it("[ledger][plan-orders] under 5xx, resets and 429s, failed runs are run again: nothing lost, nothing twice", async () => {
    const task: TradeTask = { job: PLAN_ORDERS_JOB, key: "main", symbol: "ETHUSDT" };
    const failures = await failuresUnder(sim, faultStorm("planOrders.history"), 40, () => syncOnce(db, task));
    await syncUntilDone(db, task);
    expect(failures).toBeGreaterThan(0);
    expect(await ledgerPlans(db, "ETHUSDT")).toEqual(simPlans("ETHUSDT"));
    const { rows } = await db.query<{ n: number; d: number }>(
      "SELECT count(*)::int AS n, count(DISTINCT order_id)::int AS d FROM ledger_plan_orders WHERE symbol = 'ETHUSDT'",
    );
    expect(rows[0]).toEqual({ n: simPlans("ETHUSDT").size, d: simPlans("ETHUSDT").size });
  });

  it("[ledger][queries] fills and plan orders filtered in the database: exact count, keyset pages newest first without gaps", async () => {
    // Plan orders of BTCUSDT and ETHUSDT are in (tests above), 120 days of them: past E3's 90-day span.
    const from = sim.clock.now() - 110 * DAY;
    const expected = (["BTCUSDT", "ETHUSDT"] as const)
      .flatMap((s) => trading().planOrders.get(s) ?? [])
      .filter((o) => o.side === "buy" && o.cTime >= from)
      .sort((a, b) => b.cTime - a.cTime || (BigInt(b.orderId) > BigInt(a.orderId) ? 1 : -1));
    expect(expected.some((o) => o.cTime < sim.clock.now() - 90 * DAY)).toBe(true);
    const filters = ledgerPlanOrderFiltersSchema.parse({ side: "buy", from: String(from), limit: "9" });
    const seen: string[] = [];
    let page = await searchPlanOrders(db, filters);
    expect(page.total).toBe(expected.length);
    // Symbols the key traded in (from its fills) are still waiting for their first run: not all history is in.
    expect(page.sync).toMatchObject({ key: "main", backfillDone: false, failing: false });
    for (;;) {
      seen.push(...page.rows.map((r) => r.orderId));
      if (!page.nextCursor) break;
      page = await searchPlanOrders(db, { ...filters, cursor: page.nextCursor });
    }
    expect(seen).toEqual(expected.map((o) => o.orderId));

    const fill = trading().fills.find((f) => simFills().has(f.tradeId) && f.tradeScope === "maker")!;
    const ofOrder = trading().fills.filter((f) => f.orderId === fill.orderId);
    const byOrder = await searchFills(db, ledgerFillFiltersSchema.parse({ orderId: fill.orderId }));
    expect(byOrder.rows.map((r) => r.tradeId).sort()).toEqual(ofOrder.map((f) => f.tradeId).sort());
    const makers = await searchFills(
      db,
      ledgerFillFiltersSchema.parse({ symbol: fill.symbol.toLowerCase(), tradeScope: "maker", limit: "1" }),
    );
    expect(makers.total).toBe(
      trading().fills.filter((f) => simFills().has(f.tradeId) && f.symbol === fill.symbol && f.tradeScope === "maker")
        .length,
    );
    expect(makers.rows).toHaveLength(1);
    // Another key's records are not this key's.
    expect((await searchFills(db, ledgerFillFiltersSchema.parse({ key: "sub1" }))).total).toBe(0);
  });

  it("[ledger][engine] on pg-boss, the sweep runs the key's fills, then a plan-order task for each traded and configured symbol", async () => {
    for (const t of ["ledger_plan_order_changes", "ledger_plan_orders", "ledger_fills", "ledger_key_sync"])
      await db.query(`DELETE FROM ${t}`);
    // A configured symbol the key never filled in: its plan orders are kept all the same.
    const configured = "DOGEUSDT";
    let symbols: string[] = [];
    let heartbeats: Record<string, number | null> = {};
    await runEngineUntil(
      t,
      {
        client,
        share: 1,
        sweepSeconds: 1,
        activeSeconds: 600,
        budget: free,
        trades: { keys: ["main"], planSymbols: [configured] },
      },
      async (schema) => {
        const { rows } = await db.query<{ job: string; symbol: string; backfill_done: boolean }>(
          "SELECT job, symbol, backfill_done FROM ledger_key_sync WHERE key_name = 'main' ORDER BY job, symbol",
        );
        symbols = rows.filter((r) => r.job === PLAN_ORDERS_JOB).map((r) => r.symbol);
        heartbeats = await queueHeartbeats(db, schema);
        return (rows.length > 2 && rows.every((r) => r.backfill_done)) || JSON.stringify(rows);
      },
    );
    expect(symbols).toContain(configured);
    // A run whose instance died is retried within seconds, not after pg-boss's 15-minute expiry.
    expect(heartbeats).toMatchObject({
      [TRADES_QUEUE]: RUN_RETRIES.heartbeatSeconds,
      [DEPOSITS_QUEUE]: RUN_RETRIES.heartbeatSeconds,
    });
    expect(await ledgerFills(db)).toEqual(simFills());
    for (const s of symbols) expect(await ledgerPlans(db, s), s).toEqual(simPlans(s));
  }, 90_000);
});

describe("[ledger][retention] fills the platform forgets stay in the ledger", () => {
  it("[ledger][retention] 120 days on, E4 no longer answers the kept fills; the ledger still holds them and a later run changes nothing", async () => {
    await withOwnPlatform({}, ({ sim: forgetful, client: c }) =>
      withTestDatabase({ engine: "pglite" }, async (db) => {
        await syncUntilDone(db, fillsTask, c);
        const kept = await ledgerFills(db);
        expect(kept).toEqual(simFills(forgetful));
        forgetful.clock.advance(120 * DAY);
        expect(simFills(forgetful).size).toBe(0);
        // The first call after the jump learns the platform's clock from its answer (a refusal here, as the
        // start was on the old clock); the job engine's retry then asks on the platform's time.
        const run = () => syncOnce(db, fillsTask, c);
        const out = await run().catch(run);
        expect(out.records).toBe(0);
        expect(await ledgerFills(db)).toEqual(kept);
      }),
    );
  }, 60_000);
});

describe("[ledger][trades] who may read a key's records", () => {
  it("[ledger][trades] the main key's for every role with the permission; a named key's only for the roles that may choose it", () => {
    const keys = new CredentialStore({
      main: { apiKey: "a", apiSecret: "b", passphrase: "c" },
      sub1: { apiKey: "d", apiSecret: "e", passphrase: "f" },
    });
    expect(ledgerKeyRefusal(keys, undefined, "compliance")).toBeNull();
    expect(ledgerKeyRefusal(keys, "main", "broker")).toBeNull();
    expect(ledgerKeyRefusal(keys, "sub1", "lead")).toBeNull();
    expect(ledgerKeyRefusal(keys, "sub1", "broker")?.code).toBe("forbidden");
    // A key no longer configured keeps its records; they stay as guarded as when it was.
    expect(ledgerKeyRefusal(keys, "gone", "compliance")?.code).toBe("forbidden");
  });
});
