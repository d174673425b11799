// The order of the deposit backfill on the job engine (pg-boss) against the simulator over loopback, on
// PGlite and (with TEST_DATABASE_URL) on PostgreSQL: with N sub-accounts and a slow platform, no sub-account
// walks a window further back before every other has walked the one before it (the newest window of all
// first); a sub-account staff ask for overtakes the queue, its whole history complete while others still
// wait for their first check; and due checks take at most their share of the runs while backfill steps wait.
import { beforeAll, describe, expect, it } from "vitest";
import { databaseTestBed, testEngines } from "@/server/db/testing";
import type { Db } from "@/server/db";
import type { PlatformClient } from "@/server/platform/client";
import type { Simulator } from "@/server/simulator";
import { registerFromSimulator } from "@/server/testing";
import { syncBudget } from "../budget";
import { DEPOSITS_JOB } from "./sync";
import { CHECKS_WHILE_BACKFILLING, dueRuns } from "./backfill-order";
import { freeBudget as free, ledgerTestBed, runEngineUntil } from "../testing";

const bed = ledgerTestBed();
let sim: Simulator;
let client: PlatformClient;
beforeAll(() => void ({ sim, client } = bed));
const HOUR = 3_600_000;

async function backfilled(db: Db, uids: readonly string[]): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM ledger_sync WHERE job = $1 AND backfill_done AND sub_uid = ANY($2)",
    [DEPOSITS_JOB, uids],
  );
  return rows[0]!.n;
}

describe.each(testEngines(process.env.TEST_DATABASE_URL))("[ledger][backfill-order] on $engine", (engine) => {
  describe("the newest window of every sub-account first", () => {
    const t = databaseTestBed(engine);
    it("[ledger][backfill-order] with N sub-accounts and a slow platform, none walks an older window before every other has walked the newer one", async () => {
      const db = t.db;
      const chosen = sim.state.subaccountsOf(sim.keys.brokerMain.uid).slice(0, 12);
      const uids = chosen.map((s) => s.uid);
      await registerFromSimulator(db, chosen);
      const violations: string[] = [];
      let older = 0;
      // Before each call of a window further back than the newest part: the sub-account's depth against every other's.
      const watched = new Proxy(client, {
        get(target, prop, receiver) {
          if (prop !== "call") return Reflect.get(target, prop, receiver);
          return async (...args: Parameters<PlatformClient["call"]>) => {
            const input = args[1] as { userId?: string; endTime?: string };
            if (args[0] === "deposits.list" && Number(input.endTime) < Date.now() - HOUR) {
              const { rows } = await db.query<{ done: boolean; depth: number }>(
                "SELECT backfill_done AS done, backfill_windows AS depth FROM ledger_sync WHERE job = $1 AND sub_uid = $2",
                [DEPOSITS_JOB, input.userId],
              );
              const own = rows[0];
              if (own && !own.done) {
                older++;
                const { rows: behind } = await db.query<{ sub_uid: string }>(
                  `SELECT r.sub_uid FROM subaccounts r LEFT JOIN ledger_sync s ON s.job = $1 AND s.sub_uid = r.sub_uid
                    WHERE r.sub_uid = ANY($2) AND NOT COALESCE(s.backfill_done, false)
                      AND (s.covered_to IS NULL OR s.backfill_windows < $3)`,
                  [DEPOSITS_JOB, uids, own.depth],
                );
                if (behind.length)
                  violations.push(`${input.userId} walked window ${own.depth + 1} while ${behind.length} were behind`);
              }
            }
            return target.call(...args);
          };
        },
      });
      sim.faults.set([{ path: "deposits.list", kind: "latency", latencyMs: 40 }]);
      try {
        await runEngineUntil(
          t,
          { client: watched, share: 1, sweepSeconds: 1, activeSeconds: 60, budget: free },
          async () => {
            const n = await backfilled(db, uids);
            return n === uids.length || `only ${n} of ${uids.length} backfilled`;
          },
          { withinMs: 80_000 },
        );
      } finally {
        sim.faults.clear();
      }
      expect(older).toBeGreaterThan(uids.length);
      expect(violations).toEqual([]);
    }, 90_000);
  });

  describe("a sub-account staff ask for", () => {
    const t = databaseTestBed(engine);
    it("[ledger][backfill-order] overtakes the queue: its whole history is complete while others still wait for their first check", async () => {
      const db = t.db;
      const chosen = sim.state.subaccountsOf(sim.keys.brokerMain.uid).slice(0, 30);
      const uids = chosen.map((s) => s.uid);
      // Asked for: the one the queue (by UID) reaches last.
      const target = [...uids].sort().at(-1)!;
      await registerFromSimulator(db, chosen);
      // A slow budget, three calls a second and never beyond (the real one, as staff are calling).
      const budget = syncBudget("deposits.list", 0.3, { redis: false, workConserving: false });
      let asked = false;
      let uncoveredWhenDone = -1;
      await runEngineUntil(
        t,
        { client, share: 0.3, sweepSeconds: 1, activeSeconds: 60, budget },
        async (_schema, engines) => {
          const { rows } = await db.query<{ covered: number; done: boolean }>(
            `SELECT (SELECT count(*)::int FROM ledger_sync WHERE job = $1 AND covered_to IS NOT NULL AND sub_uid = ANY($2)) AS covered,
                    COALESCE((SELECT backfill_done FROM ledger_sync WHERE job = $1 AND sub_uid = $3), false) AS done`,
            [DEPOSITS_JOB, uids, target],
          );
          const { covered, done } = rows[0]!;
          if (!asked && covered >= 1) {
            asked = true;
            await engines[0]!.prioritize(target);
          }
          if (asked && done) {
            uncoveredWhenDone = uids.length - covered;
            return true;
          }
          return `${covered} covered; asked: ${asked}`;
        },
        { withinMs: 60_000 },
      );
      // Its history took about four calls; the queue's first pass needs thirty.
      expect(uncoveredWhenDone).toBeGreaterThanOrEqual(10);
    }, 90_000);
  });

  describe("checks while the backfill waits", () => {
    const t = databaseTestBed(engine);
    it("[ledger][backfill-order] due checks take at most their share of the runs while steps wait, most overdue first; with none waiting, every run", async () => {
      const db = t.db;
      const chosen = sim.state.subaccountsOf(sim.keys.brokerMain.uid).slice(0, 40);
      await registerFromSimulator(db, chosen);
      const stepping = chosen.slice(0, 20).map((s) => s.uid);
      const checking = chosen.slice(20).map((s) => s.uid);
      const now = Date.now();
      // Twenty at the backfill's frontier and not due; twenty whose history is complete and whose check is due,
      // the k-th overdue by 40 − k minutes.
      await db.query(
        `INSERT INTO ledger_sync (job, sub_uid, covered_from, covered_to, backfill_windows, backfill_done, backfill_before,
           next_check_at)
         SELECT $1, u, $3::bigint, $4::bigint, 1, false, $3::bigint, now() + interval '1 hour' FROM unnest($2::text[]) AS u`,
        [DEPOSITS_JOB, stepping, now - 89 * 86_400_000, now],
      );
      await db.query(
        `INSERT INTO ledger_sync (job, sub_uid, covered_from, covered_to, backfill_done, next_check_at)
         SELECT $1, u, 0, $3::bigint, true, now() - make_interval(mins => 40 - k::int)
           FROM unnest($2::text[]) WITH ORDINALITY AS x(u, k)`,
        [DEPOSITS_JOB, checking, now],
      );
      // Due as well, at the frontier: stepped without a check (a check of it comes once it has stepped past).
      await db.query(
        "UPDATE ledger_sync SET next_check_at = now() - interval '1 hour' WHERE job = $1 AND sub_uid = $2",
        [DEPOSITS_JOB, stepping[0]],
      );
      const runs = await dueRuns(db, 20);
      const checks = runs.filter((r) => r.check).map((r) => r.subUid);
      expect(runs.filter((r) => r.mode === "none").map((r) => r.subUid)).toEqual(checks);
      expect(runs).toHaveLength(20);
      expect(checks.length).toBeGreaterThanOrEqual(1);
      expect(checks.length).toBeLessThanOrEqual(Math.ceil(20 * CHECKS_WHILE_BACKFILLING));
      expect(checks).toEqual(checking.slice(0, checks.length));
      const steps = runs.filter((r) => r.mode === "step");
      // Among sub-accounts at one depth, by UID.
      expect(steps.map((r) => r.subUid)).toEqual([...stepping].sort().slice(0, steps.length));
      expect(steps.every((r) => !r.check)).toBe(true);
      // No step waits: every run is a check.
      await db.query("UPDATE ledger_sync SET backfill_done = true WHERE job = $1 AND sub_uid = ANY($2)", [
        DEPOSITS_JOB,
        stepping,
      ]);
      const after = await dueRuns(db, 21);
      expect(after.map((r) => r.subUid)).toEqual([stepping[0], ...checking]);
      expect(after.every((r) => r.check && r.mode === "none")).toBe(true);
    });
  });
});
