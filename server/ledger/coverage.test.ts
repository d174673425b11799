// The ledger's coverage against the simulator over loopback, on PGlite and (with TEST_DATABASE_URL) on
// PostgreSQL: the span the ledger claims complete for a sub-account holds exactly the simulator's records of
// that span, by ID, after every run, whole or cut short by 5xx, resets and 429s; and coverageOf counts, for a
// range, the sub-accounts it holds completely and names the others with how far back each one is.
import { beforeAll, describe, expect, it } from "vitest";
import { databaseTestBed, testEngines } from "@/server/db/testing";
import type { Db } from "@/server/db";
import type { PlatformClient } from "@/server/platform/client";
import type { Simulator } from "@/server/simulator";
import { deskUid, registerFromSimulator } from "@/server/testing";
import { coverageText } from "@/lib/api/ledger/coverage";
import { backfillProgress } from "./deposits/backfill-order";
import { coverageOf, subaccountCoverage } from "./coverage";
import { syncSubaccountDeposits, WINDOW_MS, type SyncDeps } from "./deposits/sync";
import { coverageMismatches, freeBudget as free, ledgerTestBed } from "./testing";

const bed = ledgerTestBed();
let sim: Simulator;
let client: PlatformClient;
beforeAll(() => void ({ sim, client } = bed));
const DAY = 86_400_000;

describe.each(testEngines(process.env.TEST_DATABASE_URL))("[ledger][coverage] on $engine", (engine) => {
  const t = databaseTestBed(engine);
  let db: Db;
  beforeAll(() => void ({ db } = t));
  const platform = (uid: string) => sim.state.depositsOf(uid);
  const run = (uid: string, backfill: SyncDeps["backfill"] = "step") =>
    syncSubaccountDeposits(uid, { db, client, budget: free, backfill });

  it("[ledger][coverage] what the ledger claims complete equals the simulator's records of that span, by ID, after every run under faults", async () => {
    const uids = ["desk04", "desk05", "desk06"].map((n) => deskUid(sim, n));
    sim.faults.set([
      { path: "deposits.list", kind: "status", status: 503, probability: 0.35 },
      { path: "deposits.list", kind: "reset", probability: 0.35 },
      { path: "deposits.list", kind: "rate-limit", probability: 0.35 },
    ]);
    let failures = 0;
    try {
      for (let round = 0; round < 12; round++) {
        for (const uid of uids) {
          await run(uid, round % 3 === 0 ? "none" : "step").catch(() => failures++);
          expect(await coverageMismatches(db, platform)).toEqual([]);
        }
      }
    } finally {
      sim.faults.clear();
    }
    expect(failures).toBeGreaterThan(0);
    for (const uid of uids) await run(uid, "all");
    expect(await coverageMismatches(db, platform)).toEqual([]);
    for (const uid of uids) {
      const c = await subaccountCoverage(db, "deposits", uid);
      // Registry rows are not needed for the span itself; the history's start was found.
      expect(c === null || c.historyComplete).toBe(true);
    }
  });

  it("[ledger][coverage] a range names the sub-accounts it does not cover and how far back each one is complete", async () => {
    const subs = sim.state.subaccountsOf(sim.keys.brokerMain.uid).filter((s) => /^desk0[789]@/.test(s.subaccountName));
    await registerFromSimulator(db, subs);
    const [a, b, c] = subs.map((s) => s.uid) as [string, string, string];
    const now = Date.now();
    // a: its whole history; b: the newest window only; c: never checked.
    await run(a, "all");
    await run(b, "none");
    const uids = [a, b, c];
    const lastMonth = await coverageOf(db, { dataset: "deposits", from: now - 30 * DAY, uids });
    expect({ total: lastMonth.total, complete: lastMonth.complete }).toEqual({ total: 3, complete: 2 });
    expect(lastMonth.missing.map((m) => m.subUid)).toEqual([c]);
    expect(lastMonth.missing[0]!.completeTo).toBeNull();
    const older = await coverageOf(db, { dataset: "deposits", from: now - 2 * WINDOW_MS, uids });
    expect(older.complete).toBe(1);
    expect(older.missing.map((m) => m.subUid).sort()).toEqual([b, c].sort());
    const bOf = older.missing.find((m) => m.subUid === b)!;
    expect(bOf.historyComplete).toBe(false);
    expect(Date.parse(bOf.completeFrom!)).toBeLessThanOrEqual(now - WINDOW_MS + 60_000);
    expect(coverageText(older)).toBe(
      `Complete for 1 of 3 sub-accounts over this range; 2 not synced back to ${new Date(now - 2 * WINDOW_MS).toISOString().slice(0, 10)} UTC`,
    );
    // The whole history: only a's backfill found its start.
    const all = await coverageOf(db, { dataset: "deposits", uids });
    expect(all.complete).toBe(1);
    expect((await subaccountCoverage(db, "deposits", a))!.historyComplete).toBe(true);
    // What /sync's estimate counts: two of three with their last three months, one with its whole history,
    // and calls still needed for the rest (c's newest window; b's and c's older ones).
    const p = await backfillProgress(db, Date.now(), WINDOW_MS);
    expect(p).toMatchObject({ registry: 3, recentComplete: 2, historyComplete: 1 });
    expect(p.recentCallsLeft).toBeGreaterThanOrEqual(1);
    expect(p.historyCallsLeft).toBeGreaterThanOrEqual(3);
  });
});
