// Leverage plans against the simulator over loopback and a real database: the preview (what the record holds, the
// value asked, targets without a key apart), a rollout that records each answer with its plan, a 40xxx refusal
// reported on its target and a retry that sends only the failed ones, pause and resume, cancel, and a second lead.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createPlanSchema, type CreatePlanInput } from "@/lib/api/leverage-plans";
import type { Db } from "@/server/db";
import { databaseTestBed, testEngines } from "@/server/db/testing";
import { recordLeverageSet } from "@/server/leverage/record";
import type { PlatformClient } from "@/server/platform/client";
import { CredentialStore } from "@/server/platform/credentials";
import { startSimulator, type Simulator } from "@/server/simulator";
import { addStaff, domainRefusal, staffSession } from "@/server/testing";
import {
  approvePlan,
  cancelPlan,
  createPlan,
  getPlan,
  pausePlan,
  previewPlan,
  resumePlan,
  retryFailed,
  startPlan,
} from "./plans";
import { planTargets } from "./report";
import { runPlan } from "./rollout";
import { e10Calls, planBed, planClient, planIntents, type PlanBed } from "./testing";

const lead = staffSession("lead", "lead1");
const lead2 = staffSession("lead", "lead2");
const RUN = { concurrency: 4, instance: "test-instance", heartbeatMs: 50 };
const noKick = async () => undefined;
const until = async (what: string, test: () => Promise<boolean>, ms = 20_000) => {
  const end = Date.now() + ms;
  while (!(await test())) {
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe.each(testEngines(process.env.TEST_DATABASE_URL))("[leverage][plans] on $engine", (engine) => {
  const database = databaseTestBed(engine);
  let db: Db;
  let sim: Simulator;
  let bed: PlanBed;
  let client: PlatformClient;
  let credentials: CredentialStore;
  beforeAll(async () => {
    db = database.db;
    sim = await startSimulator({ port: 0, subaccounts: 40 });
    bed = await planBed(sim, db, 30);
    credentials = new CredentialStore(bed.keys);
    client = planClient(sim, bed.keys);
    await addStaff(db, [lead, lead2]);
  }, 60_000);
  afterAll(async () => {
    client?.close();
    await sim?.close();
  });
  beforeEach(() => {
    sim.faults.clear();
    sim.resetStats();
  });

  const input = (over: Partial<CreatePlanInput> & Record<string, unknown>): CreatePlanInput =>
    createPlanSchema.parse({ productType: "USDT-FUTURES", source: "list", reason: "risk event", ...over });
  const list = (uids: readonly string[], leverage = "10", symbol = "BTCUSDT") =>
    input({ uids: uids.join("\n"), leverage, symbol });
  const planCount = async () =>
    (await db.query<{ n: number }>("SELECT count(*)::int AS n FROM leverage_plans")).rows[0]!.n;

  it("[leverage][plans] the preview gives each target's recorded value, the value asked, and those without a key apart", async () => {
    const [a, b] = bed.keyed as [string, string];
    const noKey = bed.unkeyed[0]!;
    await recordLeverageSet(db, {
      account: `sub${a}`,
      productType: "USDT-FUTURES",
      requested: "50",
      answer: {
        symbol: "BTCUSDT",
        marginCoin: "USDT",
        longLeverage: "50",
        shortLeverage: "50",
        crossMarginLeverage: "50",
        marginMode: "crossed",
      },
      setBy: lead.email,
      setAt: new Date(),
    });
    const p = await previewPlan(db, credentials, "lead", list([noKey, b, a], "10"));
    expect(p).toMatchObject({ withKey: 2, withoutKey: 1, highest: "10" });
    expect(p.items.map((t) => [t.subUid, t.current, t.leverage, t.hasKey])).toEqual([
      ...[a, b]
        .sort((x, y) => x.length - y.length || x.localeCompare(y))
        .map((u) => [u, u === a ? "50" : null, "10", true]),
      [noKey, null, "10", false],
    ]);
    // A filter over the record: "every sub-account with a key whose BTCUSDT leverage is above 10".
    const f = await previewPlan(
      db,
      credentials,
      "lead",
      input({ source: "filter", symbol: "BTCUSDT", leverage: "10", above: "10", keyOnly: true }),
    );
    expect(f.items.map((t) => t.subUid)).toEqual([a]);
    // A lead's role only: a broker may use no sub-account key, so every target is without one.
    expect(
      (
        await previewPlan(
          db,
          new CredentialStore(bed.keys, Object.fromEntries(bed.keyed.map((u) => [`sub${u}`, ["admin"]]))),
          "lead",
          list([a]),
        )
      ).withKey,
    ).toBe(0);
    expect(e10Calls(sim)).toBe(0);
    expect(await planCount()).toBe(0);
  });

  it("[leverage][plans] a rollout sets every keyed target once, records each answer with its plan, and never sends a target without a key", async () => {
    const targets = bed.keyed.slice(0, 12);
    const plan = await createPlan(db, credentials, lead, list([...targets, bed.unkeyed[1]!], "7"));
    expect(plan).toMatchObject({ state: "ready", counts: { total: 13, pending: 12, noKey: 1 } });
    await startPlan(db, lead, plan.id, noKick);
    expect(await runPlan(db, client, plan.id, RUN)).toBe("done");
    const done = await getPlan(db, plan.id);
    expect(done).toMatchObject({ state: "done", counts: { done: 12, noKey: 1, pending: 0, sending: 0 } });
    for (const uid of targets) expect(sim.state.leverageOf(uid, "USDT-FUTURES", "BTCUSDT").cross).toBe(7);
    expect(e10Calls(sim)).toBe(12);
    expect(await planIntents(db, plan.id)).toBe(12);
    const rec = await db.query<{ sub_uid: string; cross_leverage: string; plan_id: string }>(
      "SELECT sub_uid, cross_leverage, plan_id::text FROM leverage_record WHERE plan_id = $1 ORDER BY sub_uid",
      [plan.id],
    );
    expect(rec.rows.map((r) => r.sub_uid).sort()).toEqual([...targets].sort());
    expect(new Set(rec.rows.map((r) => r.cross_leverage))).toEqual(new Set(["7"]));
    const report = await planTargets(db, plan.id, {});
    expect(report.items.filter((t) => t.state === "done").every((t) => t.code === "00000" && t.sends === 1)).toBe(true);
    // Run again: nothing more is sent.
    expect(await runPlan(db, client, plan.id, RUN)).toBe("not-running");
    expect(e10Calls(sim)).toBe(12);
  });

  it("[leverage][plans] a 40xxx refusal is reported on its target; the retry sends only the failed targets", async () => {
    const targets = bed.keyed.slice(12, 18);
    const bad = targets[2]!;
    // Isolated margin in hedge mode needs holdSide: the platform refuses the plan's call (40019).
    sim.state.setMode(bad, "USDT-FUTURES", "XRPUSDT", { marginMode: "isolated", positionMode: "hedge" });
    const plan = await createPlan(db, credentials, lead, list(targets, "5", "XRPUSDT"));
    await startPlan(db, lead, plan.id, noKick);
    expect(await runPlan(db, client, plan.id, RUN)).toBe("done");
    const failed = await planTargets(db, plan.id, { state: "failed" });
    expect(failed.items.map((t) => [t.subUid, t.code])).toEqual([[bad, "40019"]]);
    expect(failed.items[0]!.message).toMatch(/holdSide/);
    expect((await getPlan(db, plan.id)).counts).toMatchObject({ done: 5, failed: 1 });

    sim.state.setMode(bad, "USDT-FUTURES", "XRPUSDT", { marginMode: "crossed", positionMode: "one_way" });
    sim.resetStats();
    await retryFailed(db, plan.id, noKick);
    expect(await runPlan(db, client, plan.id, RUN)).toBe("done");
    expect(e10Calls(sim)).toBe(1);
    expect(sim.state.leverageOf(bad, "USDT-FUTURES", "XRPUSDT").cross).toBe(5);
    const after = await planTargets(db, plan.id, {});
    expect(after.items.map((t) => [t.subUid, t.state, t.sends])).toEqual(
      after.items.map((t) => [t.subUid, "done", t.subUid === bad ? 2 : 1]),
    );
    expect(after.items.map((t) => t.subUid).sort()).toEqual([...targets].sort());
    expect(await planIntents(db, plan.id)).toBe(7);
    // Nothing failed now: a retry is refused and sends nothing.
    expect((await domainRefusal(retryFailed(db, plan.id, noKick))).fieldErrors).toHaveProperty("id");
  });

  it("[leverage][plans] pause stops further sends, resume finishes the rest; cancel leaves the rest unsent", async () => {
    sim.faults.set({ path: "leverage.set", kind: "latency", latencyMs: 150 });
    const plan = await createPlan(db, credentials, lead, list(bed.keyed.slice(0, 24), "9", "DOGEUSDT"));
    await startPlan(db, lead, plan.id, noKick);
    const run = runPlan(db, client, plan.id, { ...RUN, concurrency: 2 });
    await until("four answers", async () => (await getPlan(db, plan.id)).counts.done >= 4);
    await pausePlan(db, plan.id);
    expect(await run).toBe("stopped");
    const paused = await getPlan(db, plan.id);
    expect(paused.state).toBe("paused");
    expect(paused.counts.sending).toBe(0);
    const sentAtPause = e10Calls(sim);
    expect(sentAtPause).toBe(paused.counts.done);
    expect(paused.counts.pending).toBe(24 - sentAtPause);
    expect(await runPlan(db, client, plan.id, RUN)).toBe("not-running");
    expect(e10Calls(sim)).toBe(sentAtPause);

    await resumePlan(db, plan.id, noKick);
    const resumed = runPlan(db, client, plan.id, { ...RUN, concurrency: 2 });
    await until("four more answers", async () => (await getPlan(db, plan.id)).counts.done >= sentAtPause + 4);
    await cancelPlan(db, plan.id);
    expect(await resumed).toBe("stopped");
    const cancelled = await getPlan(db, plan.id);
    expect(cancelled.state).toBe("cancelled");
    expect(cancelled.counts.done + cancelled.counts.cancelled).toBe(24);
    expect(e10Calls(sim)).toBe(cancelled.counts.done);
    expect(await planIntents(db, plan.id)).toBe(cancelled.counts.done);
    expect((await domainRefusal(resumePlan(db, plan.id, noKick))).code).toBe("already_decided");
  });

  it("[leverage][plans] a plan made before a stricter policy was published is judged again at its start and retry", async () => {
    const plan = await createPlan(db, credentials, lead, list(bed.keyed.slice(0, 2), "30"));
    expect(plan.state).toBe("ready");
    // Published after the plan was made: at most 20×, a second lead from 10×.
    await db.query(
      `INSERT INTO leverage_policies (version, state, rules, drafted_by, published_by, published_at)
       VALUES (901, 'published', $1, 'pol-a@x', 'pol-b@x', now())`,
      [JSON.stringify([{ name: "all", productType: "*", symbol: "*", maxLeverage: 20, secondLeadAt: 10 }])],
    );
    try {
      const refused = await domainRefusal(startPlan(db, lead, plan.id, noKick));
      expect([refused.code, Object.keys(refused.fieldErrors ?? {})]).toEqual(["leverage_refused", ["leverage"]]);
      // Within the maximum, but a second lead the plan never had: refused too, nothing sent.
      const lower = await createPlan(db, credentials, lead, list(bed.keyed.slice(0, 2), "15"));
      expect(lower.state).toBe("waiting");
      await db.query("UPDATE leverage_plans SET state = 'ready' WHERE id = $1", [lower.id]);
      expect((await domainRefusal(startPlan(db, lead, lower.id, noKick))).message).toMatch(/second lead/);
      expect((await getPlan(db, plan.id)).state).toBe("ready");
      expect(e10Calls(sim)).toBe(0);
    } finally {
      await db.query("DELETE FROM leverage_policies WHERE version = 901");
    }
  });

  it("[leverage][plans] a plan waiting for a second lead cannot start, nor be approved by its planner", async () => {
    const plan = await createPlan(db, credentials, lead, list(bed.keyed.slice(0, 2), "3"));
    // The policy's stub allows every plan; a verdict of "second-lead" leaves a plan in this state.
    await db.query("UPDATE leverage_plans SET state = 'waiting' WHERE id = $1", [plan.id]);
    expect((await domainRefusal(startPlan(db, lead, plan.id, noKick))).message).toMatch(/second lead/);
    expect((await domainRefusal(approvePlan(db, lead, plan.id))).code).toBe("own_request");
    const approved = await approvePlan(db, lead2, plan.id);
    expect(approved).toMatchObject({ state: "ready", approvedBy: lead2.email });
    expect((await domainRefusal(approvePlan(db, lead2, plan.id))).code).toBe("already_decided");
    expect(e10Calls(sim)).toBe(0);
  });
});
