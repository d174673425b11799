// kill -9 of an instance mid-approval: a child process (the app reduced to its lease and one approval) approves
// a withdrawal; the platform takes the order, and the process is killed with SIGKILL before its answer comes
// back. A new instance is started on the same database: it sees the old one gone and settles its call at once
// (the same clientOid, so the platform carries it out once), not after the five minutes a live but slow call is
// given; and the audit intents the old one opened get their outcome, "interrupted", linked to that reconcile.
// PGlite on a data folder always (its files must survive the kill too); PostgreSQL with TEST_DATABASE_URL.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  crashDatabase,
  crashEngines,
  startChildInstance,
  stopChild,
  until,
  type ChildInstance,
} from "@/server/child-instance";
import { withdrawalFormSchema } from "@/lib/api/withdrawals";
import { STALE_SUBMIT_MS } from "@/lib/withdrawal-states";
import { verifyAuditChain } from "@/server/audit";
import { startSimulator, type Simulator } from "@/server/simulator";
import {
  addToRegistry,
  deskUid,
  simulatorClient,
  staffSession,
  STEADY_BALANCES,
  TEST_TRAVEL_RULE,
} from "@/server/testing";
import type { CrashChildConfig, CrashChildProgress } from "./withdrawal-crash-child";
import { RECOVERY_ACTOR, type LeaseTimes } from "./instance-recovery";
import { requestWithdrawal } from "./withdrawal-requests";

// A lease the test could wait out is ten seconds; the new instance must not need to wait at all.
const TIMES: LeaseTimes = { ttlMs: 10_000, heartbeatMs: 500, claimMs: 30_000, orphanAfterMs: 30_000 };
// Far below STALE_SUBMIT_MS: what "settled within seconds" is held to (a bound on the wait, not a measurement).
const SETTLED_WITHIN_MS = 30_000;

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ ...STEADY_BALANCES, port: 0 });
}, 60_000);
afterAll(async () => {
  await sim?.close();
});

const CHILD = path.join(process.cwd(), "server/workflows/withdrawal-crash-child.ts");
type Instance = ChildInstance<CrashChildProgress>;
const startInstance = (cfg: CrashChildConfig) => startChildInstance<CrashChildProgress>(CHILD, cfg, 90_000);
const stop = stopChild;

const engines = crashEngines(process.env.TEST_DATABASE_URL);

describe.each(engines)("[withdrawals][crash] kill -9 mid-approval on $label", (engine) => {
  const { config, withDb } = crashDatabase(engine, "bd-wcrash-");

  it("[withdrawals][crash] after a SIGKILL mid-call and a restart, the withdrawal is settled at once, once, and its audit intents are closed", async () => {
    const desk = deskUid(sim, "desk03");
    sim.state.setBalance(desk, "USDT", "500");
    const broker = staffSession("broker", "broker");
    const lead = staffSession("lead", "lead1");
    const client = simulatorClient(sim);
    const w = await withDb(async (db) => {
      await addToRegistry(db, desk, "desk03@x");
      for (const s of [broker, lead]) {
        const { rows } = await db.query<{ id: string }>(
          "INSERT INTO staff_users (email, name, role) VALUES ($1, $2, $3) RETURNING id",
          [s.email, s.name, s.role],
        );
        s.userId = rows[0]!.id;
      }
      const form = withdrawalFormSchema.parse({
        subUid: desk,
        coin: "USDT",
        dest: "on_chain",
        address: "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE",
        amount: "40",
        reason: "client payout",
        travelRule: TEST_TRAVEL_RULE,
      });
      return requestWithdrawal(db, client, broker, form);
    });
    const onPlatform = () => sim.state.withdrawals().filter((r) => r.clientOid === w.clientOid);
    const base = { baseUrl: sim.baseUrl, key: sim.keys.brokerMain, db: config(), times: TIMES, withdrawalId: w.id };

    // 1. The approval's call reaches the platform, which carries it out; its answer takes 8 s to come back,
    //    and the instance is killed before it does.
    sim.faults.set({ path: "withdrawals.submit", kind: "latency", latencyMs: 16_000, count: 1 });
    let instance: Instance | null = await startInstance({ ...base, approveAs: lead });
    try {
      const first = instance;
      await until("the platform carrying out the order", 60_000, () => onPlatform().length === 1, first.last);
      await until("the instance recording its claim", 10_000, () => first.last()?.state === "submitted", first.last);
      await stop(first.child, "SIGKILL");
      expect(first.child.signalCode).toBe("SIGKILL");
      expect(first.last()).toMatchObject({ state: "submitted", approveAnswered: false });
      expect(first.last()!.openIntents).toBeGreaterThanOrEqual(2);
      sim.faults.clear();

      // 2. A new instance on the same database settles it, far within the time a live call is given.
      expect(SETTLED_WITHIN_MS * 10).toBeLessThanOrEqual(STALE_SUBMIT_MS);
      instance = await startInstance(base);
      const second = instance;
      await until(
        "the withdrawal settled and every intent closed",
        SETTLED_WITHIN_MS,
        () => second.last()?.state === "confirmed" && second.last()?.openIntents === 0,
        second.last,
      );
      await stop(second.child, "SIGKILL");
      instance = null;
    } finally {
      if (instance) await stop(instance.child, "SIGKILL");
    }

    // Once on the platform: one record, one debit, and the ledger names its order.
    expect(onPlatform()).toHaveLength(1);
    expect(sim.state.balancesOf(desk).get("USDT")!.available.toString()).toBe("460");
    await withDb(async (db) => {
      const row = (
        await db.query<{ state: string; platform_order_id: string; held_by: string | null }>(
          "SELECT state, platform_order_id, held_by FROM withdrawal_requests WHERE id = $1",
          [w.id],
        )
      ).rows[0]!;
      expect(row).toEqual({ state: "confirmed", platform_order_id: onPlatform()[0]!.orderId, held_by: null });

      // Every intent has exactly one outcome; the killed instance's are "interrupted", linked to the reconcile.
      const audit = (
        await db.query<{
          id: number;
          actor: string;
          action: string;
          outcome: string;
          intent_id: number | null;
          detail: unknown;
        }>(
          "SELECT id::int, actor, action, outcome, intent_id::int, detail FROM audit_log WHERE target = $1 ORDER BY id",
          [`withdrawal:${w.id}`],
        )
      ).rows;
      const intents = audit.filter((a) => a.outcome === "intent");
      const outcomesOf = (id: number) => audit.filter((a) => a.intent_id === id);
      expect(intents.map((i) => [i.action, outcomesOf(i.id).length])).toEqual([
        ["withdrawals.approve", 1],
        ["withdrawals.submit", 1],
        ["withdrawals.reconcile", 1],
        ["withdrawals.submit", 1],
      ]);
      const [approve, firstSubmit, reconcile, resubmit] = intents as [
        (typeof audit)[0],
        (typeof audit)[0],
        (typeof audit)[0],
        (typeof audit)[0],
      ];
      expect(reconcile.actor).toBe(RECOVERY_ACTOR);
      expect(outcomesOf(reconcile.id)[0]).toMatchObject({ outcome: "success" });
      expect(outcomesOf(resubmit.id)[0]).toMatchObject({ outcome: "success" });
      for (const interrupted of [approve, firstSubmit]) {
        expect(outcomesOf(interrupted.id)[0]).toMatchObject({
          actor: lead.email,
          outcome: "interrupted",
          detail: { settledBy: { reconcileIntentId: reconcile.id, state: "confirmed" } },
        });
      }
      expect((await db.query("SELECT * FROM audit_open_intents")).rows).toEqual([]);
      expect(await verifyAuditChain(db)).toMatchObject({ ok: true });
    });
  }, 300_000);
});
