import "server-only";
// Rules, cases and holds as compliance works them: parameters refused on their field, a version activated
// only by a second person, history evaluated once, a sync batch evaluated over what it added, a holding
// alert that stops a withdrawal's approval until compliance clears it, and a case closed with its outcome.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { databaseTestBed } from "@/server/db/testing";
import { addStaff, domainRefusal, staffSession } from "@/server/testing";
import {
  addNote,
  attachRecord,
  clearHold,
  closeCase,
  getCase,
  getCaseWithAlerts,
  rejectHeldWithdrawal,
  updateCase,
} from "./case";
import { evaluateBatch, evaluateHistory } from "./jobs";
import { holdsOn, listHolds, refuseHeld } from "./hold";
import { alertsForExport, listAlerts } from "./alert";
import { backtestVersion } from "./backtest";
import {
  activateRuleVersion,
  askBacktest,
  draftRule,
  listRuleVersions,
  proposeRetirement,
  retireRuleVersion,
} from "./rule";
import { snoozeRule } from "./snooze";
import { clearMonitoring, writeLedger } from "./testing";
import { isSystemRule } from "./system-rules";
import type { Queryable } from "@/server/db";

const H = 3_600_000;
const T = Date.UTC(2026, 2, 10, 12);
const alice = staffSession("compliance", "alice");
const bob = staffSession("compliance", "bob");
/** The versions of compliance's rules (not Brokerdesk's own system rules, which every database has). */
const ownVersions = async (db: Queryable) => (await listRuleVersions(db)).items.filter((v) => !isSystemRule(v.ruleId));
const count = async (db: { query: (s: string) => Promise<{ rows: { n: string }[] }> }, table: string) =>
  Number((await db.query(`SELECT count(*)::text AS n FROM ${table}`)).rows[0]!.n);

describe("[monitoring][workflow]", () => {
  const bed = databaseTestBed();
  beforeAll(() => addStaff(bed.db, [alice, bob]));

  it("[monitoring][rules] refuses bad parameters on their field and a span rule without a window, writing nothing", async () => {
    await clearMonitoring(bed.db);
    const base = { name: "big", severity: "high", holds: false } as const;
    const e1 = await domainRefusal(
      draftRule(bed.db, alice, {
        ...base,
        kind: "large_deposit",
        params: { unit: "coin", coin: "BTC", minAmount: "1e5" },
      }),
    );
    expect(e1.code).toBe("invalid_input");
    expect(Object.keys(e1.fieldErrors ?? {})).toEqual(["minAmount"]);
    const e2 = await domainRefusal(
      draftRule(bed.db, alice, {
        ...base,
        kind: "aggregate",
        params: { source: "deposits", measure: "count", op: ">=", threshold: "5" },
      }),
    );
    expect(e2.fieldErrors?.windowHours?.[0]).toMatch(/windowHours is required/);
    const e3 = await domainRefusal(
      draftRule(bed.db, alice, {
        ...base,
        kind: "velocity",
        params: { source: "deposits", measure: "sum", limit: "5", windowHours: 0 },
      }),
    );
    expect(Object.keys(e3.fieldErrors ?? {}).sort()).toEqual(["coin", "windowHours"]);
    // Nothing beside Brokerdesk's own two system rules.
    expect(await count(bed.db, "monitoring_rules")).toBe(2);
  });

  it("[monitoring][rules] a version is activated by a second person only; the next one retires it; retiring takes two", async () => {
    await clearMonitoring(bed.db);
    const spec = { kind: "large_deposit", params: { unit: "coin", coin: "BTC", minAmount: "10" } } as const;
    const v1 = await draftRule(bed.db, alice, { name: "big BTC", severity: "high", holds: false, ...spec });
    expect(v1).toMatchObject({ version: 1, state: "draft", author: alice.email });
    expect((await domainRefusal(activateRuleVersion(bed.db, alice, v1.id))).code).toBe("own_request");
    expect((await activateRuleVersion(bed.db, bob, v1.id)).state).toBe("active");
    expect((await domainRefusal(activateRuleVersion(bed.db, bob, v1.id))).code).toBe("already_decided");

    const v2 = await draftRule(bed.db, bob, {
      name: "big BTC",
      severity: "high",
      holds: true,
      kind: "large_deposit",
      params: { unit: "coin", coin: "BTC", minAmount: "5" },
    });
    expect(v2.version).toBe(2);
    await activateRuleVersion(bed.db, alice, v2.id);
    const states = (await ownVersions(bed.db)).map((v) => [v.version, v.state]);
    expect(states).toEqual([
      [2, "active"],
      [1, "retired"],
    ]);
    // Retiring takes two: bob proposes, alice confirms.
    await proposeRetirement(bed.db, bob, v2.id, { reason: "replaced by a better rule" });
    expect((await retireRuleVersion(bed.db, alice, v2.id)).state).toBe("retired");
  });

  it("[monitoring][evaluate] history once for a new version, then each sync batch over what it added", async () => {
    await clearMonitoring(bed.db);
    await writeLedger(bed.db, {
      deposits: [
        { orderId: "h1", subUid: "11", coin: "BTC", amount: "20", status: "success", fromAddress: "", ctime: T },
      ],
      withdrawals: [],
      prices: [],
    });
    const v = await draftRule(bed.db, alice, {
      name: "big",
      severity: "medium",
      holds: false,
      kind: "large_deposit",
      params: { unit: "coin", coin: "BTC", minAmount: "10" },
    });
    await activateRuleVersion(bed.db, bob, v.id);
    expect(await evaluateHistory(bed.db, v.id)).toBe(1);
    expect(await evaluateHistory(bed.db, v.id)).toBe(0);

    expect(await evaluateBatch(bed.db, "11")).toBe(0);
    await bed.db.query(
      `INSERT INTO ledger_deposits (order_id, sub_uid, coin, amount, status, ctime) VALUES ('h2', '11', 'BTC', '30', 'success', $1)`,
      [T + H],
    );
    expect(await evaluateBatch(bed.db, "11")).toBe(1);
    expect(await evaluateBatch(bed.db, "11")).toBe(0);
    // Both alerts gathered into the sub-account's one open case.
    const cases = await bed.db.query<{ n: string }>(`SELECT count(DISTINCT case_id)::text AS n FROM monitoring_alerts`);
    expect(cases.rows[0]!.n).toBe("1");

    // The list and its CSV agree; the export is an audit entry.
    const listed = await listAlerts(bed.db, { subUid: "11" });
    expect(listed.total).toBe(2);
    const csv: (readonly unknown[])[] = [];
    const exported = await alertsForExport(bed.db, { subUid: "11" }, alice);
    if (!("batches" in exported)) throw new Error("the alerts' export is read in batches");
    for await (const batch of exported.batches) csv.push(...batch);
    expect(csv.map((r) => r[1])).toEqual(listed.items.map((a) => a.id));
    const audit = await bed.db.query<{ outcome: string; detail: { rows?: number } | null }>(
      `SELECT outcome, detail FROM audit_log WHERE action = 'monitoring.alerts-export' ORDER BY id`,
    );
    expect(audit.rows.map((r) => r.outcome)).toEqual(["intent", "success"]);
    expect(audit.rows[1]!.detail).toMatchObject({ rows: 2 });
  });

  it("[monitoring][holds] a holding alert stops approval until compliance clears it; the case closes with its outcome", async () => {
    await clearMonitoring(bed.db);
    const wid = randomUUID();
    await writeLedger(bed.db, {
      deposits: [
        { orderId: "p1", subUid: "21", coin: "USDT", amount: "1000", status: "success", fromAddress: "", ctime: T },
        { orderId: "x1", subUid: "22", coin: "USDT", amount: "5", status: "success", fromAddress: "", ctime: T },
      ],
      withdrawals: [
        { id: wid, subUid: "21", coin: "USDT", amount: "950", address: "out1", state: "requested", ms: T + H },
      ],
      prices: [],
    });
    const v = await draftRule(bed.db, alice, {
      name: "pass-through",
      severity: "high",
      holds: true,
      kind: "pass_through",
      params: { pct: 90, windowHours: 24 },
    });
    await activateRuleVersion(bed.db, bob, v.id);
    expect(await holdsOn(bed.db, "22")).toEqual([]);
    const refusal = await domainRefusal(refuseHeld(bed.db, "21"));
    expect(refusal.code).toBe("withdrawal_held");
    // Whoever approves may not read monitoring: the refusal names no rule (./confidential.test.ts).
    expect(refusal.message).not.toContain("pass-through");

    const [hold] = await holdsOn(bed.db, "21");
    expect(await listHolds(bed.db, alice)).toEqual({
      items: [{ subUid: "21", rules: ["pass-through"], caseId: hold!.caseId }],
    });
    const caseId = hold!.caseId!;
    await updateCase(bed.db, caseId, { assignee: alice.email, status: "investigating" });
    await addNote(bed.db, alice, caseId, "Funds arrived and left within the hour; asked the desk why.");
    await attachRecord(bed.db, alice, caseId, { recordKind: "deposit", recordId: "p1" });
    await attachRecord(bed.db, alice, caseId, { recordKind: "withdrawal", recordId: wid });
    const foreign = await domainRefusal(attachRecord(bed.db, alice, caseId, { recordKind: "deposit", recordId: "x1" }));
    expect(Object.keys(foreign.fieldErrors ?? {})).toEqual(["recordId"]);

    // Compliance may reject the waiting request instead (only the case's sub-account's, and only once).
    const second = randomUUID();
    await writeLedger(bed.db, {
      deposits: [],
      withdrawals: [
        { id: second, subUid: "21", coin: "USDT", amount: "10", address: "out2", state: "requested", ms: T + 2 * H },
      ],
      prices: [],
    });
    // Every decision names the case as its reviewer saw it: its version then (one alert).
    const { version } = await getCase(bed.db, caseId);
    expect(version).toBe(1);
    await rejectHeldWithdrawal(bed.db, alice, caseId, {
      withdrawalId: second,
      reason: "funds passed straight through",
      version,
    });
    const state = await bed.db.query<{ state: string; rejected_by: string }>(
      `SELECT state, rejected_by FROM withdrawal_requests WHERE id = $1`,
      [second],
    );
    expect(state.rows[0]).toEqual({ state: "rejected", rejected_by: alice.email });
    const again = await domainRefusal(
      rejectHeldWithdrawal(bed.db, alice, caseId, { withdrawalId: second, reason: "again", version }),
    );
    expect(Object.keys(again.fieldErrors ?? {})).toEqual(["withdrawalId"]);

    const cleared = await clearHold(bed.db, alice, caseId, {
      reason: "The desk showed the client's instruction",
      version,
    });
    expect(cleared.holding).toBe(false);
    await expect(refuseHeld(bed.db, "21")).resolves.toBeUndefined();
    expect(await listHolds(bed.db, alice)).toEqual({ items: [] });

    const closed = await closeCase(bed.db, alice, caseId, {
      outcome: "monitored",
      reason: "Keep an eye on the desk",
      version,
    });
    expect(closed).toMatchObject({ status: "closed", outcome: "monitored", assignee: alice.email });
    expect(closed.notes).toHaveLength(1);
    expect(closed.records.map((r) => r.recordKind).sort()).toEqual(["deposit", "withdrawal", "withdrawal"]);
    expect((await domainRefusal(addNote(bed.db, alice, caseId, "late"))).code).toBe("already_decided");
    expect((await getCaseWithAlerts(bed.db, caseId)).alerts.map((a) => a.status)).toEqual(["cleared"]);
  });

  it("[monitoring][snooze] a snoozed rule raises nothing for that sub-account until the snooze ends", async () => {
    await clearMonitoring(bed.db);
    await writeLedger(bed.db, {
      deposits: [
        { orderId: "s1", subUid: "31", coin: "BTC", amount: "50", status: "success", fromAddress: "", ctime: T },
        { orderId: "s2", subUid: "32", coin: "BTC", amount: "50", status: "success", fromAddress: "", ctime: T },
      ],
      withdrawals: [],
      prices: [],
    });
    const v = await draftRule(bed.db, alice, {
      name: "big",
      severity: "low",
      holds: false,
      kind: "large_deposit",
      params: { unit: "coin", coin: "BTC", minAmount: "10" },
    });
    await activateRuleVersion(bed.db, bob, v.id);
    const past = await domainRefusal(
      snoozeRule(bed.db, alice, {
        ruleId: v.ruleId,
        subUid: "31",
        until: "2020-01-01T00:00:00Z",
        reason: "known desk",
      }),
    );
    expect(Object.keys(past.fieldErrors ?? {})).toEqual(["until"]);
    const until = new Date(Date.now() + 24 * H).toISOString();
    await snoozeRule(bed.db, alice, { ruleId: v.ruleId, subUid: "31", until, reason: "known desk" });
    expect(await evaluateHistory(bed.db, v.id)).toBe(1);
    const subs = await bed.db.query<{ sub_uid: string }>(`SELECT sub_uid FROM monitoring_alerts`);
    expect(subs.rows.map((r) => r.sub_uid)).toEqual(["32"]);
  });

  it("[monitoring][backtest] a draft over the whole history: per month, top sub-accounts, samples; kept with it, nothing raised", async () => {
    await clearMonitoring(bed.db);
    const march = Date.UTC(2026, 2, 10);
    const april = Date.UTC(2026, 3, 2);
    const d = (orderId: string, subUid: string, amount: string, ctime: number) =>
      ({ orderId, subUid, coin: "BTC", amount, status: "success", fromAddress: "", ctime }) as const;
    await writeLedger(bed.db, {
      deposits: [
        d("b1", "41", "20", march),
        d("b2", "41", "30", april),
        d("b3", "42", "15", april),
        d("b4", "43", "1", april),
      ],
      withdrawals: [],
      prices: [],
    });
    const v = await draftRule(bed.db, alice, {
      name: "big",
      severity: "low",
      holds: false,
      kind: "large_deposit",
      params: { unit: "coin", coin: "BTC", minAmount: "10" },
    });
    expect((await askBacktest(bed.db, v.id)).backtestPending).toBe(true);
    const result = await backtestVersion(bed.db, v.id);
    expect(result).toMatchObject({
      total: 3,
      months: [
        { month: "2026-03", alerts: 1 },
        { month: "2026-04", alerts: 2 },
      ],
      top: [
        { subUid: "41", alerts: 2 },
        { subUid: "42", alerts: 1 },
      ],
    });
    expect(result!.samples.map((s) => s.occurrence).sort()).toEqual(["d:b1", "d:b2", "d:b3"]);
    const kept = (await ownVersions(bed.db))[0]!;
    expect(kept).toMatchObject({ state: "draft", backtestPending: false, backtest: { total: 3 } });
    expect(await count(bed.db, "monitoring_alerts")).toBe(0);
  });
});
