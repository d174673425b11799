import "server-only";
// Separation of duties, as a matrix over a real database: every monitoring decision (activate, retire in two
// steps, clear a hold, close a case alone or in bulk, snooze in two steps for a holding rule, reject a held
// withdrawal) and every policy decision (publish, discard), tried by its author or requester, by an account on
// hold (new, factors reset, promoted by an admin: promoted through the real role change), by one person alone
// where two are needed, and without a fresh second factor (the route's check, from the entries). Each refusal
// has its own code and changes nothing; each decision done right succeeds.
import { beforeAll, describe, expect, it } from "vitest";
import { monitoringResources as m } from "@/lib/api/monitoring";
import { monitoringBulkResources as b } from "@/lib/api/monitoring/bulk";
import { monitoringControlResources as c } from "@/lib/api/monitoring/controls";
import { policyResources as p } from "@/lib/api/policy";
import { needsFreshFactor, type Resource } from "@/lib/api/define-resource";
import { env } from "@/lib/env";
import { requireFreshFactor } from "@/server/auth/mfa/policy";
import { updateUser } from "@/server/auth/users";
import { databaseTestBed, testEngines } from "@/server/db/testing";
import { discardPolicy, draftPolicy, getPolicy, publishPolicy } from "@/server/policy/versions";
import { addStaff, domainRefusal, staffSession } from "@/server/testing";
import { bulkClose } from "./bulk";
import { clearHold, closeCase, getCase, rejectHeldWithdrawal } from "./case";
import { holdsOn, refuseHeld } from "./hold";
import { evaluateBatch, evaluateHistory } from "./jobs";
import {
  activateRuleVersion,
  draftRule,
  getRuleVersion,
  proposeRetirement,
  retireRuleVersion,
  withdrawRetirement,
} from "./rule";
import { approveSnooze, listSnoozeRequests, snoozeRule } from "./snooze";
import { activeVersion, clearMonitoring, writeLedger } from "./testing";

const T = Date.UTC(2026, 2, 10, 12);
const [alice, bob] = [staffSession("compliance", "sod-alice"), staffSession("compliance", "sod-bob")];
const [adam, ada] = [staffSession("admin", "sod-adam"), staffSession("admin", "sod-ada")];
// On hold: made by an admin, factors reset by an admin, promoted by an admin (the role change itself).
const newC = staffSession("compliance", "sod-new");
const resetC = staffSession("compliance", "sod-reset");
const promotedC = staffSession("broker", "sod-promoted-c");
const newA = staffSession("admin", "sod-new-admin");
const resetA = staffSession("admin", "sod-reset-admin");
const promotedA = staffSession("lead", "sod-promoted-admin");
const HELD_COMPLIANCE = { new: newC, reset: resetC, promoted: promotedC };
const HELD_ADMINS = { new: newA, reset: resetA, promoted: promotedA };

const engine = testEngines(process.env.TEST_DATABASE_URL).at(-1)!;

describe(`[security][separation-of-duties] monitoring and policy decisions (${engine.engine})`, () => {
  const bed = databaseTestBed(engine);
  const q = <R extends Record<string, unknown>>(sql: string, params: unknown[] = []) =>
    bed.db.query<R>(sql, params).then((r) => r.rows);

  beforeAll(async () => {
    await addStaff(bed.db, [alice, bob, adam, ada, newC, resetC, promotedC, newA, resetA, promotedA]);
    const hold = (s: typeof newC, reason: string) =>
      q(`UPDATE staff_users SET approver_hold = $2, approver_hold_at = now(), approver_hold_by = $3 WHERE id = $1`, [
        s.userId,
        reason,
        adam.email,
      ]);
    await hold(newC, "created-by-admin");
    await hold(newA, "created-by-admin");
    await hold(resetC, "factors-reset-by-admin");
    await hold(resetA, "factors-reset-by-admin");
    // Promotion through the workflow the admin page uses: into compliance, and into admin.
    const toCompliance = await updateUser(bed.db, promotedC.userId, { role: "compliance" }, { actor: adam.email });
    const toAdmin = await updateUser(bed.db, promotedA.userId, { role: "admin" }, { actor: adam.email });
    promotedC.role = "compliance";
    promotedA.role = "admin";
    expect(toCompliance.approverHold?.reason).toBe("promoted-by-admin");
    expect(toAdmin.approverHold?.reason).toBe("promoted-by-admin");
  });

  /** A sub-account with a deposit of `amount` USDT and a waiting withdrawal request; answers the request's ID. */
  async function ledgerOf(sub: string, amount = "50000"): Promise<string> {
    const wid = crypto.randomUUID();
    await writeLedger(bed.db, {
      deposits: [
        { orderId: `d${sub}`, subUid: sub, coin: "USDT", amount, status: "success", fromAddress: "", ctime: T },
      ],
      withdrawals: [{ id: wid, subUid: sub, coin: "USDT", amount: "10", address: "out", state: "requested", ms: T }],
      prices: [],
    });
    return wid;
  }
  /** An active holding rule (large USDT deposit) evaluated over `subs`: each has a case holding its withdrawals. */
  async function heldCases(subs: string[]): Promise<{ versionId: string; ruleId: string; cases: string[] }> {
    await clearMonitoring(bed.db);
    for (const s of subs) await ledgerOf(s);
    const v = await activeVersion(
      bed.db,
      { kind: "large_deposit", params: { unit: "coin", coin: "USDT", minAmount: "10000" } },
      { holds: true },
    );
    await evaluateHistory(bed.db, v.id);
    const cases = await Promise.all(subs.map(async (s) => (await holdsOn(bed.db, s))[0]!.caseId!));
    return { versionId: v.id, ruleId: v.ruleId, cases };
  }
  const heldEach = async (
    held: Record<string, typeof newC>,
    decide: (s: typeof newC) => Promise<unknown>,
  ): Promise<void> => {
    for (const [why, s] of Object.entries(held)) {
      const e = await domainRefusal(decide(s));
      expect([why, e.code]).toEqual([why, "approver_on_hold"]);
      expect(e.message).toMatch(/^Separation of duties: this account /);
    }
  };

  it("activation: not by its author, not on hold; done right it is active", async () => {
    await clearMonitoring(bed.db);
    const v = await draftRule(bed.db, alice, {
      name: "big USDT",
      severity: "high",
      holds: true,
      kind: "large_deposit",
      params: { unit: "coin", coin: "USDT", minAmount: "10000" },
    });
    expect((await domainRefusal(activateRuleVersion(bed.db, alice, v.id))).code).toBe("own_request");
    await heldEach(HELD_ADMINS, (s) => activateRuleVersion(bed.db, s, v.id));
    await heldEach(HELD_COMPLIANCE, async (s) => activateRuleVersion(bed.db, s, v.id));
    expect((await getRuleVersion(bed.db, v.id)).state).toBe("draft");
    // The demo's way: compliance drafts, an admin in good standing activates.
    expect(await activateRuleVersion(bed.db, adam, v.id)).toMatchObject({ state: "active", activatedBy: adam.email });
  });

  it("activation of a weaker version: said and confirmed; not of a draft older than the version it weakens; not drafted from an account on hold", async () => {
    await clearMonitoring(bed.db);
    const base = { name: "big USDT", severity: "high", kind: "large_deposit" } as const;
    const params = (minAmount: string) => ({ unit: "coin", coin: "USDT", minAmount });
    const v1 = await draftRule(bed.db, alice, { ...base, holds: true, params: params("10000") });
    await activateRuleVersion(bed.db, bob, v1.id);

    // Weaker on two counts: no longer holds, and a higher minimum.
    const weak = await draftRule(bed.db, alice, { ...base, holds: false, params: params("50000") });
    expect(weak.weakens).toEqual(["no longer holds withdrawals", "minAmount 10000 → 50000"]);
    const unconfirmed = await domainRefusal(activateRuleVersion(bed.db, bob, weak.id));
    expect(unconfirmed.code).toBe("confirmation_mismatch");
    expect(unconfirmed.message).toContain("weakens the active one (v1): no longer holds withdrawals; minAmount");
    expect((await getRuleVersion(bed.db, v1.id)).state).toBe("active");

    // A tighter version is activated meanwhile: the weak draft was never asked against it.
    const tight = await draftRule(bed.db, bob, { ...base, holds: true, params: params("5000") });
    expect(tight.weakens).toEqual([]);
    await activateRuleVersion(bed.db, alice, tight.id);
    const stale = await domainRefusal(activateRuleVersion(bed.db, bob, weak.id, { confirmWeakening: true }));
    expect(stale.code).toBe("two_person_rule");
    expect(stale.message).toMatch(/drafted before v3 was activated/);

    // Drafted from an account on hold, the draft is no first person.
    const fromHeld = await draftRule(bed.db, newC, { ...base, holds: true, params: params("9000") });
    const e = await domainRefusal(activateRuleVersion(bed.db, bob, fromHeld.id, { confirmWeakening: true }));
    expect([e.code, e.message]).toEqual([
      "two_person_rule",
      expect.stringContaining(`author's account (${newC.email})`),
    ]);
    expect((await getRuleVersion(bed.db, tight.id)).state).toBe("active");

    // Done right: drafted against the active version, confirmed by a second person in good standing.
    const again = await draftRule(bed.db, alice, { ...base, holds: false, params: params("50000") });
    expect(await activateRuleVersion(bed.db, bob, again.id, { confirmWeakening: true })).toMatchObject({
      state: "active",
    });
    expect((await getRuleVersion(bed.db, tight.id)).state).toBe("retired");
  });

  it("retirement: proposed by one, confirmed by another; meanwhile the rule still raises and holds", async () => {
    const { versionId, ruleId } = await heldCases(["61"]);
    // One person alone: a confirmation nobody proposed.
    const alone = await domainRefusal(retireRuleVersion(bed.db, bob, versionId));
    expect(alone.code).toBe("two_person_rule");
    await heldEach(HELD_COMPLIANCE, async (s) =>
      proposeRetirement(bed.db, s, versionId, { reason: "no longer needed" }),
    );
    // A proposal withdrawn leaves nothing to confirm.
    await proposeRetirement(bed.db, alice, versionId, { reason: "not sure" });
    expect((await withdrawRetirement(bed.db, bob, versionId)).retireRequestedBy).toBeNull();
    expect((await domainRefusal(retireRuleVersion(bed.db, bob, versionId))).code).toBe("two_person_rule");
    await proposeRetirement(bed.db, bob, versionId, { reason: "no longer needed" });
    expect((await domainRefusal(proposeRetirement(bed.db, alice, versionId, { reason: "me too" }))).code).toBe(
      "already_decided",
    );
    // Its proposer may not confirm it; an account on hold may not either.
    expect((await domainRefusal(retireRuleVersion(bed.db, bob, versionId))).code).toBe("own_request");
    await heldEach(HELD_COMPLIANCE, async (s) => retireRuleVersion(bed.db, s, versionId));
    await heldEach(HELD_ADMINS, (s) => retireRuleVersion(bed.db, s, versionId));
    // Proposed, not confirmed: still active; a 30,000 USDT deposit raises a holding alert, the approval waits.
    expect(await getRuleVersion(bed.db, versionId)).toMatchObject({ state: "active", retireRequestedBy: bob.email });
    await writeLedger(bed.db, {
      deposits: [
        { orderId: "late", subUid: "62", coin: "USDT", amount: "30000", status: "success", fromAddress: "", ctime: T },
      ],
      withdrawals: [],
      prices: [],
    });
    expect(await evaluateBatch(bed.db, "62")).toBe(1);
    expect((await domainRefusal(refuseHeld(bed.db, "62"))).code).toBe("withdrawal_held");
    // The database backs the rule too: no retirement by its own proposer, whatever the workflow does.
    await expect(
      q(`UPDATE monitoring_rule_versions SET state = 'retired', retired_by = $2 WHERE id = $1`, [versionId, bob.email]),
    ).rejects.toThrow(/retire_second_person/);
    expect(await retireRuleVersion(bed.db, adam, versionId)).toMatchObject({ state: "retired" });
    void ruleId;
  });

  it("clearing a hold, closing a case (one or in bulk), rejecting a held request: refused on hold, done in good standing", async () => {
    const { cases } = await heldCases(["71", "72", "73", "74"]);
    const [clearCase, closeOne, bulkOne, rejectCase] = cases as [string, string, string, string];
    const wid = (await q<{ id: string }>(`SELECT id::text FROM withdrawal_requests WHERE sub_uid = '74'`))[0]!.id;
    // Each decision names the case as its reviewer saw it (its version).
    const seen = async (id: string) => ({ version: (await getCase(bed.db, id)).version });
    const close = { outcome: "false_positive", reason: "known desk" } as const;
    await heldEach(HELD_COMPLIANCE, async (s) =>
      clearHold(bed.db, s, clearCase, { reason: "documented", ...(await seen(clearCase)) }),
    );
    await heldEach(HELD_COMPLIANCE, async (s) =>
      closeCase(bed.db, s, closeOne, { ...close, ...(await seen(closeOne)) }),
    );
    await heldEach(HELD_COMPLIANCE, async (s) =>
      bulkClose(bed.db, s, {}, { cases: [{ caseId: bulkOne, ...(await seen(bulkOne)) }], ...close }),
    );
    await heldEach(HELD_COMPLIANCE, async (s) =>
      rejectHeldWithdrawal(bed.db, s, rejectCase, { withdrawalId: wid, reason: "no", ...(await seen(rejectCase)) }),
    );
    // Nothing changed: every case still holds, no case-close audit entry was written.
    for (const id of cases) expect((await getCase(bed.db, id)).holding).toBe(true);
    expect(await q(`SELECT 1 FROM audit_log WHERE action = 'monitoring.case-close'`)).toEqual([]);
    expect((await q<{ state: string }>(`SELECT state FROM withdrawal_requests WHERE id = $1`, [wid]))[0]!.state).toBe(
      "requested",
    );

    expect(
      (await clearHold(bed.db, alice, clearCase, { reason: "documented", ...(await seen(clearCase)) })).holding,
    ).toBe(false);
    expect((await closeCase(bed.db, alice, closeOne, { ...close, ...(await seen(closeOne)) })).status).toBe("closed");
    expect(
      (await bulkClose(bed.db, alice, {}, { cases: [{ caseId: bulkOne, ...(await seen(bulkOne)) }], ...close }))
        .results,
    ).toEqual([{ caseId: bulkOne, ok: true }]);
    await rejectHeldWithdrawal(bed.db, alice, rejectCase, {
      withdrawalId: wid,
      reason: "funds passed through",
      ...(await seen(rejectCase)),
    });
    expect((await q<{ state: string }>(`SELECT state FROM withdrawal_requests WHERE id = $1`, [wid]))[0]!.state).toBe(
      "rejected",
    );
  });

  it("snoozing a holding rule: a request silences nothing until another person approves it; a rule that does not hold is one person's", async () => {
    const { versionId, ruleId } = await heldCases(["81"]);
    const until = new Date(Date.now() + 86_400_000).toISOString();
    await heldEach(HELD_COMPLIANCE, async (s) =>
      snoozeRule(bed.db, s, { ruleId, subUid: "82", until, reason: "known" }),
    );
    const asked = await snoozeRule(bed.db, alice, { ruleId, subUid: "82", until, reason: "known desk" });
    expect(asked.state).toBe("requested");
    expect((await listSnoozeRequests(bed.db)).items.map((r) => [r.subUid, r.requestedBy])).toEqual([
      ["82", alice.email],
    ]);
    // One person alone: the request silenced nothing; its requester may not approve it, nor an account on hold.
    await ledgerOf("82");
    expect(await evaluateBatch(bed.db, "82")).toBe(1);
    expect((await domainRefusal(approveSnooze(bed.db, alice, asked.id))).code).toBe("own_request");
    await heldEach(HELD_COMPLIANCE, async (s) => approveSnooze(bed.db, s, asked.id));
    await heldEach(HELD_ADMINS, (s) => approveSnooze(bed.db, s, asked.id));
    expect(await q(`SELECT 1 FROM monitoring_snoozes`)).toEqual([]);
    // Approved by a second person: from then on it silences the rule for that sub-account.
    expect(await approveSnooze(bed.db, bob, asked.id)).toMatchObject({ state: "approved", decidedBy: bob.email });
    expect((await domainRefusal(approveSnooze(bed.db, adam, asked.id))).code).toBe("already_decided");
    await writeLedger(bed.db, {
      deposits: [
        {
          orderId: "z82",
          subUid: "82",
          coin: "USDT",
          amount: "40000",
          status: "success",
          fromAddress: "",
          ctime: T + 1,
        },
      ],
      withdrawals: [],
      prices: [],
    });
    expect(await evaluateBatch(bed.db, "82")).toBe(0);

    // A rule that does not hold: one person's snooze silences it at once.
    const quiet = await activeVersion(bed.db, { kind: "new_destination", params: { lookbackDays: 30 } });
    const now = await snoozeRule(bed.db, alice, { ruleId: quiet.ruleId, subUid: "82", until, reason: "known" });
    expect(now.state).toBe("active");
    // When that rule starts to hold, the one-person snooze ends; the approved one of the holding rule stays.
    const holding = await draftRule(bed.db, alice, {
      name: (await getRuleVersion(bed.db, quiet.id)).name,
      severity: "medium",
      holds: true,
      kind: "new_destination",
      params: { lookbackDays: 30 },
    });
    await activateRuleVersion(bed.db, bob, holding.id);
    const open = await q<{ rule_id: string }>(`SELECT rule_id::text FROM monitoring_snoozes WHERE until > now()`);
    expect(open.map((r) => r.rule_id)).toEqual([ruleId]);
    void versionId;
  });

  it("policy: publish not by its author nor on hold; discard not on hold; both done right in good standing", async () => {
    const v = await draftPolicy(bed.db, adam, { rules: [], note: "sod" });
    expect((await domainRefusal(publishPolicy(bed.db, adam, v.version))).code).toBe("own_request");
    await heldEach(HELD_ADMINS, (s) => publishPolicy(bed.db, s, v.version));
    await heldEach(HELD_ADMINS, (s) => discardPolicy(bed.db, s, v.version));
    expect((await getPolicy(bed.db, v.version)).state).toBe("draft");
    expect((await publishPolicy(bed.db, ada, v.version)).state).toBe("published");
    const v2 = await draftPolicy(bed.db, ada, { rules: [] });
    expect((await discardPolicy(bed.db, adam, v2.version)).state).toBe("discarded");
  });

  it("promotion into admin, or from compliance to admin, starts the approver hold; a demotion does not", async () => {
    const lead = staffSession("lead", "sod-lead-to-admin");
    const comp = staffSession("compliance", "sod-comp-to-admin");
    const broker = staffSession("lead", "sod-lead-to-broker");
    await addStaff(bed.db, [lead, comp, broker]);
    expect((await updateUser(bed.db, comp.userId, { role: "admin" }, { actor: ada.email })).approverHold).toMatchObject(
      { reason: "promoted-by-admin", by: ada.email },
    );
    expect((await updateUser(bed.db, broker.userId, { role: "broker" }, { actor: ada.email })).approverHold).toBeNull();
    const promoted = await updateUser(bed.db, lead.userId, { role: "admin" }, { actor: ada.email });
    expect(promoted.approverHold?.reason).toBe("promoted-by-admin");
  });
});

describe("[security][separation-of-duties] every decision's route asks a fresh second factor", () => {
  const DECISIONS: [string, Resource][] = [
    ["activate", m.activate],
    ["propose retirement", c.proposeRetirement],
    ["confirm retirement", m.retire],
    ["clear hold", m.clearHold],
    ["close case", m.closeCase],
    ["close cases in bulk", b.close],
    ["reject held withdrawal", m.rejectWithdrawal],
    ["snooze", c.snooze],
    ["approve snooze", c.approveSnooze],
    ["publish policy", p.publish],
    ["discard policy", p.discard],
  ];
  it.each(DECISIONS)("%s: freshFactor, and its refusals declared", (_name, entry) => {
    expect(needsFreshFactor(entry, {})).toBe(true);
    expect(entry.errors).toEqual(expect.arrayContaining(["mfa_stale", "approver_on_hold"]));
  });
  it("the wrapper's check refuses a factor verified too long ago with mfa_stale, and lets a fresh one through", () => {
    const now = Date.now();
    const session = (at: number) => ({
      mfa: { state: "ok" as const, at, method: "totp" as const, enrolled: true, required: true },
    });
    let code: string | null = null;
    try {
      requireFreshFactor(session(now - env.mfa.freshMs - 1_000), env.mfa.freshMs, now);
    } catch (e) {
      code = (e as { code: string }).code;
    }
    expect(code).toBe("mfa_stale");
    expect(() => requireFreshFactor(session(now - 1_000), env.mfa.freshMs, now)).not.toThrow();
  });
});
