import "server-only";
// Compliance's work kept from the people it watches: the holds a lead and a requester may see (no rule, no case;
// a broker only their own requests), the refusal of a held approval (no rule), a withdrawal compliance rejected
// (its reason withheld), and the audit log as a role without monitoring.read reads it (page and CSV export:
// that an entry exists, not what it says), while the stored chain still verifies.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { auditFiltersSchema } from "@/lib/api/audit";
import { HELD_BY_COMPLIANCE, REJECTED_BY_COMPLIANCE } from "@/lib/api/audit/confidential";
import type { CsvRow, CsvRows } from "@/lib/csv";
import { appendAudit, verifyAuditChain } from "@/server/audit";
import { databaseTestBed } from "@/server/db/testing";
import { addStaff, domainRefusal, staffSession } from "@/server/testing";
import { auditForExport, auditPage } from "@/server/workflows/audit-queries";
import { getWithdrawal, withdrawalFor } from "@/server/workflows/withdrawal-ledger";
import { getCase, rejectHeldWithdrawal } from "./case";
import { holdsOn, listHolds, refuseHeld } from "./hold";
import { activateRuleVersion, draftRule } from "./rule";
import { clearMonitoring, writeLedger } from "./testing";

const H = 3_600_000;
const T = Date.UTC(2026, 2, 10, 12);
const alice = staffSession("compliance", "alice");
const bob = staffSession("compliance", "bob");
const admin = staffSession("admin", "ada");
const lead = staffSession("lead", "lee");
const broker = staffSession("broker", "bea");
const otherBroker = staffSession("broker", "ben");
const RULE = "MARKER-rule-7f3a";
const NOTE = "MARKER-note SAR considered 7f3a";
const REASON = "MARKER-reject-7f3a";

async function csvText(rows: CsvRows): Promise<string> {
  const out: CsvRow[] = [];
  if ("batches" in rows) for await (const batch of rows.batches) out.push(...batch);
  else for await (const row of rows as AsyncIterable<CsvRow>) out.push(row);
  return JSON.stringify(out);
}

describe("[monitoring][confidential]", () => {
  const bed = databaseTestBed();

  it("[monitoring][confidential] holds, refusals and compliance's rejection say only that compliance holds", async () => {
    await clearMonitoring(bed.db);
    await addStaff(bed.db, [alice, bob]);
    const [mine, theirs, rejected] = [randomUUID(), randomUUID(), randomUUID()];
    await writeLedger(bed.db, {
      deposits: ["21", "23"].map((subUid) => ({
        orderId: `p${subUid}`,
        subUid,
        coin: "USDT",
        amount: "1000",
        status: "success",
        fromAddress: "",
        ctime: T,
      })),
      withdrawals: [],
      prices: [],
    });
    const requests: [string, string, string, string][] = [
      [mine, "21", "950", broker.email],
      [rejected, "21", "10", broker.email],
      [theirs, "23", "950", otherBroker.email],
    ];
    for (const [id, subUid, amount, by] of requests)
      await bed.db.query(
        `INSERT INTO withdrawal_requests (id, client_oid, sub_uid, coin, dest, address, amount, reason, requested_by,
           requested_at, state)
         VALUES ($1, $2, $3, 'USDT', 'on_chain', $4, $5, 'test', $6, timestamptz 'epoch' + $7 * interval '1 ms',
           'requested')`,
        [id, `t${id.replaceAll("-", "")}`, subUid, `out-${id}`, amount, by, T + H],
      );
    const v = await draftRule(bed.db, alice, {
      name: RULE,
      severity: "high",
      holds: true,
      kind: "pass_through",
      params: { pct: 90, windowHours: 24 },
    });
    await activateRuleVersion(bed.db, bob, v.id);
    const caseId = (await holdsOn(bed.db, "21"))[0]!.caseId!;
    await holdsOn(bed.db, "23");

    // Monitoring roles: every held sub-account, its rules and case.
    for (const who of [alice, admin]) {
      const { items } = await listHolds(bed.db, who);
      expect(items.map((i) => i.subUid)).toEqual(["21", "23"]);
      expect(items[0]).toEqual({ subUid: "21", rules: [RULE], caseId });
    }
    // A lead: the held sub-accounts with a request waiting, nothing else; a broker: only their own requests'.
    expect(await listHolds(bed.db, lead)).toEqual({ items: [{ subUid: "21" }, { subUid: "23" }] });
    expect(await listHolds(bed.db, broker)).toEqual({ items: [{ subUid: "21" }] });
    expect(await listHolds(bed.db, otherBroker)).toEqual({ items: [{ subUid: "23" }] });
    expect(await listHolds(bed.db, staffSession("broker", "nobody"))).toEqual({ items: [] });

    const refusal = await domainRefusal(refuseHeld(bed.db, "21"));
    expect(refusal.code).toBe("withdrawal_held");
    expect(refusal.message).toBe(HELD_BY_COMPLIANCE);
    expect(refusal.message).not.toContain(RULE);
    expect(refusal.message).not.toContain(caseId);

    // Compliance rejects one request from the case: its requester (and the lead) read only who decided.
    const { version } = await getCase(bed.db, caseId);
    await rejectHeldWithdrawal(bed.db, alice, caseId, { withdrawalId: rejected, reason: REASON, version });
    const stored = await getWithdrawal(bed.db, rejected);
    expect(stored.rejectReason).toContain(REASON);
    for (const role of ["broker", "lead"] as const)
      expect(withdrawalFor(role, stored)).toMatchObject({ state: "rejected", rejectReason: REJECTED_BY_COMPLIANCE });
    for (const role of ["compliance", "admin"] as const) expect(withdrawalFor(role, stored)).toEqual(stored);
    // A lead's own reason is the lead's, and stays.
    const own = { ...stored, rejectReason: "Not whitelisted" };
    expect(withdrawalFor("broker", own)).toEqual(own);
  });

  it("[monitoring][confidential] the audit log shows a monitoring entry exists, not its detail; the chain verifies", async () => {
    const caseId = randomUUID();
    const versionId = randomUUID();
    const base = { actorRole: "compliance", requestId: "r1", ip: null };
    await appendAudit(bed.db, {
      ...base,
      actor: alice.email,
      action: "monitoring.case-note",
      outcome: "intent",
      target: `case:${caseId}`,
      params: { body: NOTE },
    });
    await appendAudit(bed.db, {
      ...base,
      actor: alice.email,
      action: "monitoring.case-note",
      outcome: "success",
      target: `case:${caseId}`,
      detail: { id: caseId, notes: [{ body: NOTE }], outcomeReason: NOTE },
    });
    await appendAudit(bed.db, {
      ...base,
      actor: alice.email,
      action: "monitoring.rule-draft",
      outcome: "intent",
      target: `rule:${RULE}`,
      params: { name: RULE, params: { limit: "31415926.53" } },
    });
    await appendAudit(bed.db, {
      ...base,
      actor: bob.email,
      action: "monitoring.rule-activate",
      outcome: "success",
      target: `rule-version:${versionId}`,
    });
    // Ordinary entries that carried compliance's words: a refused approval naming the rules (as older rows
    // did), a withdrawal view with compliance's reason, a refused request for a case's page.
    await appendAudit(bed.db, {
      ...base,
      actor: lead.email,
      action: "withdrawals.approve",
      outcome: "failure",
      target: `withdrawal:${randomUUID()}`,
      detail: { code: "withdrawal_held", msg: `Compliance holds this sub-account's withdrawals (${RULE})` },
    });
    await appendAudit(bed.db, {
      ...base,
      actor: lead.email,
      action: "withdrawals.cancel",
      outcome: "failure",
      detail: { state: "rejected", clientOid: "bd-1", rejectReason: `Compliance: ${REASON}` },
    });
    await appendAudit(bed.db, {
      ...base,
      actor: lead.email,
      action: "request.refused",
      outcome: "refused",
      target: `/api/monitoring/cases/${caseId}/notes`,
      detail: { status: 403, code: "forbidden" },
    });
    const markers = [NOTE, RULE, REASON, "31415926.53", caseId, versionId];

    const all = auditFiltersSchema.parse({});
    for (const role of ["lead", "broker"] as const) {
      const page = await auditPage(bed.db, all, role);
      const text = JSON.stringify(page);
      for (const m of markers) expect(text, `${role} reads ${m}`).not.toContain(m);
      const note = page.rows.filter((r) => r.action === "monitoring.case-note");
      // It exists: who, when, what and how it went; not what it said.
      expect(note.map((r) => [r.actor, r.outcome, r.target, r.params, r.detail, r.confidential])).toEqual([
        [alice.email, "success", "case:[withheld]", null, null, true],
        [alice.email, "intent", "case:[withheld]", null, null, true],
      ]);
      expect(page.rows.find((r) => r.action === "withdrawals.approve")?.detail).toMatchObject({
        code: "withdrawal_held",
        msg: HELD_BY_COMPLIANCE,
      });
      expect(page.rows.find((r) => r.action === "withdrawals.cancel")?.detail).toMatchObject({
        rejectReason: REJECTED_BY_COMPLIANCE,
      });
      expect(page.rows.find((r) => r.action === "request.refused")?.target).toBe(
        "/api/monitoring/cases/[withheld]/notes",
      );
      const csv = await csvText(
        await auditForExport(bed.db, all, staffSession(role, "x"), { requestId: "e", ip: null }),
      );
      expect(csv).toContain("monitoring.case-note");
      for (const m of markers) expect(csv, `${role}'s export holds ${m}`).not.toContain(m);
    }
    // Monitoring roles read it whole; the stored rows are what was written, so the chain verifies.
    for (const role of ["compliance", "admin"] as const) {
      const text = JSON.stringify(await auditPage(bed.db, all, role));
      for (const m of markers) expect(text).toContain(m);
    }
    expect(await verifyAuditChain(bed.db)).toMatchObject({ ok: true });
    // The measured leak: a lead filtering by the note's action.
    const byAction = await auditPage(bed.db, auditFiltersSchema.parse({ action: "monitoring.case-note" }), "lead");
    expect(byAction.rows).toHaveLength(2);
    expect(JSON.stringify(byAction)).not.toContain("SAR considered");
  });

  it("[monitoring][confidential] a sub-account's audit entries do not say that compliance acted on it", async () => {
    const base = { actorRole: "compliance", requestId: "r2", ip: null, outcome: "success" as const };
    // A snooze names its sub-account in its params (audit_subaccount reads params.subUid), as a case's filter does.
    await appendAudit(bed.db, { ...base, actor: alice.email, action: "monitoring.snooze", params: { subUid: "777" } });
    await appendAudit(bed.db, {
      ...base,
      actor: alice.email,
      action: "monitoring.alerts-export",
      params: { subUid: "777" },
    });
    await appendAudit(bed.db, { ...base, actor: lead.email, action: "subaccounts.create", target: "subaccount:777" });
    const of777 = auditFiltersSchema.parse({ subUid: "777" });
    const actions = async (role: "lead" | "broker" | "compliance" | "admin") =>
      (await auditPage(bed.db, of777, role)).rows
        .map((r) => r.action)
        .filter((a) => a !== "audit.export") // the exports below are entries about 777 too
        .sort();
    const csvActions = async (role: "lead" | "compliance") =>
      await csvText(await auditForExport(bed.db, of777, staffSession(role, "y"), { requestId: "e2", ip: null }));
    for (const role of ["lead", "broker"] as const) expect(await actions(role)).toEqual(["subaccounts.create"]);
    expect(await csvActions("lead")).not.toContain("monitoring.");
    for (const role of ["compliance", "admin"] as const)
      expect(await actions(role)).toEqual(["monitoring.alerts-export", "monitoring.snooze", "subaccounts.create"]);
    expect(await csvActions("compliance")).toContain("monitoring.snooze");
  });
});
