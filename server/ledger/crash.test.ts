// kill -9 of an instance mid-backfill: a child process runs the ledger's sync (the pg-boss
// engine) against the simulator, which answers with 5xx, resets and 429s now and then; it is killed with
// SIGKILL while the backfill is under way, statuses change on the platform meanwhile, and a new instance
// is started on the same database. When it is done the ledger holds exactly the simulator's records, by
// ID (none lost, none twice), with their current statuses; and what the ledger claims complete (its coverage)
// is exact at the kill and after. PGlite on a data folder always (its files must
// survive the kill too); PostgreSQL with TEST_DATABASE_URL.
import path from "node:path";
import { afterAll, beforeAll, describe, it } from "vitest";
import {
  crashDatabase,
  crashEngines,
  startChildInstance,
  stopChild,
  until,
  type ChildInstance,
} from "@/server/child-instance";
import { startSimulator, type Simulator } from "@/server/simulator";
import { registerFromSimulator } from "@/server/testing";
import type { CrashChildConfig, CrashChildProgress } from "./crash-child";
import { DEPOSITS_JOB } from "./deposits/sync";
import { coverageMismatches } from "./testing";

const CHILD = path.join(process.cwd(), "server/ledger/crash-child.ts");

type Instance = ChildInstance<CrashChildProgress>;
const startInstance = (cfg: CrashChildConfig) => startChildInstance<CrashChildProgress>(CHILD, cfg, 90_000);
const stop = stopChild;

const engines = crashEngines(process.env.TEST_DATABASE_URL);

// The engines side by side, each with a simulator of its own (its own rate limits): the test mostly waits on the
// simulator's limits and on its child, so the two took 72 s one after the other at the end of CI's Vitest run.
describe.concurrent.each(engines)("[ledger][crash] kill -9 mid-backfill on $label", (engine) => {
  const { config, withDb } = crashDatabase(engine, "bd-crash-");
  let sim: Simulator;
  beforeAll(async () => {
    // Limits on, as the platform's; a little latency so that the kill lands inside the backfill.
    sim = await startSimulator({ port: 0, scale: 0.2, rateLimits: "on" });
    sim.faults.set([
      { path: "deposits.list", kind: "latency", latencyMs: 20 },
      { path: "deposits.list", kind: "status", status: 503, probability: 0.04 },
      { path: "deposits.list", kind: "reset", probability: 0.03 },
      { path: "deposits.list", kind: "rate-limit", probability: 0.03 },
    ]);
  }, 60_000);
  afterAll(async () => {
    await sim?.close();
  });

  it("[ledger][crash] after a SIGKILL mid-backfill and a restart, the ledger holds exactly the simulator's records, by ID, with current statuses", async ({
    expect,
  }) => {
    const subs = sim.state.subaccountsOf(sim.keys.brokerMain.uid).slice(0, 6);
    const uids = subs.map((s) => s.uid);
    const cfg: CrashChildConfig = { baseUrl: sim.baseUrl, key: sim.keys.brokerMain, db: config(), schema: "pgboss" };
    await withDb((db) => registerFromSimulator(db, subs));
    let instance: Instance | null = null;
    try {
      // 1. The backfill under way (some records stored), then SIGKILL: no graceful stop, jobs left active.
      instance = await startInstance(cfg);
      const first = instance;
      // Records stored and a first walk ended (its span claimed): the kill then cuts other walks short.
      const under = () => (first.last()?.stored ?? 0) >= 150 && (first.last()?.covered ?? 0) > 0;
      await until("records arriving", 60_000, under, first.last);
      await stop(first.child, "SIGKILL");
      expect(first.child.signalCode).toBe("SIGKILL");
      const atKill = await withDb(
        async (db) =>
          (
            await db.query<{ done: number; stored: number }>(
              "SELECT (SELECT count(*)::int FROM ledger_sync WHERE job = $1 AND backfill_done) AS done, (SELECT count(*)::int FROM ledger_deposits) AS stored",
              [DEPOSITS_JOB],
            )
          ).rows[0]!,
      );
      expect(atKill.done).toBeLessThan(uids.length);
      expect(atKill.stored).toBeGreaterThan(0);
      // What the ledger claims complete at the kill is exactly the platform's records of those spans, by ID:
      // a walk the kill cut short claimed nothing.
      const platform = (u: string) => sim.state.depositsOf(u);
      const covered = await withDb(async (db) => ({
        wrong: await coverageMismatches(db, platform),
        spans: (
          await db.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM ledger_sync WHERE job = $1 AND covered_to IS NOT NULL",
            [DEPOSITS_JOB],
          )
        ).rows[0]!.n,
      }));
      expect(covered.wrong).toEqual([]);
      expect(covered.spans).toBeGreaterThan(0);

      // 2. Meanwhile the platform moves on: recent deposits change status, and a new one arrives.
      const changed = uids.flatMap((u) =>
        sim.state
          .depositsOf(u)
          .filter((d) => d.cTime > Date.now() - 86_400_000)
          .slice(0, 2),
      );
      expect(changed.length).toBeGreaterThan(0);
      for (const d of changed) (d as { status: string }).status = d.status === "success" ? "fail" : "success";
      const t = Date.now() - 1_000;
      const template = sim.state.depositsOf(uids[0]!)[0]!;
      sim.state.addDeposit({
        ...template,
        id: t * 1000 + 9,
        orderId: String(t * 1000 + 9),
        txId: "0xcrashtest",
        cTime: t,
        uTime: t,
        status: "pending",
      });
      const changedAt = Date.now();

      // 3. A new instance on the same database: every sub-account backfilled and checked again since the change.
      instance = await startInstance(cfg);
      const second = instance;
      await until(
        "every sub-account backfilled and checked after the change",
        60_000,
        () => {
          const p = second.last();
          return (
            p !== null && p.done === uids.length && p.oldestSuccess !== null && p.oldestSuccess > changedAt + 1_000
          );
        },
        second.last,
      );
      await stop(second.child, "SIGTERM");
      instance = null;

      const rows = await withDb(
        async (db) =>
          (
            await db.query<{ order_id: string; sub_uid: string; status: string; n: number }>(
              "SELECT order_id, sub_uid, status, count(*) OVER (PARTITION BY order_id)::int AS n FROM ledger_deposits",
            )
          ).rows,
      );
      const expected = new Map(
        uids.flatMap((u) => sim.state.depositsOf(u).map((d) => [d.orderId, `${u}:${d.status}`] as const)),
      );
      expect(expected.size).toBeGreaterThan(atKill.stored);
      expect(rows.filter((r) => r.n !== 1)).toEqual([]);
      expect(new Map(rows.map((r) => [r.order_id, `${r.sub_uid}:${r.status}`]))).toEqual(expected);
      expect(await withDb((db) => coverageMismatches(db, (u) => sim.state.depositsOf(u)))).toEqual([]);
    } finally {
      if (instance) await stop(instance.child, "SIGKILL");
    }
  }, 120_000);
});
