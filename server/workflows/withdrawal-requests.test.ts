// Two-person withdrawals against the simulator over loopback, with a real signed client and a real (PGlite)
// database: the balance moves exactly once per request whatever happens (two approvers, double clicks,
// timeouts, 5xx, reconcile), the requester never approves, and every platform call has its audit intent
// and outcome.
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { withdrawalFormSchema, type WithdrawalFormInput, type WithdrawalView } from "@/lib/api/withdrawals";
import type { StaffSession } from "@/server/auth/session";
import { resetFactors } from "@/server/auth/mfa";
import { changeOwnPassword, createUser, resetPassword, updateUser } from "@/server/auth/users";
import type { Db } from "@/server/db";
import { csvBody, csvResponse } from "@/server/http/csv";
import { sealOf } from "@/server/audit";
import {
  addToRegistry,
  deskUid,
  domainRefusal,
  staffSession,
  STEADY_BALANCES,
  workflowTestBed,
  TEST_TRAVEL_RULE,
} from "@/server/testing";
import { WITHDRAWAL_CSV_COLUMNS } from "@/lib/api/withdrawals";
import {
  getWithdrawal,
  listWithdrawals,
  summarizeWithdrawals,
  withdrawalsForExport,
  type WithdrawalFilters,
} from "./withdrawal-ledger";
import {
  approveWithdrawal,
  mintClientOid,
  reconcileWithdrawal,
  rejectWithdrawal,
  requestWithdrawal,
} from "./withdrawal-requests";

const broker = staffSession("broker", "broker");
const lead1 = staffSession("lead", "lead1");
const lead2 = staffSession("lead", "lead2");
const compliance = staffSession("compliance", "compliance");

// Short enough that a 3 s latency fault times out; far above a loopback answer.
const TIMEOUT_MS = 1_000;

const bed = workflowTestBed({
  simulator: STEADY_BALANCES,
  client: { timeoutMs: TIMEOUT_MS, backoffBaseMs: 5 },
  resetEachTest: true,
});
let desk01: string;
let desk02: string;

beforeAll(async () => {
  desk01 = deskUid(bed.sim, "desk01");
  desk02 = deskUid(bed.sim, "desk02");
  await addToRegistry(bed.db, desk01, "desk01@x");
  await addToRegistry(bed.db, desk02, "desk02@x");
  // Staff rows as the demo seed makes them (no approver hold): approving reads the approver's row.
  for (const s of [broker, lead1, lead2, compliance]) {
    const { rows } = await bed.db.query<{ id: string }>(
      "INSERT INTO staff_users (email, name, role) VALUES ($1, $2, $3) RETURNING id",
      [s.email, s.name, s.role],
    );
    s.userId = rows[0]!.id;
  }
});
beforeEach(() => {
  bed.sim.state.setBalance(desk01, "USDT", "1000");
});

const e5 = () =>
  bed.sim.stats().operations["withdrawals.submit"] ?? { requests: 0, accepted: 0, codes: {} as Record<string, number> };
const simRecords = (clientOid: string) => bed.sim.state.withdrawals().filter((w) => w.clientOid === clientOid);

function form(over: Partial<WithdrawalFormInput> = {}) {
  return withdrawalFormSchema.parse({
    subUid: desk01,
    coin: "USDT",
    dest: "on_chain",
    address: "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE",
    amount: "12.5",
    reason: "client payout",
    travelRule: TEST_TRAVEL_RULE,
    ...over,
  });
}
const request = (over: Partial<WithdrawalFormInput> = {}, by: StaffSession = broker) =>
  requestWithdrawal(bed.db, bed.client, by, form(over));
const approve = (w: WithdrawalView, by: StaffSession = lead1) =>
  approveWithdrawal(bed.db, bed.client, by, w.id, { confirmAmount: w.amount, confirmAddress: w.address });

/** The route's CSV answer: the ledger's rows through the one CSV encoder. */
const exportWithdrawalsCsv = async (d: Db, f: WithdrawalFilters, by: StaffSession, ctx = {}) =>
  csvResponse(csvBody("withdrawals", WITHDRAWAL_CSV_COLUMNS, await withdrawalsForExport(d, f, by, ctx)));
const waitFor = async (cond: () => boolean, ms: number) => {
  for (const until = Date.now() + ms; !cond();) {
    if (Date.now() > until) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe("[withdrawals][request]", () => {
  it("saves a requested row with a fresh clientOid before anything is sent", async () => {
    const w = await request();
    expect(w).toMatchObject({
      state: "requested",
      subUid: desk01,
      coin: "USDT",
      chain: "TRC20",
      amount: "12.5",
      requestedBy: broker.email,
      version: 0,
    });
    expect(w.clientOid).toMatch(/^bd[a-z0-9]+[A-Za-z0-9_-]{12}$/);
    expect(w.clientOid.length).toBeLessThanOrEqual(64);
    expect(w.requestedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(e5().requests).toBe(0);
    expect(bed.sim.state.balance(desk01, "USDT")).toBe("1000");
  });

  it("mints a different clientOid every time", () => {
    const oids = new Set(Array.from({ length: 1000 }, () => mintClientOid()));
    expect(oids.size).toBe(1000);
    for (const o of oids) expect(o).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
  });

  it("refuses an amount above the available balance (E2, decimal compare), naming amount", async () => {
    // LTC: no other test holds pending LTC requests of desk01 (those reserve the balance: withdrawal-funds.test.ts).
    bed.sim.state.setBalance(desk01, "LTC", "0.3");
    const ltc = { coin: "LTC", address: "LVg2kJoFNg45Nbpy53h7Fe1wKyeXVRhMH9" } as const;
    const e = await domainRefusal(request({ ...ltc, amount: "0.30000001" }));
    expect(e.status).toBe(422);
    expect(e.fieldErrors?.amount?.[0]).toMatch(/above the available balance of desk01@x: 0\.3 LTC/);
    await expect(request({ ...ltc, amount: "0.3" })).resolves.toMatchObject({ state: "requested" });
  });

  it("refuses a coin the sub-account never held, and a sub-account not in the registry", async () => {
    const e = await domainRefusal(
      request({ coin: "FIL", address: "f1abjxfbp274xpdqcpuaykwkfb43omjotacm2p3za", amount: "1" }),
    );
    expect(e.fieldErrors?.amount?.[0]).toMatch(/available balance.*0 FIL/);
    const other = bed.sim.state
      .subaccountsOf(bed.sim.keys.brokerMain.uid)
      .find((s) => s.uid !== desk01 && s.uid !== desk02)!;
    const e2 = await domainRefusal(request({ subUid: other.uid }));
    expect(e2.fieldErrors?.subUid?.[0]).toMatch(/not in Brokerdesk's registry/);
  });
});

describe("[withdrawals][approve]", () => {
  it("request → approve → confirmed: the balance changes exactly once, by the amount", async () => {
    const w = await request({ amount: "12.5" });
    const done = await approve(w);
    expect(done).toMatchObject({ state: "confirmed", approvedBy: lead1.email, errorCode: null });
    expect(done.platformOrderId).toMatch(/^\d+$/);
    expect(done.submittedAt).not.toBeNull();
    expect(bed.sim.state.balance(desk01, "USDT")).toBe("987.5");
    const recs = simRecords(w.clientOid);
    expect(recs).toHaveLength(1);
    expect(recs[0]).toMatchObject({
      orderId: done.platformOrderId,
      amount: "12.5",
      chain: "TRC20",
      address: w.address,
      subUid: desk01,
    });
    expect(e5().requests).toBe(1);
    // Decided once: a second approval sends nothing.
    expect((await domainRefusal(approve(done, lead2))).status).toBe(409);
    expect(e5().requests).toBe(1);
  });

  it("the requester cannot approve or reject their own request; the database refuses it too", async () => {
    const w = await request({}, lead1);
    const e = await domainRefusal(approve(w, lead1));
    expect([e.status, e.code]).toEqual([403, "own_request"]);
    expect((await domainRefusal(rejectWithdrawal(bed.db, lead1, w.id, "changed my mind"))).code).toBe("own_request");
    await expect(
      bed.db.query(
        "UPDATE withdrawal_requests SET state = 'approved', approved_by = requested_by, approved_at = now(), version = version + 1 WHERE id = $1",
        [w.id],
      ),
    ).rejects.toThrow(/withdrawal_approver_not_requester/);
    expect((await getWithdrawal(bed.db, w.id)).state).toBe("requested");
    expect(e5().requests).toBe(0);
    // Another lead may.
    await expect(approve(w, lead2)).resolves.toMatchObject({ state: "confirmed", approvedBy: lead2.email });
  });

  it("the typed amount and address must equal the stored ones exactly", async () => {
    const w = await request({ amount: "10" });
    const typed = (confirmAmount: string, confirmAddress: string) =>
      approveWithdrawal(bed.db, bed.client, lead1, w.id, { confirmAmount, confirmAddress });
    const e = await domainRefusal(typed("10.0", w.address));
    expect(e.status).toBe(422);
    expect(Object.keys(e.fieldErrors ?? {})).toEqual(["confirmAmount"]);
    const e2 = await domainRefusal(typed("10", w.address.toLowerCase()));
    expect(Object.keys(e2.fieldErrors ?? {})).toEqual(["confirmAddress"]);
    const e3 = await domainRefusal(typed(" 10", `${w.address} `));
    expect(Object.keys(e3.fieldErrors ?? {}).sort()).toEqual(["confirmAddress", "confirmAmount"]);
    expect((await getWithdrawal(bed.db, w.id)).state).toBe("requested");
    expect(e5().requests).toBe(0);
    await expect(typed("10", w.address)).resolves.toMatchObject({ state: "confirmed" });
  });

  it("two leads approving at the same moment: one platform call, one confirmed, the other refused", async () => {
    const w = await request({ amount: "5" });
    const results = await Promise.allSettled([approve(w, lead1), approve(w, lead2)]);
    const ok = results.filter((r): r is PromiseFulfilledResult<WithdrawalView> => r.status === "fulfilled");
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(ok).toHaveLength(1);
    expect(ok[0]!.value.state).toBe("confirmed");
    expect(refused).toHaveLength(1);
    expect(refused[0]!.reason).toMatchObject({ status: 409 });
    expect(e5().requests).toBe(1);
    expect(simRecords(w.clientOid)).toHaveLength(1);
    expect(bed.sim.state.balance(desk01, "USDT")).toBe("995");
  });

  it("a double click (the same lead twice, and five at once) still sends once", async () => {
    const w = await request({ amount: "1" });
    const results = await Promise.allSettled([lead1, lead1, lead2, lead1, lead2].map((l) => approve(w, l)));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(e5().requests).toBe(1);
    expect(bed.sim.state.balance(desk01, "USDT")).toBe("999");
  });

  it("a platform refusal (43012 after the balance was drained) → failed with the platform's code and message", async () => {
    const w = await request({ amount: "100" });
    bed.sim.state.setBalance(desk01, "USDT", "0");
    const done = await approve(w);
    expect(done).toMatchObject({
      state: "failed",
      errorCode: "43012",
      errorMsg: "Insufficient balance",
      platformOrderId: null,
    });
    expect(done.settledAt).not.toBeNull();
    expect(simRecords(w.clientOid)).toHaveLength(0);
    // failed is final: nothing to reconcile.
    expect((await domainRefusal(reconcileWithdrawal(bed.db, bed.client, lead2, w.id))).status).toBe(409);
    expect(e5().requests).toBe(1);
  });
});

describe("[withdrawals][reconcile]", () => {
  it("a timeout on E5 leaves it unknown; the delayed request still lands; reconcile settles it with the same orderId, debited once", async () => {
    const w = await request({ amount: "7.25" });
    bed.sim.faults.set({ path: "withdrawals.submit", kind: "latency", latencyMs: 3_000, count: 1 });
    const after = await approve(w);
    expect(after).toMatchObject({ state: "unknown", errorCode: "timeout", platformOrderId: null });
    // The simulator processes the request it received, late: the money moved though we never heard.
    await waitFor(() => simRecords(w.clientOid).length === 1, 5_000);
    const original = simRecords(w.clientOid)[0]!;
    expect(bed.sim.state.balance(desk01, "USDT")).toBe("992.75");
    // The platform's 1/s per UID counts arrivals: the late one arrived just now.
    await new Promise((r) => setTimeout(r, 1_100));
    const settled = await reconcileWithdrawal(bed.db, bed.client, lead2, w.id);
    expect(settled).toMatchObject({
      state: "confirmed",
      platformOrderId: original.orderId,
      errorCode: null,
      errorMsg: null,
    });
    expect(simRecords(w.clientOid)).toHaveLength(1);
    expect(bed.sim.state.balance(desk01, "USDT")).toBe("992.75");
    expect(e5().requests).toBe(2);
    expect(e5().codes["00000"]).toBe(2);
    // Settled: a second reconcile is refused and sends nothing.
    expect((await domainRefusal(reconcileWithdrawal(bed.db, bed.client, lead2, w.id))).code).toBe("not_reconcilable");
    expect(e5().requests).toBe(2);
  });

  it("a 502 after sending → unknown; reconcile sends the same clientOid and the balance moves once", async () => {
    const w = await request({ amount: "3" });
    bed.sim.faults.set({ path: "withdrawals.submit", kind: "status", status: 502, count: 1 });
    const after = await approve(w);
    expect(after).toMatchObject({ state: "unknown", errorCode: "502" });
    expect(bed.sim.state.balance(desk01, "USDT")).toBe("1000");
    const settled = await reconcileWithdrawal(bed.db, bed.client, lead1, w.id);
    expect(settled.state).toBe("confirmed");
    expect(simRecords(w.clientOid)).toEqual([expect.objectContaining({ orderId: settled.platformOrderId })]);
    expect(bed.sim.state.balance(desk01, "USDT")).toBe("997");
  });

  it("a connection reset → unknown; two reconciles at once send once; still unreachable stays unknown", async () => {
    const w = await request({ amount: "2" });
    bed.sim.faults.set({ path: "withdrawals.submit", kind: "reset", count: 2 });
    expect((await approve(w)).state).toBe("unknown");
    expect((await reconcileWithdrawal(bed.db, bed.client, lead1, w.id)).state).toBe("unknown");
    const results = await Promise.allSettled([
      reconcileWithdrawal(bed.db, bed.client, lead1, w.id),
      reconcileWithdrawal(bed.db, bed.client, lead2, w.id),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(results.find((r): r is PromiseRejectedResult => r.status === "rejected")?.reason).toMatchObject({
      status: 409,
    });
    expect((await getWithdrawal(bed.db, w.id)).state).toBe("confirmed");
    expect(e5().requests).toBe(3);
    expect(bed.sim.state.balance(desk01, "USDT")).toBe("998");
  }, 30_000);

  it("only unknown rows are reconciled", async () => {
    const w = await request();
    expect((await domainRefusal(reconcileWithdrawal(bed.db, bed.client, lead1, w.id))).code).toBe("not_reconcilable");
    expect(e5().requests).toBe(0);
  });
});

describe("[withdrawals][reject]", () => {
  it("another lead rejects with a reason; nothing is sent and it cannot be approved afterwards", async () => {
    const w = await request();
    const r = await rejectWithdrawal(bed.db, lead1, w.id, "not the client's address");
    expect(r).toMatchObject({ state: "rejected", rejectedBy: lead1.email, rejectReason: "not the client's address" });
    expect((await domainRefusal(approve(w, lead2))).code).toBe("already_decided");
    expect((await domainRefusal(rejectWithdrawal(bed.db, lead2, w.id, "again"))).status).toBe(409);
    expect(e5().requests).toBe(0);
    expect(bed.sim.state.balance(desk01, "USDT")).toBe("1000");
  });

  it("an unknown id is 404", async () => {
    expect((await domainRefusal(getWithdrawal(bed.db, "00000000-0000-0000-0000-000000000000"))).status).toBe(404);
    expect((await domainRefusal(getWithdrawal(bed.db, "not-a-uuid"))).status).toBe(404);
  });
});

describe("[withdrawals][database]", () => {
  it("refuses transitions outside the state machine, changes to requested fields, and deletes", async () => {
    const w = await request();
    const q = (sql: string) => bed.db.query(sql, [w.id]);
    await expect(
      q("UPDATE withdrawal_requests SET amount = '999', version = version + 1 WHERE id = $1"),
    ).rejects.toThrow(/requested fields cannot change/);
    await expect(
      q(
        "UPDATE withdrawal_requests SET state = 'rejected', rejected_by = 'x', rejected_at = now(), reject_reason = 'r' WHERE id = $1",
      ),
    ).rejects.toThrow(/bump version/);
    await expect(q("DELETE FROM withdrawal_requests WHERE id = $1")).rejects.toThrow(/ledger/);
    const done = await approve(w);
    expect(done.state).toBe("confirmed");
    await expect(
      q("UPDATE withdrawal_requests SET state = 'submitted', version = version + 1 WHERE id = $1"),
    ).rejects.toThrow(/not a transition/);
    await expect(
      q("UPDATE withdrawal_requests SET approved_by = 'someone@else', version = version + 1 WHERE id = $1"),
    ).rejects.toThrow(/approver cannot change/);
    await expect(
      q("UPDATE withdrawal_requests SET platform_order_id = NULL, version = version + 1 WHERE id = $1"),
    ).rejects.toThrow(/withdrawal_confirmed_has_order/);
  });

  it("client_oid is unique", async () => {
    const w = await request();
    await expect(
      bed.db.query(
        "INSERT INTO withdrawal_requests (client_oid, sub_uid, coin, dest, address, amount, reason, requested_by) VALUES ($1, $2, 'USDT', 'on_chain', 'a', '1', 'r', 'x')",
        [w.clientOid, desk01],
      ),
    ).rejects.toThrow(/unique|duplicate/i);
  });
});

describe("[withdrawals][audit]", () => {
  it("every withdrawals.submit intent has exactly one outcome, written after it", async () => {
    const { rows } = await bed.db.query<{ id: number; outcome: string; intent_id: number | null; target: string }>(
      "SELECT id, outcome, intent_id, target FROM audit_log WHERE action = 'withdrawals.submit' ORDER BY id",
    );
    const intents = rows.filter((r) => r.outcome === "intent");
    expect(intents.length).toBeGreaterThanOrEqual(12);
    for (const i of intents) {
      const outcomes = rows.filter((r) => r.intent_id !== null && Number(r.intent_id) === Number(i.id));
      expect(outcomes, `intent ${i.id}`).toHaveLength(1);
      expect(outcomes[0]!.target).toBe(i.target);
    }
    expect(new Set(rows.map((r) => r.outcome))).toEqual(new Set(["intent", "success", "failure", "info"]));
    // One intent per platform call in this file: every E5 the simulator saw was announced first.
    expect(rows.filter((r) => r.outcome !== "intent")).toHaveLength(intents.length);
  });

  it("fail-closed: if the submit intent cannot be written, nothing is sent and the row stays approved", async () => {
    const w = await request({ amount: "4" });
    const broken: Db = {
      ...bed.db,
      query: bed.db.query.bind(bed.db),
      transaction: (fn) =>
        bed.db.transaction((tx) =>
          fn({
            query: (sql, params) =>
              /audit_head/.test(sql) ? Promise.reject(new Error("audit store down")) : tx.query(sql, params),
          }),
        ),
      close: bed.db.close.bind(bed.db),
    };
    await expect(
      approveWithdrawal(broken, bed.client, lead1, w.id, { confirmAmount: "4", confirmAddress: w.address }),
    ).rejects.toThrow(/audit/);
    expect(e5().requests).toBe(0);
    expect((await getWithdrawal(bed.db, w.id)).state).toBe("approved");
    // Right after approval, a reconcile would race the approver: refused until the row is left behind.
    expect((await domainRefusal(reconcileWithdrawal(bed.db, bed.client, lead2, w.id))).code).toBe("not_reconcilable");
  });
});

describe("[withdrawals][ledger]", () => {
  it("filters, pages newest first with a cursor, and exports CSV audited first", async () => {
    const mine = await request({ reason: '=HYPERLINK("http://x") , "quoted"', amount: "0.00000001" }, lead2);
    const all = await listWithdrawals(bed.db, {});
    expect(all.items[0]!.id).toBe(mine.id);
    const byLead2 = await listWithdrawals(bed.db, { requestedBy: "LEAD2@brokerdesk.test" });
    expect(byLead2.items.map((i) => i.id)).toEqual([mine.id]);
    expect((await listWithdrawals(bed.db, { state: "failed" })).items.every((i) => i.state === "failed")).toBe(true);
    expect((await listWithdrawals(bed.db, { from: new Date(Date.now() + 60_000) })).items).toEqual([]);

    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await listWithdrawals(bed.db, { limit: 3, cursor });
      seen.push(...page.items.map((i) => i.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(all.items.map((i) => i.id));
    expect(new Set(seen).size).toBe(seen.length);
    expect((await domainRefusal(listWithdrawals(bed.db, { cursor: "garbage" }))).status).toBe(422);

    const res = await exportWithdrawalsCsv(bed.db, { requestedBy: lead2.email }, compliance, { requestId: "r1" });
    const csv = await res.text();
    const lines = csv.split("\r\n");
    expect(lines[0]).toMatch(
      /^id,clientOid,state,subUid,coin,dest,chain,address,tag,amount,reason,requestedBy,requestedAt,/,
    );
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(`,0.00000001,"'=HYPERLINK(""http://x"") , ""quoted""",lead2@brokerdesk.test,`);
    const audit = await bed.db.query<{
      action: string;
      actor: string;
      params: { resource: string; requestedBy: string };
    }>(
      "SELECT action, actor, params FROM audit_log WHERE action = 'export.run' AND outcome = 'intent' ORDER BY id DESC LIMIT 1",
    );
    expect(audit.rows[0]).toMatchObject({
      actor: compliance.email,
      params: { resource: "withdrawals", requestedBy: lead2.email },
    });
    // The outcome records the file's hash, as sent (npm run audit:which).
    const outcome = await bed.db.query<{ detail: unknown }>(
      "SELECT detail FROM audit_log WHERE action = 'export.run' AND outcome = 'success' ORDER BY id DESC LIMIT 1",
    );
    expect(outcome.rows[0]!.detail).toEqual({ rows: 1, ...sealOf(csv) });

    const broken: Db = {
      ...bed.db,
      query: bed.db.query.bind(bed.db),
      close: bed.db.close.bind(bed.db),
      transaction: () => Promise.reject(new Error("down")),
    };
    await expect(exportWithdrawalsCsv(broken, {}, compliance)).rejects.toThrow(/audit write failed/);
  });
});

describe("[withdrawals][separation-of-duties] an approver account an admin set up cannot approve until its holder took it over", () => {
  const sessionOf = (u: { id: string; email: string; name: string | null }): StaffSession => ({
    userId: u.id,
    email: u.email,
    name: u.name,
    role: "lead",
  });
  const backdate = (id: string, column: "password_changed_at" | "approver_hold_at", hours: number) =>
    bed.db.query(`UPDATE staff_users SET ${column} = now() - make_interval(hours => $2) WHERE id = $1`, [id, hours]);

  it("[withdrawals][separation-of-duties] created by an admin: refused, naming the rule; after their own password change, refused for the cool-off; then allowed", async () => {
    const made = await createUser(
      bed.db,
      { email: "new-lead@brokerdesk.test", name: "New Lead", role: "lead", password: "chosen-by-the-admin-1" },
      { actor: "admin@brokerdesk.test" },
    );
    const w = await request();
    const first = await domainRefusal(approve(w, sessionOf(made)));
    expect(first.code).toBe("approver_on_hold");
    expect(first.message).toMatch(
      /Separation of duties: this account was created by admin@brokerdesk\.test on .+ UTC; it may approve once its holder has changed their own password and 24 h have passed/,
    );
    expect(e5().requests).toBe(0);

    await changeOwnPassword(bed.db, made.id, {
      currentPassword: "chosen-by-the-admin-1",
      newPassword: "only-the-lead-knows-1",
    });
    const second = await domainRefusal(approve(w, sessionOf(made)));
    expect(second.code).toBe("approver_on_hold");
    expect(second.message).toMatch(/it may approve from .+ UTC, 24 h after its own password change/);

    // A day later (both times moved back, in order: hold, then the change).
    await backdate(made.id, "approver_hold_at", 26);
    await backdate(made.id, "password_changed_at", 25);
    expect((await approve(w, sessionOf(made))).state).toBe("confirmed");
  });

  it("[withdrawals][separation-of-duties] a broker promoted to lead, and a lead whose password an admin reset, are on hold too", async () => {
    const b = await createUser(bed.db, {
      email: "promoted@brokerdesk.test",
      name: null,
      role: "broker",
      password: "chosen-by-the-admin-2",
    });
    await changeOwnPassword(bed.db, b.id, {
      currentPassword: "chosen-by-the-admin-2",
      newPassword: "the-brokers-own-pw-2",
    });
    await backdate(b.id, "password_changed_at", 48);
    const promoted = await updateUser(bed.db, b.id, { role: "lead" }, { actor: "admin@brokerdesk.test" });
    expect(promoted.approverHold).toMatchObject({ reason: "promoted-by-admin", by: "admin@brokerdesk.test" });
    const w = await request();
    expect((await domainRefusal(approve(w, sessionOf(promoted)))).message).toMatch(
      /was given an approving role by admin@brokerdesk\.test/,
    );

    const reset = await resetPassword(bed.db, lead2.userId, "the-admin-knows-this-3", {
      actor: "admin@brokerdesk.test",
    });
    expect(reset.approverHold?.reason).toBe("password-set-by-admin");
    expect((await domainRefusal(approve(w, lead2))).message).toMatch(/had its password set by admin@brokerdesk\.test/);
    // A wrong current password changes nothing.
    expect(
      (
        await domainRefusal(
          changeOwnPassword(bed.db, lead2.userId, { currentPassword: "guess", newPassword: "whatever-long-enough" }),
        )
      ).code,
    ).toBe("wrong_password");
    await bed.db.query("UPDATE staff_users SET approver_hold = NULL WHERE id = $1", [lead2.userId]);
    expect((await approve(w, lead2)).state).toBe("confirmed");
  });
});

describe("[withdrawals][separation-of-duties] an admin's factor reset", () => {
  it("[withdrawals][separation-of-duties] puts the lead on approver hold: a new factor and the password alone do not approve", async () => {
    await bed.db.query("UPDATE staff_users SET approver_hold = NULL, approver_hold_at = NULL WHERE id = $1", [
      lead2.userId,
    ]);
    await resetFactors(bed.db, lead2.userId, "admin@brokerdesk.test");
    const w = await request();
    const refused = await domainRefusal(approve(w, lead2));
    expect(refused.code).toBe("approver_on_hold");
    expect(refused.message).toMatch(/had its second factors reset by admin@brokerdesk\.test .+ 24 h after that reset/);
    expect((await domainRefusal(rejectWithdrawal(bed.db, lead2, w.id, "held"))).code).toBe("approver_on_hold");
    expect(e5().requests).toBe(0);
    expect((await getWithdrawal(bed.db, w.id)).state).toBe("requested");
    await bed.db.query("UPDATE staff_users SET approver_hold_at = now() - interval '25 hours' WHERE id = $1", [
      lead2.userId,
    ]);
    expect((await approve(w, lead2)).state).toBe("confirmed");
  });
});

describe("[withdrawals][credited]", () => {
  it("an internal transfer is credited once the ledger has seen the recipient's deposit (its txId the order ID) settled; not before, not on chain", async () => {
    const w = await approve(await request({ dest: "internal_transfer", address: desk02, amount: "1.5" }));
    expect(w).toMatchObject({ state: "confirmed", creditedAt: null });
    const seen = (status: string, subUid = desk02) =>
      bed.db.query(
        `INSERT INTO ledger_deposits (order_id, sub_uid, coin, amount, status, dest, from_address, to_address, tx_id, ctime)
         VALUES ($1, $2, 'USDT', 1.5, $3, 'internal_transfer', $4, $2, $5, $6)
         ON CONFLICT (order_id) DO UPDATE SET status = EXCLUDED.status, sub_uid = EXCLUDED.sub_uid`,
        [`dep-${w.platformOrderId}`, subUid, status, desk01, w.platformOrderId, Date.now()],
      );
    await seen("pending");
    expect((await getWithdrawal(bed.db, w.id)).creditedAt).toBeNull();
    // The same txId on another sub-account is not this transfer's credit.
    await seen("success", desk01);
    expect((await getWithdrawal(bed.db, w.id)).creditedAt).toBeNull();
    await seen("success");
    const credited = await getWithdrawal(bed.db, w.id);
    expect(credited.creditedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect((await listWithdrawals(bed.db, { subUid: desk01 })).items.find((x) => x.id === w.id)?.creditedAt).toBe(
      credited.creditedAt,
    );
    // On chain: never "credited" (the platform does not report an on-chain arrival).
    const onChain = await approve(await request({ amount: "0.5" }));
    expect(onChain.creditedAt).toBeNull();
  });
});

describe("[withdrawals][ledger-filters]", () => {
  it("amount range and address are applied in the database; the summary counts the whole filtered set exactly, with totals per coin", async () => {
    await request({ amount: "7.123", address: "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE" });
    await request({ amount: "7.125" });
    await request({ dest: "internal_transfer", address: desk02, amount: "7.124" });
    bed.sim.state.setBalance(desk01, "BTC", "1");
    await request({ coin: "BTC", address: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", amount: "0.125" });
    const all = async (f: WithdrawalFilters) => {
      const items: WithdrawalView[] = [];
      for (let cursor: string | undefined, i = 0; i < 100; i++) {
        const page = await listWithdrawals(bed.db, { ...f, limit: 2, cursor });
        items.push(...page.items);
        if (!page.nextCursor) break;
        cursor = page.nextCursor;
      }
      return items;
    };
    const range = { subUid: desk01, amountMin: "7.123", amountMax: "7.125" };
    const inRange = await all(range);
    expect(inRange.map((w) => w.amount).sort()).toEqual(["7.123", "7.124", "7.125"]);
    expect(await summarizeWithdrawals(bed.db, range)).toEqual({
      count: 3,
      totals: [{ coin: "USDT", count: 3, amount: "21.372" }],
    });
    // "10" is above "7.125" as a number, below it as text: compared as numbers.
    expect(
      (await all({ subUid: desk01, amountMin: "10", amountMax: "12.5" })).every((w) => Number(w.amount) >= 10),
    ).toBe(true);
    expect((await all({ ...range, address: desk02 })).map((w) => w.amount)).toEqual(["7.124"]);
    // Hex (an EVM address) in any case, as part of the address; base58 only in its own case.
    bed.sim.state.setBalance(desk01, "ETH", "1");
    await request({
      coin: "ETH",
      chain: "ERC20",
      address: "0x32Be343B94f860124dC4fEe278FDCBD38C102D88",
      amount: "0.0000071",
    });
    for (const part of [
      "0x32be343b94f860124dc4fee278fdcbd38c102d88",
      "0x32BE343B94F860124DC4FEE278FDCBD38C102D88",
      "32BE343B94F86012",
    ]) {
      expect(
        (await all({ subUid: desk01, address: part })).map((w) => w.amount),
        part,
      ).toEqual(["0.0000071"]);
    }
    expect(
      (await all({ ...range, address: "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE" })).map((w) => w.amount).sort(),
    ).toEqual(["7.123", "7.125"]);
    expect(await all({ ...range, address: "tqn9y2khesljw1chvwfmsmerdow5kcblse" })).toEqual([]);
    const both = await summarizeWithdrawals(bed.db, { subUid: desk01, amountMin: "0.125", amountMax: "0.125" });
    expect(both.totals).toEqual([{ coin: "BTC", count: 1, amount: "0.125" }]);
    const everything = await summarizeWithdrawals(bed.db, { subUid: desk01 });
    expect(everything.count).toBe((await all({ subUid: desk01 })).length);
    expect(everything.totals.map((t) => t.coin)).toEqual([...everything.totals.map((t) => t.coin)].sort());
  });
});
