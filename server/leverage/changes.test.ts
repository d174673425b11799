// A single leverage change against the simulator over loopback (a real signed client, a sub-account's own key) and
// a real database (PGlite, and PostgreSQL with TEST_DATABASE_URL): the record holds the platform's answer, never
// the request, and nothing on a failure; the policy's refusal sends nothing; a change for a second lead waits,
// is never approved by its requester or without a fresh factor, and is sent once when another lead approves it.
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { leverageChangeInputSchema, type LeverageChangeRequest } from "@/lib/api/leverage";
import type { StaffSession } from "@/server/auth/session";
import { databaseTestBed, testEngines } from "@/server/db/testing";
import { PlatformClient } from "@/server/platform/client";
import { CredentialStore } from "@/server/platform/credentials";
import { addStaff, deskUid, domainRefusal, simulatorTestBed, staffSession } from "@/server/testing";
import {
  approveLeverageChange,
  changeLeverage,
  countLeverageWaitingFor,
  listLeverageChanges,
  rejectLeverageChange,
  withdrawLeverageChange,
  type LeverageJudge,
} from "./changes";
import { leverageRecordRows } from "./record";

const fresh = (s: StaffSession): StaffSession => ({
  ...s,
  mfa: { state: "ok", at: Date.now(), method: "totp", enrolled: true, required: true },
});
const lead1 = staffSession("lead", "lead1");
const lead2 = staffSession("lead", "lead2");
const lead3 = staffSession("lead", "lead3");

const secondLead: LeverageJudge = async () => ({
  verdict: "second-lead",
  policyVersion: 3,
  rule: "BTC above 20",
  why: "BTCUSDT above 20x needs a second lead",
});
const refuse: LeverageJudge = async () => ({
  verdict: "refuse",
  policyVersion: 3,
  rule: "BTC at most 50",
  field: "leverage",
  message: "leverage must be at most 50 for BTCUSDT under the leverage policy",
});

describe.each(testEngines(process.env.TEST_DATABASE_URL))("[leverage][single change] on $engine", (engine) => {
  const sim = simulatorTestBed({ resetEachTest: true });
  const bed = databaseTestBed(engine);
  let client: PlatformClient;
  let desk01: string;
  let key: string;

  beforeAll(async () => {
    desk01 = deskUid(sim.sim, "desk01");
    key = `sub${desk01}`;
    const k = sim.sim.addSubaccountKey(desk01);
    client = new PlatformClient({
      baseUrl: sim.sim.baseUrl,
      credentials: new CredentialStore({ main: sim.sim.keys.brokerMain, [key]: k }),
      backoffBaseMs: 5,
    });
    await addStaff(bed.db, [lead1, lead2, lead3]);
  });
  beforeEach(async () => {
    await bed.db.query("DELETE FROM leverage_record");
    await bed.db.query("DELETE FROM leverage_changes");
  });

  const e10 = () => sim.sim.stats().operations["leverage.set"]?.requests ?? 0;
  const input = (over: Partial<LeverageChangeRequest> = {}) =>
    leverageChangeInputSchema.parse({
      key,
      symbol: "BTCUSDT",
      productType: "USDT-FUTURES",
      marginCoin: "USDT",
      leverage: "12",
      reason: "risk desk: BTC volatility",
      ...over,
    });
  const recordRows = async () => (await leverageRecordRows(bed.db)).items;

  it("[leverage][single change] a set writes the record from the platform's answer, with who, why and the intent", async () => {
    const out = await changeLeverage(bed.db, client, lead1, input());
    expect(out.state).toBe("set");
    expect(e10()).toBe(1);
    const rows = await recordRows();
    expect(rows).toHaveLength(1);
    const r = rows[0]!;
    // What the platform holds for desk01 now (the simulator's state): the answer's three values, of which the
    // request named one (crossed margin sets the cross leverage; the sides are the platform's own).
    const onPlatform = sim.sim.state.leverageOf(desk01, "USDT-FUTURES", "BTCUSDT");
    expect([r.longLeverage, r.shortLeverage, r.crossLeverage]).toEqual([
      String(onPlatform.long),
      String(onPlatform.short),
      String(onPlatform.cross),
    ]);
    expect(r).toMatchObject({
      account: key,
      subUid: desk01,
      symbol: "BTCUSDT",
      marginCoin: out.state === "set" ? out.data.marginCoin : "",
      marginMode: out.state === "set" ? out.data.marginMode : "",
      crossLeverage: out.state === "set" ? out.data.crossMarginLeverage : "",
      requested: "12",
      setBy: lead1.email,
      reason: "risk desk: BTC volatility",
    });
    expect(r.intentId).toMatch(/^\d+$/);
    const { rows: intent } = await bed.db.query<{ action: string; outcome: string; target: string }>(
      "SELECT action, outcome, target FROM audit_log WHERE id = $1",
      [Number(r.intentId)],
    );
    expect(intent[0]).toEqual({ action: "leverage.set", outcome: "intent", target: `platform-key:${key}` });
  });

  it("[leverage][single change] the platform's refusal (40020) writes nothing to the record", async () => {
    const e = await changeLeverage(bed.db, client, lead1, input({ symbol: "ZZZUSDT" })).then(
      () => null,
      (err: unknown) => err as { code?: string },
    );
    expect(e).not.toBeNull();
    expect(e10()).toBe(1);
    expect(await recordRows()).toEqual([]);
  });

  it("[leverage][policy] refuse: 400 on its field, nothing sent, nothing written", async () => {
    const e = await domainRefusal(changeLeverage(bed.db, client, lead1, input({ leverage: "75" }), {}, refuse));
    expect(e.code).toBe("leverage_refused");
    expect(e.status).toBe(400);
    expect(e.fieldErrors).toEqual({ leverage: ["leverage must be at most 50 for BTCUSDT under the leverage policy"] });
    expect(e10()).toBe(0);
    expect(await recordRows()).toEqual([]);
    expect((await listLeverageChanges(bed.db)).items).toEqual([]);
  });

  it("[leverage][policy] second lead: waits; not its requester, not without a fresh factor; sent once on approval", async () => {
    const out = await changeLeverage(bed.db, client, lead1, input({ leverage: "30" }), {}, secondLead);
    expect(out.state).toBe("waiting");
    if (out.state !== "waiting") return;
    expect(out.change).toMatchObject({
      state: "waiting",
      requestedBy: lead1.email,
      leverage: "30",
      why: expect.any(String),
    });
    expect(e10()).toBe(0);
    expect(await recordRows()).toEqual([]);
    expect(await countLeverageWaitingFor(bed.db, lead1.email)).toBe(0);
    expect(await countLeverageWaitingFor(bed.db, lead2.email)).toBe(1);

    const own = await domainRefusal(approveLeverageChange(bed.db, client, fresh(lead1), out.change.id));
    expect(own.code).toBe("own_request");
    const stale = await domainRefusal(approveLeverageChange(bed.db, client, lead2, out.change.id));
    expect(stale.code).toBe("mfa_stale");
    const old = { ...fresh(lead2), mfa: { ...fresh(lead2).mfa!, at: Date.now() - 3_600_000 } };
    expect((await domainRefusal(approveLeverageChange(bed.db, client, old, out.change.id))).code).toBe("mfa_stale");
    // An account an admin created a moment ago is on approver hold: it may not approve either.
    await bed.db.query(
      "UPDATE staff_users SET approver_hold = 'created-by-admin', approver_hold_at = now() WHERE email = $1",
      [lead3.email],
    );
    const held = await domainRefusal(approveLeverageChange(bed.db, client, fresh(lead3), out.change.id));
    expect(held.code).toBe("approver_on_hold");
    await bed.db.query("UPDATE staff_users SET approver_hold = NULL WHERE email = $1", [lead3.email]);
    expect(e10()).toBe(0);

    const approved = await approveLeverageChange(bed.db, client, fresh(lead2), out.change.id);
    expect(approved).toMatchObject({ state: "sent", decidedBy: lead2.email });
    expect(e10()).toBe(1);
    const rows = await recordRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ account: key, requested: "30", setBy: lead2.email });
    expect(rows[0]!.reason).toContain(lead1.email);
    // A second approval is told it was decided; nothing more is sent.
    const again = await domainRefusal(approveLeverageChange(bed.db, client, fresh(lead3), out.change.id));
    expect(again.code).toBe("already_decided");
    expect(e10()).toBe(1);
  });

  it("[leverage][policy] a change that waited is judged again at its approval: a stricter policy since refuses it", async () => {
    const out = await changeLeverage(bed.db, client, lead1, input({ leverage: "30" }), {}, secondLead);
    if (out.state !== "waiting") throw new Error("expected a waiting change");
    await bed.db.query(
      `INSERT INTO leverage_policies (version, state, rules, drafted_by, published_by, published_at)
       VALUES (902, 'published', $1, 'pol-a@x', 'pol-b@x', now())`,
      [JSON.stringify([{ name: "all", productType: "*", symbol: "*", maxLeverage: 20 }])],
    );
    try {
      const e = await domainRefusal(approveLeverageChange(bed.db, client, fresh(lead2), out.change.id));
      expect([e.code, Object.keys(e.fieldErrors ?? {})]).toEqual(["leverage_refused", ["leverage"]]);
      expect(e10()).toBe(0);
      expect((await listLeverageChanges(bed.db)).items[0]).toMatchObject({ state: "waiting" });
    } finally {
      await bed.db.query("DELETE FROM leverage_policies WHERE version = 902");
    }
  });

  it("[leverage][policy] the requester withdraws, another lead rejects: nothing sent", async () => {
    const a = await changeLeverage(bed.db, client, lead1, input({ leverage: "30" }), {}, secondLead);
    const b = await changeLeverage(bed.db, client, lead1, input({ leverage: "31" }), {}, secondLead);
    if (a.state !== "waiting" || b.state !== "waiting") throw new Error("expected waiting changes");
    expect((await domainRefusal(withdrawLeverageChange(bed.db, lead2, a.change.id))).code).toBe("forbidden");
    expect((await withdrawLeverageChange(bed.db, lead1, a.change.id)).state).toBe("withdrawn");
    expect((await domainRefusal(rejectLeverageChange(bed.db, lead1, b.change.id, "no"))).code).toBe("own_request");
    expect(await rejectLeverageChange(bed.db, lead2, b.change.id, "not in this market")).toMatchObject({
      state: "rejected",
      rejectReason: "not in this market",
    });
    expect((await domainRefusal(approveLeverageChange(bed.db, client, fresh(lead2), a.change.id))).code).toBe(
      "already_decided",
    );
    expect((await domainRefusal(approveLeverageChange(bed.db, client, fresh(lead2), "not-an-id"))).code).toBe(
      "not_found",
    );
    expect(e10()).toBe(0);
    expect(await recordRows()).toEqual([]);
  });
});
