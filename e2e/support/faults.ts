// Fault injection for the reliability specs: rules for the simulator's control endpoint
// (server/simulator/README.md "Fault injection"), what each fault must look like to staff, and the
// audit-log check that every intent got its outcome.
import { expect, type APIRequestContext } from "@playwright/test";
import Big from "big.js";
import { sameOrigin, simControlUrl } from "./staff";

export type FaultRule = {
  path: string;
  kind: "latency" | "status" | "reset" | "malformed" | "rate-limit";
  latencyMs?: number;
  status?: 500 | 502 | 503;
  probability?: number;
  count?: number;
  query?: Record<string, string>;
};

/**
 * The faults a page must survive, each with the words it must show. No `count`: the client retries a GET
 * twice and the browser retries a lost connection once, so a counted fault could be absorbed unseen.
 */
export const PAGE_FAULTS = {
  "status 500": { rule: { kind: "status", status: 500 }, shows: /Platform error 50000: System busy/ },
  "status 503": { rule: { kind: "status", status: 503 }, shows: /Platform error 503: HTTP 503 Service Unavailable/ },
  reset: { rule: { kind: "reset" }, shows: /network error \(ECONNRESET|socket hang up/ },
  malformed: { rule: { kind: "malformed" }, shows: /malformed response \(HTTP 200\)/ },
  "429 storm": { rule: { kind: "rate-limit" }, shows: /Platform error 429: Too Many Requests/ },
} as const satisfies Record<string, { rule: Omit<FaultRule, "path">; shows: RegExp }>;
export type PageFault = keyof typeof PAGE_FAULTS;

/** Replaces the simulator's fault rules. */
export async function setFaults(request: APIRequestContext, rules: FaultRule[]): Promise<void> {
  const res = await request.post(simControlUrl("faults"), { data: rules });
  expect(res.ok(), await res.text()).toBe(true);
}

export async function clearFaults(request: APIRequestContext): Promise<void> {
  const res = await request.delete(simControlUrl("faults"));
  expect(res.ok()).toBe(true);
}

export type OpStats = { requests: number; accepted: number; codes: Record<string, number> };

export async function opStats(request: APIRequestContext, op: string): Promise<OpStats> {
  const body = (await (await request.get(simControlUrl("stats"))).json()) as {
    operations: Record<string, OpStats | undefined>;
  };
  return body.operations[op] ?? { requests: 0, accepted: 0, codes: {} };
}

/** A sub-account's UID from Brokerdesk's registry, by the start of its simulator name (desk01@…). */
export async function subUid(ctx: APIRequestContext, name: string): Promise<string> {
  const res = await ctx.get("/api/sub-accounts");
  expect(res.status()).toBe(200);
  const { items } = (await res.json()) as { items: { subUid: string; subaccountName: string | null }[] };
  const sub = items.find((s) => s.subaccountName?.startsWith(`${name}@`));
  if (!sub) throw new Error(`${name} is not in the registry`);
  return sub.subUid;
}

/** The sub-account's available balance, read through Brokerdesk's E2 proxy. */
export async function available(ctx: APIRequestContext, uid: string, coin = "USDT"): Promise<Big> {
  const res = await ctx.get(`/api/platform/v2/broker/account/subaccount-spot-assets?subUid=${uid}&coin=${coin}`);
  expect(res.status(), await res.text()).toBe(200);
  const body = (await res.json()) as { data: { assetsList: { coin: string; available: string }[] } };
  return new Big(body.data.assetsList.find((a) => a.coin === coin)?.available ?? "0");
}

/** A balance read, and when: what `debitSince` counts from. */
export type BalanceMark = { uid: string; coin: string; amount: Big; at: number };

export async function markBalance(ctx: APIRequestContext, uid: string, coin = "USDT"): Promise<BalanceMark> {
  const amount = await available(ctx, uid, coin);
  // Taken after the read: a deposit that settled while it was answered is in `amount` and settled before `at`.
  return { uid, coin, amount, at: Date.now() };
}

/**
 * What the balance lost since `mark`, with the deposits that settled meanwhile counted back in. The simulator
 * makes the deposits of the 30 minutes before it started pending, and each credits its sub-account 30 minutes
 * after it was made: at any moment of an e2e run, on the busiest desks most often (one read a debit of
 * -7513.26 for a withdrawal of 2.5 when one landed mid-test). A settled deposit's uTime is when it settled.
 */
export async function debitSince(
  ctx: APIRequestContext,
  mark: BalanceMark,
  /** Deposits that are the test's own doing (an internal transfer it made to this sub-account) stay counted as a gain. */
  own: (deposit: { txId: string }) => boolean = () => false,
): Promise<string> {
  const after = await available(ctx, mark.uid, mark.coin);
  const until = Date.now();
  // Made at most the settle time (30 min) before it settles: two hours back covers every one that could.
  const res = await ctx.get(
    `/api/platform/v2/broker/subaccount-deposit?userId=${mark.uid}&startTime=${mark.at - 2 * 3_600_000}&endTime=${until}&limit=100`,
  );
  expect(res.status(), await res.text()).toBe(200);
  const rows = (
    (await res.json()) as { data: { coin: string; status: string; amount: string; uTime: string; txId: string }[] }
  ).data;
  const credited = rows
    .filter(
      (r) =>
        r.coin === mark.coin &&
        r.status === "success" &&
        Number(r.uTime) >= mark.at &&
        Number(r.uTime) <= until &&
        !own(r),
    )
    .reduce((sum, r) => sum.plus(r.amount), new Big(0));
  return mark.amount.minus(after).plus(credited).toString();
}

export type Withdrawal = {
  id: string;
  state: string;
  amount: string;
  address: string;
  clientOid: string;
  platformOrderId: string | null;
  errorCode: string | null;
};

export async function requestWithdrawal(
  ctx: APIRequestContext,
  baseURL: string | undefined,
  data: Record<string, unknown>,
): Promise<Withdrawal> {
  const res = await ctx.post("/api/withdrawals", { headers: sameOrigin(baseURL), data });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as Withdrawal;
}

type AuditRow = {
  id: number;
  action: string;
  outcome: string;
  intentId: number | null;
  target: string | null;
  at: string;
};

/** Every audit row from `sinceMs` on, oldest first (the API pages newest first by cursor). */
export async function auditSince(ctx: APIRequestContext, sinceMs: number): Promise<AuditRow[]> {
  const rows: AuditRow[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 100; page++) {
    const qs = new URLSearchParams({ limit: "500", from: String(sinceMs), ...(cursor ? { cursor } : {}) });
    const res = await ctx.get(`/api/audit?${qs}`);
    expect(res.status(), await res.text()).toBe(200);
    const body = (await res.json()) as { rows: AuditRow[]; nextCursor: string | null };
    rows.push(...body.rows);
    if (body.nextCursor === null) break;
    cursor = body.nextCursor;
  }
  return rows.sort((a, b) => a.id - b.id);
}

/** Pairs intent rows with outcome rows; returns the intents that have none (each should have exactly one). */
export function unpairedIntents(rows: AuditRow[]): { missing: AuditRow[]; doubled: AuditRow[]; intents: number } {
  const outcomes = new Map<number, number>();
  for (const r of rows)
    if (r.intentId !== null && r.outcome !== "intent") outcomes.set(r.intentId, (outcomes.get(r.intentId) ?? 0) + 1);
  const intents = rows.filter((r) => r.outcome === "intent");
  return {
    missing: intents.filter((r) => !outcomes.has(r.id)),
    doubled: intents.filter((r) => (outcomes.get(r.id) ?? 0) > 1),
    intents: intents.length,
  };
}
