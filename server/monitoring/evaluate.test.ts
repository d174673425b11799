import "server-only";
// Property: for random ledgers and random parameters of every kind, the alerts the compiled queries raise
// are exactly the plain TypeScript reference's (server/monitoring/testing.ts), for one sub-account's recent
// records (a sync batch) and then for the whole history; evaluating again raises nothing.
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { RuleSpec } from "@/lib/api/monitoring/rule-kinds";
import { databaseTestBed, testEngines } from "@/server/db/testing";
import { evaluateScope, type EvaluableVersion } from "./evaluate";
import { activeVersion, alertKeys, clearMonitoring, referenceKeys, writeLedger, type TestLedger } from "./testing";

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 0, 1);
const SUBS = ["101", "102", "103", "104"];
const ADDRESSES = ["addrA", "addrB", "addrC", ""];
const COINS = ["BTC", "ETH", "USDT"];
const AMOUNTS = ["0.5", "1", "2.5", "9", "9.5", "9.9", "10", "40", "95", "99", "100", "999", "1000"];

// Times on a coarse grid over 12 days, so that ties, window edges and empty gaps all happen.
const time = fc.integer({ min: 0, max: 12 * 24 }).map((h) => T0 + h * HOUR);
const deposit = fc.record({
  subUid: fc.constantFrom(...SUBS),
  coin: fc.constantFrom(...COINS),
  amount: fc.constantFrom(...AMOUNTS),
  status: fc.constantFrom("success", "pending"),
  fromAddress: fc.constantFrom(...ADDRESSES),
  ctime: time,
});
const withdrawal = fc.record({
  subUid: fc.constantFrom(...SUBS),
  coin: fc.constantFrom(...COINS),
  amount: fc.constantFrom(...AMOUNTS),
  address: fc.constantFrom("addrA", "addrB", "addrD"),
  state: fc.constantFrom("requested" as const, "requested" as const, "cancelled" as const),
  ms: time,
});
const ledger: fc.Arbitrary<TestLedger> = fc
  .record({
    deposits: fc.array(deposit, { minLength: 15, maxLength: 60 }),
    withdrawals: fc.array(withdrawal, { minLength: 3, maxLength: 12 }),
    btcDays: fc.subarray([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]),
  })
  .map(({ deposits, withdrawals, btcDays }) => ({
    deposits: deposits.map((d, i) => ({ ...d, orderId: `o${String(i).padStart(3, "0")}` })),
    withdrawals: withdrawals.map((w) => ({ ...w, id: randomUUID() })),
    prices: btcDays.map((d) => ({
      coin: "BTC",
      day: new Date(T0 + d * 24 * HOUR).toISOString().slice(0, 10),
      usdt: "30000.5",
    })),
  }));

const coinOpt = fc.option(fc.constantFrom(...COINS), { nil: undefined });
const amount = fc.constantFrom(...AMOUNTS, "30000");
const hours = fc.integer({ min: 1, max: 96 });
const specs: fc.Arbitrary<RuleSpec[]> = fc.tuple(
  fc
    .record({ unit: fc.constantFrom("coin" as const, "usdt" as const), coin: coinOpt, minAmount: amount })
    .map((p): RuleSpec => ({ kind: "large_deposit", params: p.unit === "coin" ? { ...p, coin: p.coin ?? "BTC" } : p })),
  fc
    .record({ unit: fc.constantFrom("coin" as const, "usdt" as const), coin: coinOpt, minAmount: amount })
    .map((p): RuleSpec => ({ kind: "first_deposit", params: p.unit === "coin" ? { ...p, coin: p.coin ?? "ETH" } : p })),
  fc
    .record({
      coin: fc.constantFrom(...COINS),
      threshold: fc.constantFrom("10", "100", "1000"),
      marginPct: fc.integer({ min: 1, max: 50 }),
      minCount: fc.integer({ min: 2, max: 3 }),
      windowHours: fc.integer({ min: 24, max: 240 }),
    })
    .map((p): RuleSpec => ({ kind: "structuring", params: p })),
  fc
    .record({
      source: fc.constantFrom("deposits" as const, "withdrawals" as const),
      measure: fc.constantFrom("count" as const, "sum" as const),
      coin: coinOpt,
      limit: fc.constantFrom("1", "2", "3", "10", "50"),
      windowHours: hours,
    })
    .map((p): RuleSpec => ({
      kind: "velocity",
      params: p.measure === "sum" ? { ...p, coin: p.coin ?? "USDT" } : p,
    })),
  fc
    .record({ pct: fc.integer({ min: 1, max: 200 }), coin: coinOpt, windowHours: hours })
    .map((p): RuleSpec => ({ kind: "pass_through", params: p })),
  fc
    .record({
      dormantDays: fc.integer({ min: 1, max: 6 }),
      unit: fc.constantFrom("coin" as const, "usdt" as const),
      coin: coinOpt,
      minAmount: amount,
    })
    .map((p): RuleSpec => ({
      kind: "dormant_active",
      params: p.unit === "coin" ? { ...p, coin: p.coin ?? "BTC" } : p,
    })),
  fc
    .record({
      side: fc.constantFrom("deposit_source" as const, "withdrawal_destination" as const),
      minSubAccounts: fc.integer({ min: 2, max: 3 }),
      windowHours: hours,
    })
    .map((p): RuleSpec => ({ kind: "shared_address", params: p })),
  fc
    .record({ lookbackDays: fc.integer({ min: 1, max: 10 }) })
    .map((p): RuleSpec => ({ kind: "new_destination", params: p })),
  fc
    .record({
      source: fc.constantFrom("deposits" as const, "withdrawals" as const),
      measure: fc.constantFrom("count" as const, "sum" as const),
      coin: coinOpt,
      statuses: fc.option(fc.subarray(["success", "pending", "requested"], { minLength: 1 }), { nil: undefined }),
      minAmount: fc.option(fc.constantFrom("1", "9"), { nil: undefined }),
      maxAmount: fc.option(fc.constantFrom("10", "100"), { nil: undefined }),
      op: fc.constantFrom(">=" as const, ">" as const),
      threshold: fc.constantFrom("1", "2", "3", "20"),
      windowHours: hours,
    })
    .map((p): RuleSpec => ({ kind: "aggregate", params: p.measure === "sum" ? { ...p, coin: p.coin ?? "BTC" } : p })),
);

const scope = fc.record({ subUid: fc.constantFrom(...SUBS), since: time });

describe.each(testEngines(process.env.TEST_DATABASE_URL))("[monitoring][evaluate] on $engine", (engine) => {
  const bed = databaseTestBed(engine);

  it("[monitoring][evaluate] raises exactly what the reference computes, once, batch by batch and over history", async () => {
    // Each kind must both fire and stay silent in some runs, or agreeing with the reference proves little.
    const fired = new Map<string, { some: number; none: number }>();
    await fc.assert(
      fc.asyncProperty(ledger, specs, scope, async (l, kinds, batch) => {
        await clearMonitoring(bed.db);
        await writeLedger(bed.db, l);
        const versions = [];
        for (const spec of kinds) versions.push(await activeVersion(bed.db, spec));

        await evaluateScope(bed.db, batch, undefined, versions);
        for (const v of versions)
          expect(await alertKeys(bed.db, v.id), v.spec.kind).toEqual(referenceKeys(l, v.spec, batch));

        await evaluateScope(bed.db, { subUid: null, since: null }, undefined, versions);
        for (const v of versions) {
          const keys = await alertKeys(bed.db, v.id);
          expect(keys, v.spec.kind).toEqual(referenceKeys(l, v.spec));
          const tally = fired.get(v.spec.kind) ?? { some: 0, none: 0 };
          if (keys.length) tally.some++;
          // A sub-account's first request always goes somewhere new: silence is a request that did not fire.
          const requests = l.withdrawals.filter((w) => w.state !== "cancelled").length;
          if (v.spec.kind === "new_destination" ? keys.length < requests : !keys.length) tally.none++;
          fired.set(v.spec.kind, tally);
        }

        const before = await bed.db.query<{ n: string; cased: string }>(
          `SELECT count(*)::text AS n, count(case_id)::text AS cased FROM monitoring_alerts`,
        );
        expect(await evaluateScope(bed.db, { subUid: null, since: null }, undefined, versions)).toBe(0);
        const after = await bed.db.query<{ n: string; cased: string }>(
          `SELECT count(*)::text AS n, count(case_id)::text AS cased FROM monitoring_alerts`,
        );
        expect(after.rows[0]).toEqual(before.rows[0]);
        // Every alert is in its sub-account's one open case.
        expect(after.rows[0]!.cased).toBe(after.rows[0]!.n);
      }),
      { numRuns: engine.engine === "pglite" ? 40 : 25, seed: 36_001 },
    );
    expect(fired.size).toBe(9);
    for (const [kind, tally] of fired) {
      expect(tally.some, `${kind} fired`).toBeGreaterThan(0);
      expect(tally.none, `${kind} stayed silent`).toBeGreaterThan(0);
    }
  }, 600_000);

  // Two instances share a database only on PostgreSQL (PGlite has one writer), so this is PostgreSQL's alone.
  if (engine.engine === "postgres")
    it("[monitoring][evaluate] two instances evaluating at once raise each alert once", async () => {
      const second = await bed.open();
      const [l] = fc.sample(ledger, { numRuns: 1, seed: 7 });
      const [kinds] = fc.sample(specs, { numRuns: 1, seed: 7 });
      await clearMonitoring(bed.db);
      await writeLedger(bed.db, l!);
      const versions: EvaluableVersion[] = [];
      for (const spec of kinds!) versions.push(await activeVersion(bed.db, spec));
      const all = { subUid: null, since: null };
      const raised = await Promise.all(
        [bed.db, second, bed.db, second].map((db) => evaluateScope(db, all, undefined, versions)),
      );
      const expected = versions.map((v) => referenceKeys(l!, v.spec));
      expect(raised.reduce((a, b) => a + b, 0)).toBe(expected.flat().length);
      for (const [i, v] of versions.entries()) expect(await alertKeys(bed.db, v.id)).toEqual(expected[i]);
      const cases = await bed.db.query<{ n: string }>(
        `SELECT count(*)::text AS n FROM monitoring_cases GROUP BY sub_uid HAVING count(*) > 1`,
      );
      expect(cases.rows).toEqual([]);
    }, 120_000);
});
