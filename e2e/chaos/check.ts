// The chaos run's checker: invariants over the recorded history and the final state of the database and of the
// simulator (the platform), once the faults have stopped, every reconcile has run and the ledger's sync has
// caught up. Each problem is one line naming what broke; none is the run's verdict.
import Big from "big.js";
import { catalog, type OperationId } from "@/lib/platform/catalog";
import { DEFAULT_ACTION, type Requirement } from "@/lib/policy";
import { verifyAuditChain } from "@/server/audit";
import type { Db } from "@/server/db";
import type { Simulator } from "@/server/simulator";
import type { HistoryEvent } from "./instance";

type Withdrawal = {
  id: string;
  client_oid: string;
  sub_uid: string;
  amount: string;
  state: string;
  requested_by: string;
  approved_by: string | null;
  platform_order_id: string | null;
  policy_approvals: Requirement[] | null;
  policy_rule: string | null;
};
type Approval = { withdrawal_id: string; approver: string; role: string; at: number };

export type ChaosRunFacts = {
  db: Db;
  sim: Simulator;
  history: HistoryEvent[];
  initial: Record<string, string>;
  /** Deposits of the desks pending when the run began: credited to their balances as they settle. */
  pendingAtStart: Set<string>;
  /** The wall-clock time at which the platform's clock read `simMs` (its clock moves: run.ts). */
  wallOf: (simMs: number) => number;
  /** What the nemesis did, by kind. */
  nemesis: Record<string, number>;
};

export async function checkChaosRun(run: ChaosRunFacts): Promise<{
  problems: string[];
  counts: Record<string, number | string>;
}> {
  const { db, sim, history } = run;
  const problems: string[] = [];
  const withdrawals = (await db.query<Withdrawal>("SELECT * FROM withdrawal_requests")).rows;
  const byOid = new Map(withdrawals.map((w) => [w.client_oid, w]));
  const records = sim.state.withdrawals().filter((r) => r.clientOid && byOid.has(r.clientOid));
  const approvals = (
    await db.query<Approval>(
      `SELECT withdrawal_id, approver, role, (extract(epoch FROM approved_at) * 1000)::float8 AS at
         FROM withdrawal_approvals`,
    )
  ).rows;

  // 1. Each withdrawal reached the platform at most once, and only after the approvals its policy required
  //    (recorded with the request) from distinct people other than the requester.
  const perOid = new Map<string, number>();
  for (const r of records) perOid.set(r.clientOid!, (perOid.get(r.clientOid!) ?? 0) + 1);
  for (const [oid, n] of perOid) if (n > 1) problems.push(`${oid} was carried out ${n} times`);
  for (const r of records) {
    const w = byOid.get(r.clientOid!)!;
    const reached = run.wallOf(r.cTime);
    const before = approvals.filter((a) => a.withdrawal_id === w.id && a.at <= reached + 1);
    const people = new Map<string, string>();
    for (const a of before)
      if (a.approver.toLowerCase() !== w.requested_by.toLowerCase()) people.set(a.approver.toLowerCase(), a.role);
    const required = w.policy_approvals ?? DEFAULT_ACTION.approvals;
    for (const need of required) {
      const got = [...people.values()].filter((role) => role === need.role).length;
      if (got < need.count)
        problems.push(
          `${w.id} reached the platform at ${reached} with ${got} ${need.role} approval(s) of other people, ` +
            `${need.count} required`,
        );
    }
    if (w.state !== "confirmed" || w.platform_order_id !== r.orderId)
      problems.push(`${w.id} is on the platform (order ${r.orderId}) but Brokerdesk says ${w.state}`);
  }
  for (const w of withdrawals)
    if (w.state === "confirmed" && !perOid.has(w.client_oid))
      problems.push(`${w.id} is confirmed but the platform has no such order`);

  // 2. The platform's balances equal the start, plus the deposits that settled since, less what was carried out.
  for (const [uid, start] of Object.entries(run.initial)) {
    const paid = records.filter((r) => r.subUid === uid).reduce((sum, r) => sum.plus(r.amount), new Big(0));
    const credited = sim.state
      .depositsOf(uid)
      .filter((d) => d.coin === "USDT" && d.status === "success" && run.pendingAtStart.has(d.orderId))
      .reduce((sum, d) => sum.plus(d.amount), new Big(0));
    const now = sim.state.balancesOf(uid).get("USDT")?.available;
    if (!now || !new Big(start).plus(credited).minus(paid).eq(now))
      problems.push(`${uid}: balance ${now?.toString()} is not ${start} + ${credited} settled − ${paid} carried out`);
  }

  // 3. Nothing in between once the reconciles have run.
  for (const w of withdrawals)
    if (["approved", "submitted", "unknown"].includes(w.state))
      problems.push(`${w.id} is still ${w.state} after the reconciles`);

  // 4. Every audit intent has exactly one outcome, and the chain verifies.
  const dangling = await db.query<{ id: number; action: string; outcomes: number }>(
    `SELECT i.id::int, i.action, (SELECT count(*)::int FROM audit_log o WHERE o.intent_id = i.id) AS outcomes
       FROM audit_log i WHERE i.outcome = 'intent'`,
  );
  for (const r of dangling.rows)
    if (r.outcomes !== 1) problems.push(`audit intent ${r.id} (${r.action}) has ${r.outcomes} outcomes`);
  const chain = await verifyAuditChain(db);
  if (!chain.ok) problems.push(`audit chain broken at ${chain.brokenAt}: ${chain.reason}`);

  // 5. What the history says was accepted by the platform is on the platform.
  const oidOf = new Map(withdrawals.map((w) => [w.id, w.client_oid]));
  for (const e of history)
    if (e.ok && e.result === "confirmed" && e.id && !perOid.has(oidOf.get(e.id) ?? ""))
      problems.push(`${e.instance} answered ${e.op} of ${e.id} confirmed, but the platform has no such order`);

  // 6. The summed rate of every instance per operation never exceeded the platform's limit (the simulator's own
  //    limiter is off, so it counts every request that reached it, over the limit or not).
  const peaks: string[] = [];
  for (const [op, s] of Object.entries(sim.stats().operations)) {
    const limit = catalog[op as OperationId]?.rateLimit.count;
    if (!s || limit === undefined) continue;
    peaks.push(`${op} ${s.peakPerSecond}/${limit}`);
    if (s.peakPerSecond > limit)
      problems.push(
        `${op}: ${s.peakPerSecond} requests reached the platform within one second, limit ${limit} ` +
          `(the busiest second began at ${new Date(busiestSecond(s.acceptedTimes)).toISOString()})`,
      );
  }

  // 7. The ledger equals the platform's records by ID (and status), once its sync has caught up.
  const ledger = await db.query<{ order_id: string; sub_uid: string; status: string }>(
    "SELECT order_id, sub_uid, status FROM ledger_deposits",
  );
  const held = new Map(ledger.rows.map((r) => [r.order_id, `${r.sub_uid}:${r.status}`]));
  let deposits = 0;
  for (const uid of Object.keys(run.initial)) {
    for (const d of sim.state.depositsOf(uid)) {
      deposits++;
      const mine = held.get(d.orderId);
      if (mine !== `${uid}:${d.status}`)
        problems.push(
          `deposit ${d.orderId} of ${uid} is ${d.status} on the platform, ${mine ?? "absent"} in the ledger`,
        );
      held.delete(d.orderId);
    }
  }
  for (const [id, what] of held) problems.push(`the ledger holds deposit ${id} (${what}) the platform does not`);

  const interrupted = await db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM audit_log WHERE outcome = 'interrupted'",
  );
  const count = (f: (e: HistoryEvent) => boolean) => history.filter(f).length;
  return {
    problems: problems.length > 40 ? [...problems.slice(0, 40), `… and ${problems.length - 40} more`] : problems,
    counts: {
      operations: history.length,
      withdrawals: withdrawals.length,
      approvals: approvals.length,
      // Which of the policy's rules decided the withdrawals (no rule: the default, one lead).
      byRule: Object.entries(
        withdrawals.reduce<Record<string, number>>((m, w) => {
          const k = w.policy_rule ?? "default";
          m[k] = (m[k] ?? 0) + 1;
          return m;
        }, {}),
      )
        .map(([k, n]) => `${k} ×${n}`)
        .join(", "),
      carriedOut: records.length,
      answeredUnknown: count((e) => e.ok && e.result === "unknown"),
      refused: count((e) => !e.ok),
      refusedBy: Object.entries(
        history
          .filter((e) => !e.ok)
          .reduce<Record<string, number>>((m, e) => {
            const k = `${e.op} ${e.result}`;
            m[k] = (m[k] ?? 0) + 1;
            return m;
          }, {}),
      )
        .map(([k, n]) => `${k} ×${n}`)
        .join(", "),
      addressBook: count((e) => e.op.startsWith("destination.") && e.ok),
      exports: count((e) => e.op === "export" && e.ok),
      ledgerDeposits: deposits,
      ...run.nemesis,
      peakPerSecond: peaks.join(", "),
      auditRows: chain.rows,
      interruptedIntents: interrupted.rows[0]!.n,
      problems: problems.length,
    },
  };
}

/** When the second with the most of these sorted times began (to set beside the nemesis's timed actions). */
function busiestSecond(times: readonly number[]): number {
  let best = 0;
  let at = times[0] ?? 0;
  for (let lo = 0, hi = 0; hi < times.length; hi++) {
    while (times[lo]! <= times[hi]! - 1_000) lo++;
    if (hi - lo + 1 > best) [best, at] = [hi - lo + 1, times[lo]!];
  }
  return at;
}
