// A withdrawal is never sent twice, at API level against the run's simulator: E5 fails during the
// approval (connection reset, 500, 429, malformed JSON, an answer later than PLATFORM_TIMEOUT_MS), the
// withdrawal is left "unknown", Reconcile resends the same clientOid, and the platform's own records show
// one transfer per withdrawal: the sender debited and the recipient credited once, one deposit per orderId.
// Then every audit intent of the run has exactly one outcome.
import { type APIRequestContext } from "@playwright/test";
import { expect, test, E2E_PLATFORM_TIMEOUT_MS } from "./support/test";
import Big from "big.js";
import { sameOrigin, signInApi } from "./support/staff";
import {
  auditSince,
  clearFaults,
  debitSince,
  markBalance,
  opStats,
  requestWithdrawal,
  setFaults,
  subUid,
  unpairedIntents,
  type FaultRule,
  type Withdrawal,
} from "./support/faults";

test.describe.configure({ mode: "serial" });

const SUITE_START = Date.now();
const TIMEOUT_MS = E2E_PLATFORM_TIMEOUT_MS; // the workers' PLATFORM_TIMEOUT_MS (e2e/support/test.ts)

type Scenario = {
  name: string;
  amount: string;
  /** Rules on withdrawals.submit in force from the approval on (POST is never retried: `count` is exact). */
  faults: Omit<FaultRule, "path">[];
  /** errorCode the unknown withdrawal records. */
  code: RegExp;
  /** Reconciles needed: a fault may also hit the first resend. */
  reconciles: number;
  /** The platform carried out the first send after the client gave up. */
  late?: boolean;
};

const SCENARIOS: Scenario[] = [
  { name: "connection reset", amount: "0.11", faults: [{ kind: "reset", count: 1 }], code: /^network$/, reconciles: 1 },
  {
    name: "HTTP 500, and 500 again on the first reconcile",
    amount: "0.12",
    faults: [{ kind: "status", status: 500, count: 2 }],
    code: /^50000$/,
    reconciles: 2,
  },
  { name: "HTTP 429", amount: "0.13", faults: [{ kind: "rate-limit", count: 1 }], code: /^429$/, reconciles: 1 },
  {
    name: "malformed JSON",
    amount: "0.14",
    faults: [{ kind: "malformed", count: 1 }],
    code: /^malformed$/,
    reconciles: 1,
  },
  {
    name: "an answer later than the timeout",
    amount: "0.15",
    faults: [{ kind: "latency", latencyMs: TIMEOUT_MS + 2_000, count: 1 }],
    code: /^timeout$/,
    reconciles: 1,
    late: true,
  },
];

let broker: APIRequestContext;
let lead: APIRequestContext;

test.beforeAll(async ({ playwright, app }) => {
  const baseURL = app!.baseURL;
  broker = await playwright.request.newContext({ baseURL });
  lead = await playwright.request.newContext({ baseURL });
  await signInApi(broker, "broker");
  await signInApi(lead, "lead");
});

test.afterAll(async () => {
  await broker.dispose();
  await lead.dispose();
});

test.afterEach(async ({ request }) => {
  await clearFaults(request);
});

async function post(
  ctx: APIRequestContext,
  baseURL: string | undefined,
  path: string,
  data: unknown = {},
): Promise<Withdrawal> {
  const res = await ctx.post(path, { headers: sameOrigin(baseURL), data });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as Withdrawal;
}

/** The recipient's E1 records whose txId is this orderId: the platform's own trace of an internal transfer. */
async function depositsOf(ctx: APIRequestContext, uid: string, orderId: string, since: number): Promise<number> {
  const qs = new URLSearchParams({
    userId: uid,
    startTime: String(since - 60_000),
    endTime: String(Date.now() + 60_000),
    limit: "100",
  });
  const res = await ctx.get(`/api/platform/v2/broker/subaccount-deposit?${qs}`);
  expect(res.status(), await res.text()).toBe(200);
  const { data } = (await res.json()) as { data: { txId: string }[] };
  return data.filter((d) => d.txId === orderId).length;
}

test("[faults][withdrawals.submit] E5 reset, 500, 429, malformed and late: each approval ends unknown, Reconcile confirms it, and the platform moved each once", async ({
  baseURL,
}) => {
  test.setTimeout(90_000);
  const from = await subUid(lead, "desk03");
  const to = await subUid(lead, "desk05");
  const started = Date.now();
  const [fromBefore, toBefore] = [await markBalance(lead, from), await markBalance(lead, to)];
  const total = SCENARIOS.reduce((sum, s) => sum.plus(s.amount), new Big(0));
  expect(fromBefore.amount.gte(total), `desk03 holds ${fromBefore.amount.toString()} USDT`).toBe(true);

  const orderIds: string[] = [];
  for (const s of SCENARIOS) {
    const w = await requestWithdrawal(broker, baseURL, {
      subUid: from,
      coin: "USDT",
      dest: "internal_transfer",
      address: to,
      amount: s.amount,
      reason: `faults e2e: ${s.name}`,
    });
    const e5Before = await opStats(lead, "withdrawals.submit");
    await setFaults(
      lead,
      s.faults.map((f) => ({ path: "withdrawals.submit", ...f })),
    );
    const approved = await post(lead, baseURL, `/api/withdrawals/${w.id}/approve`, {
      confirmAmount: w.amount,
      confirmAddress: w.address,
    });
    expect(approved.state, s.name).toBe("unknown");
    expect(approved.errorCode, s.name).toMatch(s.code);
    expect(approved.platformOrderId).toBeNull();

    if (s.late) {
      // The platform still carries out the late request: wait until it has, before resending.
      await expect
        .poll(async () => (await opStats(lead, "withdrawals.submit")).accepted - e5Before.accepted, { timeout: 10_000 })
        .toBe(1);
    }
    let settled = approved;
    for (let i = 0; i < s.reconciles; i++) settled = await post(lead, baseURL, `/api/withdrawals/${w.id}/reconcile`);
    expect(settled.state, s.name).toBe("confirmed");
    expect(settled.platformOrderId).toMatch(/^\d+$/);
    // Confirmed is final: a further reconcile is refused, and sends nothing.
    const again = await lead.post(`/api/withdrawals/${w.id}/reconcile`, { headers: sameOrigin(baseURL), data: {} });
    expect(again.status()).toBe(409);
    orderIds.push(settled.platformOrderId!);

    const e5 = await opStats(lead, "withdrawals.submit");
    // Every send reached the platform, but only the unfaulted ones got past its gate to the handler: the
    // resend that executed it, or (late) the original that executed it and the resend it answered as a repeat.
    expect(e5.requests - e5Before.requests, s.name).toBe(1 + s.reconciles);
    expect(e5.accepted - e5Before.accepted, s.name).toBe(s.late ? 2 : 1);
  }

  expect(new Set(orderIds).size).toBe(SCENARIOS.length);
  // Money moved once per withdrawal: the sender lost exactly the total, the recipient gained exactly it...
  expect(await debitSince(lead, fromBefore)).toBe(total.toString());
  expect(new Big(await debitSince(lead, toBefore, (d) => orderIds.includes(d.txId))).neg().toString()).toBe(
    total.toString(),
  );
  // ...and the platform's own records hold one transfer per orderId, the late one included.
  for (const id of orderIds) expect(await depositsOf(lead, to, id, started), `deposits with txId ${id}`).toBe(1);
});

test("[faults][audit] every intent written during the fault runs has exactly one outcome", async ({
  playwright,
  baseURL,
}) => {
  const compliance = await playwright.request.newContext({ baseURL });
  await signInApi(compliance, "compliance");
  const rows = await auditSince(compliance, SUITE_START - 1_000);
  const { missing, doubled, intents } = unpairedIntents(rows);
  // Per scenario: the approval and its E5 send, then each reconcile and its E5 send.
  expect(intents).toBeGreaterThanOrEqual(SCENARIOS.reduce((n, s) => n + 2 + 2 * s.reconciles, 0));
  expect(missing.map((r) => `${r.id} ${r.action} ${r.target ?? ""}`)).toEqual([]);
  expect(doubled.map((r) => `${r.id} ${r.action}`)).toEqual([]);
  await compliance.dispose();
});
