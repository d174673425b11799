import "server-only";
// Property: for random ledgers and random parameters of every kind, the alerts the compiled queries raise
// are exactly the plain TypeScript reference's (server/monitoring/testing.ts), for one sub-account's recent
// records (a sync batch) and then for the whole history; evaluating again raises nothing.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DRAFTABLE_KINDS } from "@/lib/api/monitoring/rule-kinds";
import { databaseTestBed, testEngines } from "@/server/db/testing";
import { evaluateScope, type EvaluableVersion } from "./evaluate";
import { activeVersion, alertKeys, clearMonitoring, referenceKeys, writeLedger } from "./testing";
import { ledger, SUBS, specs, time } from "./testing-arbitraries";

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
    // Every kind compliance may draft (the system kinds screen against lists: their own tests).
    expect(fired.size).toBe(DRAFTABLE_KINDS.length);
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
