// kill -9 of an instance mid-rollout: a child process (the app reduced to the rollout's jobs) sends a plan; the
// platform answers the first targets and holds the next ones, and the process is killed with SIGKILL while they are
// in flight. A new instance on the same database resumes the plan: the held targets (their calls reached the
// platform) are never sent again but reported unknown, their intents closed as interrupted, and every other target
// is sent once. The audit intents equal the calls the platform counted.
// PGlite on a data folder always (its files must survive the kill too); PostgreSQL with TEST_DATABASE_URL.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPlanSchema } from "@/lib/api/leverage-plans";
import { verifyAuditChain } from "@/server/audit";
import {
  crashDatabase,
  crashEngines,
  startChildInstance,
  stopChild,
  until,
  type ChildInstance,
} from "@/server/child-instance";
import { CredentialStore } from "@/server/platform/credentials";
import { startSimulator, type Simulator } from "@/server/simulator";
import { addStaff, staffSession } from "@/server/testing";
import type { PlanCrashConfig, PlanCrashProgress } from "./crash-child";
import { createPlan, startPlan } from "./plans";
import { e10Calls, planBed, type PlanBed } from "./testing";

const CHILD = path.join(process.cwd(), "server/leverage/plans/crash-child.ts");
const N = 20;
const ANSWERED = 6;
const CONCURRENCY = 3;

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ port: 0, subaccounts: 40 });
}, 60_000);
afterAll(async () => {
  await sim?.close();
});

type Instance = ChildInstance<PlanCrashProgress>;
const start = (cfg: PlanCrashConfig) => startChildInstance<PlanCrashProgress>(CHILD, cfg, 90_000);

describe.each(crashEngines(process.env.TEST_DATABASE_URL))(
  "[leverage][plans][crash] kill -9 mid-rollout on $label",
  (engine) => {
    const { config, withDb } = crashDatabase(engine, "bd-lcrash-");

    it("[leverage][plans][crash] after a SIGKILL mid-rollout and a restart, the plan ends with each target sent at most once and an intent for every call", async () => {
      const lead = staffSession("lead", "lead1");
      let bed!: PlanBed;
      const plan = await withDb(async (db) => {
        bed = await planBed(sim, db, N);
        await addStaff(db, [lead]);
        // The plan's order is the UIDs' (all of one length): the first ANSWERED at 10, the others at 11.
        const ordered = [...bed.keyed].sort();
        const csv = ["uid,symbol,leverage", ...ordered.map((u, i) => `${u},BTCUSDT,${i < ANSWERED ? 10 : 11}`)].join(
          "\n",
        );
        const input = createPlanSchema.parse({ productType: "USDT-FUTURES", source: "csv", csv, reason: "risk event" });
        const p = await createPlan(db, new CredentialStore(bed.keys), lead, input);
        return startPlan(db, lead, p.id, async () => undefined);
      });
      sim.resetStats();
      // The platform holds every call at 11 for a minute: the workers are all busy with those when the kill lands.
      sim.faults.set({ path: "leverage.set", kind: "latency", latencyMs: 60_000, query: { leverage: "11" } });
      const base = {
        baseUrl: sim.baseUrl,
        key: sim.keys.brokerMain,
        db: config(),
        keys: bed.keys,
        planId: plan.id,
        schema: "pgboss_lcrash",
        concurrency: CONCURRENCY,
      };
      let instance: Instance | null = await start(base);
      try {
        const first = instance;
        await until(
          "the first targets answered and the next ones held in flight",
          60_000,
          () => first.last()?.counts.done === ANSWERED && e10Calls(sim) === ANSWERED + CONCURRENCY,
          () => ({ child: first.last(), calls: e10Calls(sim) }),
        );
        await until("the claims in flight", 10_000, () => first.last()?.counts.sending === CONCURRENCY, first.last);
        await stop(first);
        expect(first.child.signalCode).toBe("SIGKILL");
        expect(e10Calls(sim)).toBe(ANSWERED + CONCURRENCY);
        sim.faults.clear();

        instance = await start(base);
        const second = instance;
        await until("the plan done", 60_000, () => second.last()?.state === "done", second.last);
        await stop(second);
        instance = null;
      } finally {
        if (instance) await stop(instance);
      }

      expect(e10Calls(sim)).toBe(N);
      await withDb(async (db) => {
        const targets = await db.query<{ sub_uid: string; state: string; sends: number; intent_id: string }>(
          "SELECT sub_uid, state, sends, intent_id::text FROM leverage_plan_targets WHERE plan_id = $1 ORDER BY ord",
          [plan.id],
        );
        expect(targets.rows.every((t) => t.sends === 1)).toBe(true);
        const states = targets.rows.map((t) => t.state);
        expect(states.filter((s) => s === "unknown")).toHaveLength(CONCURRENCY);
        expect(states.filter((s) => s === "done")).toHaveLength(N - CONCURRENCY);
        // Every call the platform counted has its intent, and every intent its one outcome.
        const audit = await db.query<{ id: string; outcome: string; intent_id: string | null }>(
          "SELECT id::text, outcome, intent_id::text FROM audit_log WHERE action = 'leverage.set' ORDER BY id",
        );
        const intents = audit.rows.filter((a) => a.outcome === "intent");
        expect(intents).toHaveLength(e10Calls(sim));
        const outcomes = audit.rows.filter((a) => a.outcome !== "intent");
        expect(intents.map((i) => outcomes.filter((o) => o.intent_id === i.id).length)).toEqual(intents.map(() => 1));
        expect(outcomes.filter((o) => o.outcome === "interrupted")).toHaveLength(CONCURRENCY);
        expect((await db.query("SELECT * FROM audit_open_intents")).rows).toEqual([]);
        const recorded = await db.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM leverage_record WHERE plan_id = $1",
          [plan.id],
        );
        expect(recorded.rows[0]!.n).toBe(N - CONCURRENCY);
        expect(await verifyAuditChain(db)).toMatchObject({ ok: true });
      });
    }, 300_000);
  },
);

const stop = (i: Instance) => stopChild(i.child, "SIGKILL");
