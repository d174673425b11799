// Releasing a sanctions list match takes two people, and nothing else releases it: a clear, a close and a bulk close
// are refused while the case holds an open match (the clear still clears the case's other holds); Brokerdesk's own
// rules are neither retired nor snoozed; a release is proposed by one person and confirmed by another in good
// standing (never the proposer, never unread), each decision's route asks a fresh factor, and every bad input is
// refused on its field with nothing written.
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { needsFreshFactor } from "@/lib/api/define-resource";
import {
  monitoringSanctionsResources as s,
  confirmReleaseSchema,
  proposeReleaseSchema,
} from "@/lib/api/monitoring/sanctions";
import { databaseTestBed, testEngines } from "@/server/db/testing";
import { listAddresses, restoreSanctionsRules } from "@/server/screening/testing-lists";
import { addStaff, domainRefusal, staffSession } from "@/server/testing";
import { bulkClose } from "./bulk";
import { clearHold, closeCase, getCase } from "./case";
import { evaluateScope } from "./evaluate";
import { proposeRetirement, retireRuleVersion } from "./rule";
import { confirmRelease, proposeRelease, withdrawRelease } from "./sanctions-release";
import { snoozeRule } from "./snooze";
import { SANCTIONS_RULES } from "./system-rules";
import { activeVersion, clearMonitoring, writeLedger } from "./testing";

const [alice, bob] = [staffSession("compliance", "rel-alice"), staffSession("compliance", "rel-bob")];
const ada = staffSession("admin", "rel-ada");
const held = staffSession("compliance", "rel-held");
const ADDRESS = "TLsV52sRDL79HXGGm9yzwKibb6BeruhUzy";
const engine = testEngines(process.env.TEST_DATABASE_URL).at(-1)!;

describe(`[monitoring][sanctions] a match released by two people only (${engine.engine})`, () => {
  const bed = databaseTestBed(engine);
  const q = <R extends Record<string, unknown>>(sql: string, params: unknown[] = []) =>
    bed.db.query<R>(sql, params).then((r) => r.rows);
  let sub = 500;
  let c: { caseId: string; alertId: string; otherId: string; subUid: string; wid: string };

  beforeAll(async () => {
    await addStaff(bed.db, [alice, bob, ada, held]);
    await q(
      `UPDATE staff_users SET approver_hold = 'created-by-admin', approver_hold_at = now(),
               approver_hold_by = $2 WHERE id = $1`,
      [held.userId, ada.email],
    );
  });

  /** A case holding a sanctions match (a waiting request to a listed address) and another rule's holding alert. */
  beforeEach(async () => {
    await clearMonitoring(bed.db);
    await restoreSanctionsRules(bed.db);
    const subUid = String(++sub);
    const wid = crypto.randomUUID();
    const T = Date.now() - 60_000;
    await writeLedger(bed.db, {
      deposits: [
        {
          orderId: `d${subUid}`,
          subUid,
          coin: "USDT",
          amount: "5000000",
          status: "success",
          fromAddress: "",
          ctime: T,
        },
      ],
      withdrawals: [{ id: wid, subUid, coin: "USDT", amount: "10", address: ADDRESS, state: "requested", ms: T + 1 }],
      prices: [],
    });
    await activeVersion(
      bed.db,
      { kind: "large_deposit", params: { unit: "coin", coin: "USDT", minAmount: "1000000" } },
      { holds: true, severity: "high" },
    );
    await listAddresses(bed.db, [ADDRESS]);
    await evaluateScope(bed.db, { subUid, since: null });
    const alerts = await q<{ id: string; rule_id: string; case_id: string }>(
      `SELECT id::text, rule_id::text, case_id::text FROM monitoring_alerts WHERE sub_uid = $1`,
      [subUid],
    );
    const match = alerts.find((a) => a.rule_id === SANCTIONS_RULES.withdrawal_destination.ruleId)!;
    const other = alerts.find((a) => a.rule_id !== SANCTIONS_RULES.withdrawal_destination.ruleId)!;
    c = { caseId: match.case_id, alertId: match.id, otherId: other.id, subUid, wid };
  });

  const alertRow = async (id: string) =>
    (
      await q<{
        status: string;
        cleared_by: string | null;
        clear_reason: string | null;
        release_requested_by: string | null;
      }>(`SELECT status, cleared_by, clear_reason, release_requested_by FROM monitoring_alerts WHERE id = $1::bigint`, [
        id,
      ])
    )[0]!;

  it("the case shows the match: the listed address and the lists", async () => {
    const view = await getCase(bed.db, c.caseId);
    expect(view.sanctions).toEqual([
      expect.objectContaining({
        alertId: c.alertId,
        status: "open",
        side: "withdrawal_destination",
        recordId: c.wid,
        address: ADDRESS,
        listed: [{ list: "test-list", versionId: expect.any(Number) }],
        releaseRequestedBy: null,
      }),
    ]);
  });

  it("a clear clears the other holds but never the match; a close and a bulk close are refused while it is open", async () => {
    const version = (await getCase(bed.db, c.caseId)).version;
    await clearHold(bed.db, alice, c.caseId, { reason: "the deposit is payroll", version });
    expect((await alertRow(c.otherId)).status).toBe("cleared");
    expect((await alertRow(c.alertId)).status).toBe("open");
    // Nothing else to clear: refused, saying how a match is released.
    const again = await domainRefusal(clearHold(bed.db, alice, c.caseId, { reason: "again", version }));
    expect(again.code).toBe("two_person_rule");
    expect(again.message).toMatch(/second person/);
    const close = await domainRefusal(
      closeCase(bed.db, alice, c.caseId, { outcome: "false_positive", reason: "not a match", version }),
    );
    expect(close.code).toBe("two_person_rule");
    const bulk = await bulkClose(
      bed.db,
      alice,
      {},
      { cases: [{ caseId: c.caseId, version }], outcome: "false_positive", reason: "not a match" },
    );
    expect(bulk.results).toEqual([expect.objectContaining({ caseId: c.caseId, ok: false, code: "two_person_rule" })]);
    expect((await getCase(bed.db, c.caseId)).status).not.toBe("closed");
    expect((await alertRow(c.alertId)).status).toBe("open");
  });

  it("Brokerdesk's own rules are neither retired (proposed or confirmed) nor snoozed", async () => {
    for (const r of Object.values(SANCTIONS_RULES)) {
      expect((await domainRefusal(proposeRetirement(bed.db, alice, r.versionId, { reason: "noisy" }))).code).toBe(
        "two_person_rule",
      );
      expect((await domainRefusal(retireRuleVersion(bed.db, ada, r.versionId))).code).toBe("two_person_rule");
      const snooze = await domainRefusal(
        snoozeRule(bed.db, alice, {
          ruleId: r.ruleId,
          subUid: c.subUid,
          until: new Date(Date.now() + 86_400_000).toISOString(),
          reason: "noisy",
        }),
      );
      expect(snooze.code).toBe("invalid_input");
      expect(snooze.fieldErrors).toHaveProperty("ruleId");
    }
    expect(await q(`SELECT 1 FROM monitoring_snooze_requests UNION ALL SELECT 1 FROM monitoring_snoozes`)).toEqual([]);
    expect(
      await q(`SELECT 1 FROM monitoring_rule_versions WHERE retire_requested_by IS NOT NULL OR state <> 'active'`),
    ).toEqual([]);
  });

  it("proposed by one, confirmed by another: cleared by the confirmer, the reason naming both; the proposer cannot confirm", async () => {
    const two = await domainRefusal(confirmRelease(bed.db, bob, c.caseId, c.alertId, { proposedBy: alice.email }));
    expect(two.code).toBe("two_person_rule");
    await proposeRelease(bed.db, alice, c.caseId, c.alertId, { reason: "another party's address" });
    expect((await domainRefusal(proposeRelease(bed.db, bob, c.caseId, c.alertId, { reason: "x" }))).code).toBe(
      "already_decided",
    );
    const own = await domainRefusal(confirmRelease(bed.db, alice, c.caseId, c.alertId, { proposedBy: alice.email }));
    expect(own.code).toBe("own_request");
    expect((await alertRow(c.alertId)).status).toBe("open");
    // An admin (monitoring.approve) is a second person too.
    await confirmRelease(bed.db, ada, c.caseId, c.alertId, { proposedBy: alice.email });
    const done = await alertRow(c.alertId);
    expect(done).toMatchObject({ status: "cleared", cleared_by: ada.email, release_requested_by: alice.email });
    expect(done.clear_reason).toContain(alice.email);
    expect(done.clear_reason).toContain(ada.email);
    expect(done.clear_reason).toContain("another party's address");
    expect(
      (await domainRefusal(confirmRelease(bed.db, bob, c.caseId, c.alertId, { proposedBy: alice.email }))).code,
    ).toBe("already_decided");
    // The database itself keeps the proposer from clearing it.
    await q(`UPDATE monitoring_alerts SET status = 'open', cleared_by = NULL WHERE id = $1::bigint`, [c.alertId]);
    await expect(
      q(`UPDATE monitoring_alerts SET status = 'cleared', cleared_by = $2, clear_reason = 'x' WHERE id = $1::bigint`, [
        c.alertId,
        alice.email.toUpperCase(),
      ]),
    ).rejects.toThrow(/release_second_person/);
  });

  it("a withdrawn proposal cannot be confirmed; one made again by another is confirmed only as read", async () => {
    await proposeRelease(bed.db, alice, c.caseId, c.alertId, { reason: "first look" });
    await withdrawRelease(bed.db, alice, c.caseId, c.alertId);
    expect((await alertRow(c.alertId)).release_requested_by).toBeNull();
    expect(
      (await domainRefusal(confirmRelease(bed.db, bob, c.caseId, c.alertId, { proposedBy: alice.email }))).code,
    ).toBe("two_person_rule");
    expect((await domainRefusal(withdrawRelease(bed.db, alice, c.caseId, c.alertId))).code).toBe("already_decided");
    await proposeRelease(bed.db, bob, c.caseId, c.alertId, { reason: "second look" });
    // Alice read Alice's proposal, not Bob's: refused on the field, nothing changed.
    const unread = await domainRefusal(confirmRelease(bed.db, ada, c.caseId, c.alertId, { proposedBy: alice.email }));
    expect(unread.code).toBe("invalid_input");
    expect(unread.fieldErrors).toHaveProperty("proposedBy");
    expect((await alertRow(c.alertId)).status).toBe("open");
    await confirmRelease(bed.db, alice, c.caseId, c.alertId, { proposedBy: bob.email });
    expect((await alertRow(c.alertId)).status).toBe("cleared");
  });

  it("a decider on approver hold is refused at every step; nothing changes", async () => {
    expect((await domainRefusal(proposeRelease(bed.db, held, c.caseId, c.alertId, { reason: "x" }))).code).toBe(
      "approver_on_hold",
    );
    await proposeRelease(bed.db, alice, c.caseId, c.alertId, { reason: "x" });
    expect(
      (await domainRefusal(confirmRelease(bed.db, held, c.caseId, c.alertId, { proposedBy: alice.email }))).code,
    ).toBe("approver_on_hold");
    expect((await domainRefusal(withdrawRelease(bed.db, held, c.caseId, c.alertId))).code).toBe("approver_on_hold");
    expect(await alertRow(c.alertId)).toMatchObject({ status: "open", release_requested_by: alice.email });
  });

  it("bad input on every route is refused naming its field, nothing written; an alert that is not the case's match is not found", async () => {
    const fields = (r: { error?: { issues: { path: PropertyKey[] }[] } }) => r.error?.issues.map((i) => i.path[0]);
    for (const bad of [{}, { reason: "" }, { reason: "   " }, { reason: "x".repeat(501) }, { reason: 5 }])
      expect(fields(proposeReleaseSchema.safeParse(bad))).toEqual(["reason"]);
    expect(proposeReleaseSchema.safeParse({ reason: "x".repeat(500) }).success).toBe(true);
    for (const bad of [{}, { proposedBy: "" }, { proposedBy: "alice" }, { proposedBy: 3 }])
      expect(fields(confirmReleaseSchema.safeParse(bad))).toEqual(["proposedBy"]);
    for (const alertId of ["abc", "1; drop", "-1", "1".repeat(30)]) {
      // Called one at a time: three started at once, a refusal of the second before the first is awaited would be
      // an unhandled rejection.
      for (const call of [
        () => proposeRelease(bed.db, alice, c.caseId, alertId, { reason: "x" }),
        () => confirmRelease(bed.db, bob, c.caseId, alertId, { proposedBy: alice.email }),
        () => withdrawRelease(bed.db, alice, c.caseId, alertId),
      ]) {
        const e = await domainRefusal(call());
        expect(e.code).toBe("invalid_input");
        expect(e.fieldErrors).toHaveProperty("alertId");
      }
    }
    // Another alert of the case (not a match), or the match under another case's ID: not found.
    expect((await domainRefusal(proposeRelease(bed.db, alice, c.caseId, c.otherId, { reason: "x" }))).code).toBe(
      "not_found",
    );
    expect(
      (await domainRefusal(proposeRelease(bed.db, alice, crypto.randomUUID(), c.alertId, { reason: "x" }))).code,
    ).toBe("not_found");
    expect(await alertRow(c.alertId)).toMatchObject({ status: "open", release_requested_by: null });
  });

  it("each step's route: propose and confirm ask a fresh factor; every refusal declared", () => {
    expect(needsFreshFactor(s.proposeRelease, { reason: "x" })).toBe(true);
    expect(needsFreshFactor(s.confirmRelease, { proposedBy: "a@b.c" })).toBe(true);
    expect(s.proposeRelease.errors).toEqual(expect.arrayContaining(["mfa_stale", "approver_on_hold"]));
    expect(s.confirmRelease.errors).toEqual(
      expect.arrayContaining(["mfa_stale", "approver_on_hold", "own_request", "two_person_rule"]),
    );
    expect(s.confirmRelease.permission).toBe("monitoring.approve");
    expect(s.proposeRelease.permission).toBe("monitoring.write");
    for (const r of Object.values(s)) expect(r.id.startsWith("monitoring.")).toBe(true);
  });
});
