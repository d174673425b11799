// The ledger's deposit sync against the simulator over loopback, on PGlite and (with TEST_DATABASE_URL) on
// PostgreSQL: after a backfill the ledger holds exactly the simulator's records of a sub-account, by ID,
// none twice; a status change is kept with when it was seen; new deposits arrive incrementally; faults
// (5xx, resets, 429 storms) leave nothing lost or doubled once the runs are repeated; and on the job
// engine (pg-boss) the sweep brings every registry sub-account in, one runner per sub-account even with
// two engines on one database.
import { beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { databaseTestBed, testEngines, withTestDatabase } from "@/server/db/testing";
import type { Db } from "@/server/db";
import type { PlatformClient } from "@/server/platform/client";
import type { Simulator } from "@/server/simulator";
import { deskUid, registerFromSimulator } from "@/server/testing";
import {
  failuresUnder,
  faultStorm,
  freeBudget as free,
  ledgerTestBed,
  runEngineUntil,
  statusChanges,
  untilBackfilled,
  withOwnPlatform,
} from "../testing";
import Big from "big.js";
import { ledgerDepositFiltersSchema } from "@/lib/api/ledger";
import type { DepositRecord } from "@/lib/platform/catalog/deposits";
import { DEPOSITS_JOB, recordSyncFailure, storeDeposits, syncSubaccountDeposits } from "./sync";
import { searchDeposits, syncJobs, syncStatus } from "./queries";
import { checkIntervals, nextCheckMs } from "./schedule";

const bed = ledgerTestBed();
let sim: Simulator;
let client: PlatformClient;
beforeAll(() => void ({ sim, client } = bed));

const subs = () => sim.state.subaccountsOf(sim.keys.brokerMain.uid);

async function ledgerOf(db: Db, uid: string): Promise<Map<string, string>> {
  const { rows } = await db.query<{ order_id: string; status: string }>(
    "SELECT order_id, status FROM ledger_deposits WHERE sub_uid = $1",
    [uid],
  );
  return new Map(rows.map((r) => [r.order_id, r.status]));
}
const simulatorOf = (uid: string) => new Map(sim.state.depositsOf(uid).map((d) => [d.orderId, d.status]));

const syncOnce = (db: Db, uid: string) => syncSubaccountDeposits(uid, { db, client, budget: free });
const syncUntilDone = (db: Db, uid: string) => untilBackfilled(() => syncOnce(db, uid));

describe.each(testEngines(process.env.TEST_DATABASE_URL))("[ledger][deposits] sync on $engine", (engine) => {
  const t = databaseTestBed(engine);
  let db: Db;
  beforeAll(() => void ({ db } = t));

  it("[ledger][deposits] backfill: the ledger holds exactly the simulator's records of a sub-account, by ID; a rerun adds nothing", async () => {
    const uid = deskUid(sim, "desk01");
    const runs = (await syncUntilDone(db, uid)).length;
    const expected = simulatorOf(uid);
    expect(expected.size).toBeGreaterThan(100);
    expect(await ledgerOf(db, uid)).toEqual(expected);
    // Two empty 89-day windows end it: the simulator holds 180 days.
    expect(runs).toBeLessThanOrEqual(5);
    const again = await syncOnce(db, uid);
    expect(again.changes).toBe(0);
    const { rows } = await db.query<{ n: number; d: number }>(
      "SELECT count(*)::int AS n, count(DISTINCT order_id)::int AS d FROM ledger_deposits WHERE sub_uid = $1",
      [uid],
    );
    expect(rows[0]).toEqual({ n: expected.size, d: expected.size });
    // Amounts are kept exactly as the platform wrote them.
    const sample = sim.state.depositsOf(uid)[0]!;
    const stored = await db.query<{ amount: string }>(
      "SELECT amount::text AS amount FROM ledger_deposits WHERE order_id = $1",
      [sample.orderId],
    );
    expect(stored.rows[0]!.amount).toBe(sample.amount);
  });

  it("[ledger][deposits] a status change is kept with when it was seen; a new deposit arrives on the next run", async () => {
    const uid = deskUid(sim, "desk02");
    await syncUntilDone(db, uid);
    const pending = sim.state.depositsOf(uid).find((d) => d.status === "pending") ?? sim.state.depositsOf(uid)[0]!;
    const before = pending.status;
    (pending as { status: string }).status = before === "success" ? "fail" : "success";
    // Ids grow with time (ms × 1000 + a sequence), as the simulator's own.
    const t = Date.now() - 1_000;
    const fresh = {
      ...sim.state.depositsOf(uid)[0]!,
      id: t * 1000 + 7,
      orderId: String(t * 1000 + 7),
      txId: "0xledgertest",
      cTime: t,
      uTime: t,
      status: "pending",
    };
    sim.state.addDeposit(fresh);
    const out = await syncOnce(db, uid);
    expect(out.changes).toBe(2);
    expect(await ledgerOf(db, uid)).toEqual(simulatorOf(uid));
    expect(await statusChanges(db, "ledger_deposit_changes", pending.orderId)).toEqual([
      { from_status: null, to_status: before },
      { from_status: before, to_status: pending.status },
    ]);
  });

  it("[ledger][deposits] under 5xx, resets and 429s, failed runs are simply run again: nothing lost, nothing twice", async () => {
    const uid = deskUid(sim, "desk03");
    const failures = await failuresUnder(sim, faultStorm("deposits.list"), 60, () => syncOnce(db, uid));
    // Whatever the faults left undone, one clean run completes it.
    await syncUntilDone(db, uid);
    expect(failures).toBeGreaterThan(0);
    expect(await ledgerOf(db, uid)).toEqual(simulatorOf(uid));
  });

  it("[ledger][queries] filters over the whole set: exact count, totals per coin and per day, keyset pages without gaps", async () => {
    // desk01..03 are in the ledger (tests above). Over 150 days (past E1's three-month span), coin USDT, amount ≥ 100.
    const uids = [deskUid(sim, "desk01"), deskUid(sim, "desk02"), deskUid(sim, "desk03")];
    const from = Date.now() - 150 * 86_400_000;
    const expected = uids
      .flatMap((u) => sim.state.depositsOf(u))
      .filter((d) => d.coin === "USDT" && new Big(d.amount).gte(100) && d.cTime >= from);
    expect(expected.length).toBeGreaterThan(10);
    const filters = ledgerDepositFiltersSchema.parse({
      coin: "usdt",
      minAmount: "100",
      from: String(from),
      limit: "7",
    });
    const first = await searchDeposits(db, filters);
    expect(first.total).toBe(expected.length);
    expect(first.totals.map((t) => [t.coin, t.count])).toEqual([["USDT", expected.length]]);
    expect(new Big(first.totals[0]!.amount).eq(expected.reduce((a, d) => a.plus(d.amount), new Big(0)))).toBe(true);
    expect(first.perDay.reduce((n, d) => n + d.count, 0)).toBe(expected.length);
    // Every page, newest first, each record once.
    const seen: string[] = [];
    let page = first;
    for (;;) {
      seen.push(...page.rows.map((r) => r.orderId));
      if (!page.nextCursor) break;
      page = await searchDeposits(db, { ...filters, cursor: page.nextCursor });
    }
    expect(seen).toEqual(
      [...expected].sort((a, b) => b.cTime - a.cTime || (b.orderId < a.orderId ? -1 : 1)).map((d) => d.orderId),
    );
    // One record by its transaction ID.
    const one = expected[0]!;
    const byTx = await searchDeposits(db, ledgerDepositFiltersSchema.parse({ q: one.txId }));
    expect(byTx.rows.map((r) => r.orderId)).toContain(one.orderId);
    // A hex identifier in any case (a checksummed address mixes cases); a base58 one only as it is.
    const found = async (q: string) =>
      (await searchDeposits(db, ledgerDepositFiltersSchema.parse({ q, limit: "500" }))).rows.map((r) => r.orderId);
    const all = uids.flatMap((u) => sim.state.depositsOf(u));
    const hex = all.find((d) => /^0x[0-9a-f]+$/.test(d.toAddress) && /[a-f]/.test(d.toAddress))!;
    expect(await found(hex.toAddress.toUpperCase().replace(/^0X/, "0x"))).toContain(hex.orderId);
    expect(await found(hex.fromAddress.toUpperCase().replace(/^0X/, "0x"))).toContain(hex.orderId);
    expect(await found(hex.txId.toUpperCase())).toContain(hex.orderId);
    // The simulator's addresses are all hex: a TRON deposit (base58) is stored for this, then taken out again.
    const tron: DepositRecord = {
      orderId: "990000000000000001",
      txId: "",
      coin: "USDT",
      type: "deposit",
      dest: "on_chain",
      amount: "1",
      status: "success",
      fromAddress: "",
      toAddress: "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE",
      fee: "0",
      chain: "TRC20",
      confirm: "20",
      tag: "",
      userId: "9900000001",
      cTime: String(hex.cTime),
      uTime: String(hex.cTime),
    };
    await storeDeposits(db, "9900000001", [tron]);
    try {
      expect(await found(tron.toAddress)).toEqual([tron.orderId]);
      expect(await found(tron.toAddress.toLowerCase())).toEqual([]);
      // An empty address or tx ID never matches (nor would an empty search, which is no filter).
      expect(await found("TQn9Y2khEsLJW1ChVWFMSMeRDow5Kcb")).toEqual([]);
    } finally {
      await db.query("DELETE FROM ledger_deposit_changes WHERE order_id = $1", [tron.orderId]);
      await db.query("DELETE FROM ledger_deposits WHERE order_id = $1", [tron.orderId]);
    }
  });

  it("[ledger][engine] on pg-boss, the sweep brings every registry sub-account in; two engines never run one sub-account at once", async () => {
    const chosen = subs().slice(3, 9);
    await registerFromSimulator(db, chosen);
    // Who is being walked right now, per sub-account, across both engines.
    const active = new Map<string, number>();
    let overlap = 0;
    const watched = new Proxy(client, {
      get(target, prop, receiver) {
        if (prop !== "call") return Reflect.get(target, prop, receiver);
        return async (...args: Parameters<PlatformClient["call"]>) => {
          const uid = String((args[1] as { userId?: string }).userId);
          const n = (active.get(uid) ?? 0) + 1;
          active.set(uid, n);
          if (n > 1) overlap++;
          try {
            return await target.call(...args);
          } finally {
            active.set(uid, (active.get(uid) ?? 1) - 1);
          }
        };
      },
    });
    const engineOptions = { client: watched, share: 1, sweepSeconds: 1, activeSeconds: 60, budget: free };
    await runEngineUntil(
      t,
      engineOptions,
      async () => {
        const { rows } = await db.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM ledger_sync WHERE job = $1 AND backfill_done AND sub_uid = ANY($2)",
          [DEPOSITS_JOB, chosen.map((s) => s.uid)],
        );
        return rows[0]!.n === chosen.length || `only ${rows[0]!.n} of ${chosen.length} sub-accounts synced`;
      },
      { instances: engine.engine === "postgres" ? 2 : 1 },
    );
    for (const s of chosen) expect(await ledgerOf(db, s.uid), s.subaccountName).toEqual(simulatorOf(s.uid));
    expect(overlap).toBe(0);
  }, 90_000);

  it("[ledger][sync] /sync's figures: each job's counts and lag; the sub-accounts needing attention most, at most `limit`, or one by UID", async () => {
    // desk04 to desk09 are in the registry and synced (the test above); one of them now fails.
    const failing = subs()[5]!.uid;
    await recordSyncFailure(db, failing, "platform error 50000: System busy");
    const jobs = await syncJobs(db);
    const deposits = jobs.find((j) => j.job === DEPOSITS_JOB)!;
    const { rows } = await db.query<{ n: number; calls: string; records: string }>(
      "SELECT count(*)::int AS n, sum(calls)::text AS calls, sum(records)::text AS records FROM ledger_sync WHERE job = $1",
      [DEPOSITS_JOB],
    );
    expect(deposits).toMatchObject({
      units: rows[0]!.n,
      failing: 1,
      calls: Number(rows[0]!.calls),
      records: Number(rows[0]!.records),
    });
    expect(deposits.checked).toBeGreaterThanOrEqual(6);
    expect(deposits.lagSeconds).toBeGreaterThanOrEqual(0);
    const top = await syncStatus(db, { limit: 2 });
    expect(top).toHaveLength(2);
    expect(top[0]).toMatchObject({ subUid: failing, errors: 1, lastError: "platform error 50000: System busy" });
    const one = await syncStatus(db, { subUid: subs()[7]!.uid });
    expect(one.map((r) => r.subUid)).toEqual([subs()[7]!.uid]);
    expect(await syncStatus(db, { subUid: "1" })).toEqual([]);
  });

  it("[ledger][deposits] a backfill step that is no check walks only its older window and leaves the check's times and schedule; a check walks both", async () => {
    const uid = deskUid(sim, "desk12");
    const windows: { start: number; end: number }[] = [];
    const watched = new Proxy(client, {
      get(target, prop, receiver) {
        if (prop !== "call") return Reflect.get(target, prop, receiver);
        return (...args: Parameters<PlatformClient["call"]>) => {
          const p = args[1] as { startTime: string; endTime: string };
          windows.push({ start: Number(p.startTime), end: Number(p.endTime) });
          return target.call(...args);
        };
      },
    });
    const run = (check: boolean) => syncSubaccountDeposits(uid, { db, client: watched, budget: free, check });
    const state = async () =>
      (
        await db.query<{ before: string; windows: number; checked: Date; success: Date; next: Date }>(
          `SELECT backfill_before::text AS before, backfill_windows AS windows, last_checked_at AS checked,
                  last_success_at AS success, next_check_at AS next FROM ledger_sync WHERE job = $1 AND sub_uid = $2`,
          [DEPOSITS_JOB, uid],
        )
      ).rows[0]!;
    // The first run checks, whatever it is asked: the backfill has nowhere to start from yet.
    expect((await run(false)).checked).toBe(true);
    await db.query("UPDATE ledger_sync SET next_check_at = now() + interval '1 hour' WHERE job = $1 AND sub_uid = $2", [
      DEPOSITS_JOB,
      uid,
    ]);
    const before = await state();
    windows.length = 0;
    const step = await run(false);
    const after = await state();
    expect(step.checked).toBe(false);
    expect(step.calls).toBe(windows.length);
    expect(windows.length).toBeGreaterThan(0);
    // Only the window below where the backfill stood: nothing newer was asked for.
    for (const w of windows) expect(w.end).toBeLessThanOrEqual(Number(before.before));
    expect(after.windows).toBe(before.windows + 1);
    expect(Number(after.before)).toBeLessThan(Number(before.before));
    expect({ checked: after.checked, success: after.success, next: after.next }).toEqual({
      checked: before.checked,
      success: before.success,
      next: before.next,
    });
    // A check: the recent part is walked with the step.
    windows.length = 0;
    const checked = await run(true);
    expect(checked.checked).toBe(true);
    expect(Math.max(...windows.map((w) => w.end))).toBeGreaterThan(Date.now() - 60_000);
    await untilBackfilled(() => run(false));
    expect(await ledgerOf(db, uid)).toEqual(simulatorOf(uid));
  });
});

describe("[ledger][schedule] when a sub-account is due again", () => {
  it("[ledger][schedule] actives and the others at their intervals, backfilling or not", () => {
    const t = 1_000_000_000_000;
    const intervals = { activeMs: 60_000, dormantMs: 2_000_000 };
    // A backfilling sub-account's backfill runs come from the backfill's order; its checks keep the interval.
    expect(nextCheckMs({ backfillDone: false, newestCtime: null }, t, intervals)).toBe(t + 2_000_000);
    expect(nextCheckMs({ backfillDone: true, newestCtime: t - 86_400_000 }, t, intervals)).toBe(t + 60_000);
    expect(nextCheckMs({ backfillDone: true, newestCtime: t - 30 * 86_400_000 }, t, intervals)).toBe(t + 2_000_000);
    expect(nextCheckMs({ backfillDone: true, newestCtime: null }, t, intervals)).toBe(t + 2_000_000);
  });

  it("[ledger][schedule] the intervals: the physical bound for all with no actives or no active share; else actives more often, within the share", () => {
    // 10,000 sub-accounts at 5 calls/s: the bound is 2,000 s.
    expect(checkIntervals({ perSecond: 5, registry: 10_000, active: 0, activeSeconds: 60, activeShare: 0.25 })).toEqual(
      { activeMs: 2_000_000, dormantMs: 2_000_000 },
    );
    expect(checkIntervals({ perSecond: 5, registry: 10_000, active: 500, activeSeconds: 60, activeShare: 0 })).toEqual({
      activeMs: 2_000_000,
      dormantMs: 2_000_000,
    });
    // 500 actives may take 1.25 of the 5 calls/s: each every 400 s, the other 9,500 every 2,534 s (≤ 2,000 ÷ 0.75).
    expect(
      checkIntervals({ perSecond: 5, registry: 10_000, active: 500, activeSeconds: 60, activeShare: 0.25 }),
    ).toEqual({ activeMs: 400_000, dormantMs: 2_533_334 });
    // A check of an active one costs 3 calls (its recent part takes pages): the same 1.25 calls/s buy a third as many.
    expect(
      checkIntervals({
        perSecond: 5,
        registry: 10_000,
        active: 500,
        activeSeconds: 60,
        activeShare: 0.25,
        cost: { active: 3, dormant: 1 },
      }),
    ).toEqual({ activeMs: 1_200_000, dormantMs: 2_533_334 });
    // 25 sub-accounts: the bound (5 s) is below activeSeconds; nothing more often than that.
    expect(checkIntervals({ perSecond: 5, registry: 25, active: 3, activeSeconds: 60, activeShare: 0.25 })).toEqual({
      activeMs: 60_000,
      dormantMs: 60_000,
    });
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 500_000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 1, max: 600 }),
        fc.double({ min: 0, max: 0.95, noNaN: true }),
        fc.double({ min: 1, max: 5, noNaN: true }),
        fc.double({ min: 1, max: 5, noNaN: true }),
        (registry, activePart, perSecond, activeSeconds, activeShare, ca, cd) => {
          const active = Math.floor(registry * activePart);
          const { activeMs, dormantMs } = checkIntervals({
            perSecond,
            registry,
            active,
            activeSeconds,
            activeShare,
            cost: { active: ca, dormant: cd },
          });
          const boundMs = (((registry - active) * cd + active * ca) / perSecond) * 1000;
          // Actives never less often than the others; the others within the promise; never above the floor.
          expect(activeMs).toBeLessThanOrEqual(dormantMs);
          expect(dormantMs).toBeLessThanOrEqual(Math.max(activeSeconds * 1000, Math.ceil(boundMs / (1 - activeShare))));
          expect(Math.min(activeMs, dormantMs)).toBeGreaterThanOrEqual(activeSeconds * 1000);
          // The checks they ask for fit the share (1 ms of rounding per interval).
          const perSecondAsked = (active * ca * 1000) / activeMs + ((registry - active) * cd * 1000) / dormantMs;
          expect(perSecondAsked).toBeLessThanOrEqual(perSecond * 1.000001);
        },
      ),
      { numRuns: 2_000 },
    );
  });
});

describe("[ledger][retention] what the platform forgets, the ledger keeps", () => {
  it("[ledger][retention] after the platform's clock moves past its retention, the records are gone from E1 and remain in the ledger, unchanged by later runs", async () => {
    // A platform that keeps deposits 90 days (the spec states none for E1; the simulator can be told).
    await withOwnPlatform({ depositRetentionDays: 90 }, ({ sim: forgetful, client: c }) =>
      withTestDatabase({ engine: "pglite" }, async (db) => {
        const uid = deskUid(forgetful, "desk01");
        const run = () => syncSubaccountDeposits(uid, { db, client: c, budget: free });
        await untilBackfilled(run);
        const kept = await ledgerOf(db, uid);
        const onPlatform = (ms: number) =>
          forgetful.state.depositsOf(uid).filter((d) => Number(d.cTime) >= forgetful.clock.now() - ms).length;
        expect(kept.size).toBe(onPlatform(90 * 86_400_000));
        expect(kept.size).toBeGreaterThan(50);

        // 120 days on: the platform answers E1 with nothing older than 90 days, so nothing of what was kept.
        forgetful.clock.advance(120 * 86_400_000);
        const now = forgetful.clock.now();
        const { data } = await c.call("deposits.list", {
          userId: uid,
          startTime: String(now - 89 * 86_400_000),
          endTime: String(now),
          limit: "100",
        });
        expect(data.filter((d) => kept.has(d.orderId))).toEqual([]);
        await run();
        expect(await ledgerOf(db, uid)).toEqual(kept);
      }),
    );
  }, 60_000);
});
