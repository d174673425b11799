import "server-only";
// Property: on a partial ledger (each sub-account's deposits held completely over a random span, or not at all,
// plus stray records outside it, as a walk cut short leaves them), no rule of any kind raises an alert that the
// reference over the complete ledger would not raise; as the coverage grows, the sync's batches judge what
// waited, and once every history is complete the alerts are exactly the reference's. Each alert records the
// coverage it was raised under.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { coverageNeedOf } from "@/lib/api/monitoring/rule-kinds";
import { databaseTestBed, testEngines } from "@/server/db/testing";
import type { Queryable } from "@/server/db";
import { evaluateScope, type EvaluableVersion } from "./evaluate";
import { coverageDue, evaluateBatch, evaluateHistory } from "./jobs";
import { notEvaluableCounts } from "./coverage";
import {
  activeVersion,
  alertKeys,
  clearMonitoring,
  COMPLETE,
  referenceKeys,
  writeCoverage,
  writeLedger,
  type TestCoverage,
  type TestLedger,
} from "./testing";
import { HOUR, ledger, SUBS, specs, T0 } from "./testing-arbitraries";

const at = fc.integer({ min: 0, max: 12 * 24 }).map((h) => T0 + h * HOUR);
/** A span the sync could have left: none yet, the whole history, or from some time (or the start) to some time. */
const span: fc.Arbitrary<TestCoverage> = fc.oneof(
  fc.constant(null),
  fc.constant(COMPLETE),
  fc
    .tuple(fc.option(at, { nil: 0 }), fc.oneof(at, fc.constant(COMPLETE!.to)))
    .map(([a, b]) => ({ from: Math.min(a, b), to: Math.max(a, b) })),
);
const coverages = fc.tuple(...SUBS.map(() => span));

const held = (c: TestCoverage, t: number) => c !== null && c.from <= t && t <= c.to;

/** The ledger as the sync has it: every deposit inside each sub-account's span, and those strays chosen. */
function partial(l: TestLedger, cov: Record<string, TestCoverage>, strays: boolean[]): TestLedger {
  const deposits = l.deposits.filter((d, i) => held(cov[d.subUid] ?? null, d.ctime) || strays[i % strays.length]);
  return { ...l, deposits, originators: recordedOf(l, deposits), coverage: cov };
}

/** The originators recorded for these deposits (compliance records one only for a deposit the ledger holds). */
const recordedOf = (l: TestLedger, deposits: TestLedger["deposits"]) =>
  (l.originators ?? []).filter((id) => deposits.some((d) => d.orderId === id));

/** A span grown as a backfill grows it: reaching further back (maybe to the start), and up to now. */
const grow = (c: TestCoverage, back: number | undefined): TestCoverage =>
  c === null ? { from: back ?? 0, to: COMPLETE!.to } : { from: Math.min(c.from, back ?? 0), to: COMPLETE!.to };

/**
 * What is in the ledger was seen an hour ago: a batch finds it again only because it waited for the coverage,
 * not because it is new (a batch looks a little before its watermark).
 */
const seenLongAgo = (db: Queryable) => db.query(`UPDATE ledger_deposits SET first_seen_at = now() - interval '1 hour'`);

async function added(db: Queryable, l: TestLedger, now: TestLedger) {
  const have = new Set(
    (await db.query<{ order_id: string }>(`SELECT order_id FROM ledger_deposits`)).rows.map((r) => r.order_id),
  );
  const deposits = now.deposits.filter((d) => !have.has(d.orderId));
  return { ...now, deposits, originators: recordedOf(l, deposits), withdrawals: [], prices: [] };
}

describe.each(testEngines(process.env.TEST_DATABASE_URL))("[monitoring][coverage] on $engine", (engine) => {
  const bed = databaseTestBed(engine);

  it("[monitoring][coverage] never raises what the complete ledger would not; equals it once complete", async () => {
    const waited = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(
        ledger,
        specs,
        coverages,
        fc.array(fc.boolean(), { minLength: 7, maxLength: 7 }),
        fc.tuple(...SUBS.map(() => fc.option(at, { nil: undefined }))),
        async (l, kinds, covs, strays, backs) => {
          await clearMonitoring(bed.db);
          const cov = Object.fromEntries(SUBS.map((s, i) => [s, covs[i]!]));
          const first = partial(l, cov, strays);
          await writeLedger(bed.db, { ...first, coverage: cov });
          await seenLongAgo(bed.db);
          const versions: EvaluableVersion[] = [];
          for (const spec of kinds) versions.push(await activeVersion(bed.db, spec));
          const reference = new Map(versions.map((v) => [v.id, referenceKeys(l, v.spec)]));
          const subsetOfReference = async (when: string) => {
            for (const v of versions) {
              const extra = (await alertKeys(bed.db, v.id)).filter((k) => !reference.get(v.id)!.includes(k));
              expect(extra, `${v.spec.kind} ${when}: alerts the complete ledger does not raise`).toEqual([]);
            }
          };

          // Made active during the sync: over the whole history, then the batches.
          await evaluateScope(bed.db, { subUid: null, since: null }, undefined, versions);
          for (const s of SUBS) await evaluateBatch(bed.db, s);
          await subsetOfReference("on the partial ledger");
          for (const v of versions) {
            const missing = reference.get(v.id)!.length - (await alertKeys(bed.db, v.id)).length;
            const kind = ["structuring", "velocity", "aggregate"].includes(v.spec.kind) ? "rolling" : v.spec.kind;
            if (missing > 0) waited.set(kind, (waited.get(kind) ?? 0) + 1);
          }
          // Each alert says the coverage it was raised under: what its kind needs, and the span then held.
          const recorded = await bed.db.query<{ sub_uid: string; coverage: Record<string, unknown>; id: string }>(
            `SELECT sub_uid, coverage, rule_version_id::text AS id FROM monitoring_alerts`,
          );
          for (const r of recorded.rows) {
            const v = versions.find((x) => x.id === r.id)!;
            const c = cov[r.sub_uid] ?? null;
            expect(r.coverage.needs, v.spec.kind).toBe(coverageNeedOf(v.spec).needs);
            expect(r.coverage.from === null ? null : Number(r.coverage.from), v.spec.kind).toBe(c?.from ?? null);
            // A rule that needs the history raised only where the whole history is held.
            if (coverageNeedOf(v.spec).needs === "history") expect(c?.from, v.spec.kind).toBe(0);
          }
          // The rules page's count: a rule over the whole history cannot judge a sub-account without it.
          const firstDeposit = versions.find((v) => v.spec.kind === "first_deposit")!;
          expect((await notEvaluableCounts(bed.db, [firstDeposit]))[firstDeposit.id]).toBe(
            SUBS.filter((s) => cov[s]?.from !== 0).length,
          );

          // The backfill reaches further back for some; a sync brings what it walked; the batches run.
          const mid = Object.fromEntries(
            SUBS.map((s, i) => [s, backs[i] === undefined ? cov[s]! : grow(cov[s]!, backs[i])]),
          );
          const second = partial(l, mid, strays);
          await writeLedger(bed.db, { ...(await added(bed.db, l, second)), coverage: mid });
          for (const s of SUBS) await evaluateBatch(bed.db, s);
          await subsetOfReference("as the coverage grows");
          await seenLongAgo(bed.db);

          // Every history complete: the alerts are exactly the reference's.
          const all = Object.fromEntries(SUBS.map((s) => [s, COMPLETE]));
          await writeLedger(bed.db, { ...(await added(bed.db, l, l)), coverage: all });
          await writeCoverage(bed.db, all);
          for (const s of SUBS) await evaluateBatch(bed.db, s);
          for (const v of versions) expect(await alertKeys(bed.db, v.id), v.spec.kind).toEqual(reference.get(v.id));
          expect(Object.values(await notEvaluableCounts(bed.db, versions))).toEqual(versions.map(() => 0));
          // Nothing more to judge: the batches raise nothing again.
          for (const s of SUBS) expect(await evaluateBatch(bed.db, s)).toBe(0);
        },
      ),
      { numRuns: engine.engine === "pglite" ? 25 : 15, seed: 45_001 },
    );
    // The partial ledgers made rules wait that need history, or the property proves little.
    for (const kind of ["first_deposit", "dormant_active", "rolling", "pass_through", "large_deposit"])
      expect(waited.get(kind) ?? 0, `${kind} waited in some run`).toBeGreaterThan(0);
  }, 900_000);

  it("[monitoring][coverage] what waited is judged when the coverage grows, though the sync brought nothing new", async () => {
    const D = 24 * HOUR;
    const T = T0 + 200 * D;
    await clearMonitoring(bed.db);
    await writeLedger(bed.db, {
      deposits: [
        { orderId: "w1", subUid: "201", coin: "USDT", amount: "50000", status: "success", fromAddress: "", ctime: T },
      ],
      withdrawals: [],
      prices: [],
      coverage: { "201": { from: T - 10 * D, to: T + HOUR } },
    });
    await seenLongAgo(bed.db);
    const first = await activeVersion(bed.db, { kind: "first_deposit", params: { unit: "usdt", minAmount: "10000" } });
    const pass = await activeVersion(bed.db, { kind: "pass_through", params: { pct: 90, windowHours: 48 } });
    const keys = async () => [...(await alertKeys(bed.db, first.id)), ...(await alertKeys(bed.db, pass.id))];
    // Active during the first sync: the history is not complete, so the first deposit is not judged yet.
    expect(await evaluateHistory(bed.db, first.id)).toBe(0);
    expect(await evaluateBatch(bed.db, "201")).toBe(0);
    expect(await notEvaluableCounts(bed.db, [first])).toEqual({ [first.id]: 1 });
    expect(await coverageDue(bed.db)).toEqual([]);

    // The backfill's last, empty windows: the history is complete, no record came. The sweep finds it due.
    await writeCoverage(bed.db, { "201": { from: 0, to: T + HOUR } });
    expect(await coverageDue(bed.db)).toEqual(["201"]);
    expect(await evaluateBatch(bed.db, "201")).toBe(1);
    expect(await keys()).toEqual(["201|d:w1"]);
    const { rows } = await bed.db.query<{ coverage: unknown }>(`SELECT coverage FROM monitoring_alerts`);
    expect(rows[0]!.coverage).toEqual({ needs: "history", from: 0, to: T + HOUR });
    expect(await notEvaluableCounts(bed.db, [first])).toEqual({ [first.id]: 0 });
    expect(await coverageDue(bed.db)).toEqual([]);

    // A request made after the last check: what came in before it is not known yet, so pass-through waits...
    const [request] = (
      await bed.db.query<{ id: string }>(
        `INSERT INTO withdrawal_requests (client_oid, sub_uid, coin, dest, address, amount, reason, requested_by,
           requested_at) VALUES ('cov1', '201', 'USDT', 'on_chain', 'out1', '50000', 'test', 'broker@test',
           timestamptz 'epoch' + $1 * interval '1 millisecond') RETURNING id::text`,
        [T + 2 * HOUR],
      )
    ).rows;
    expect(await evaluateScope(bed.db, { subUid: "201", since: T + 2 * HOUR }, "withdrawals", [pass])).toBe(0);
    // ...until a check passes it (still no new deposit): the sweep finds it due, the batch raises.
    await writeCoverage(bed.db, { "201": { from: 0, to: T + 3 * HOUR } });
    expect(await coverageDue(bed.db)).toEqual(["201"]);
    expect(await evaluateBatch(bed.db, "201")).toBe(1);
    expect(await keys()).toEqual(["201|d:w1", `201|w:${request!.id}`]);
  }, 120_000);
});
