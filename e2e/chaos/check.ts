// The chaos run's checker: invariants over the recorded history and the final state of the database and of the
// simulator (the platform), once the faults have stopped and every reconcile has run.
import Big from "big.js";
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
};

export async function checkChaosRun(run: {
  db: Db;
  sim: Simulator;
  history: HistoryEvent[];
  initial: Record<string, string>;
}): Promise<{ problems: string[]; counts: Record<string, number | string> }> {
  const { db, sim, history } = run;
  const problems: string[] = [];
  const withdrawals = (await db.query<Withdrawal>("SELECT * FROM withdrawal_requests")).rows;
  const byOid = new Map(withdrawals.map((w) => [w.client_oid, w]));
  const records = sim.state.withdrawals().filter((r) => r.clientOid && byOid.has(r.clientOid));

  // 1. Each withdrawal reached the platform at most once, and only after another person approved it.
  const perOid = new Map<string, number>();
  for (const r of records) perOid.set(r.clientOid!, (perOid.get(r.clientOid!) ?? 0) + 1);
  for (const [oid, n] of perOid) if (n > 1) problems.push(`${oid} was carried out ${n} times`);
  for (const r of records) {
    const w = byOid.get(r.clientOid!)!;
    if (!w.approved_by || w.approved_by.toLowerCase() === w.requested_by.toLowerCase())
      problems.push(`${w.id} reached the platform without another person's approval`);
    if (w.state !== "confirmed" || w.platform_order_id !== r.orderId)
      problems.push(`${w.id} is on the platform (order ${r.orderId}) but Brokerdesk says ${w.state}`);
  }
  for (const w of withdrawals)
    if (w.state === "confirmed" && !perOid.has(w.client_oid))
      problems.push(`${w.id} is confirmed but the platform has no such order`);

  // 2. The platform's balances equal the start less what was carried out.
  for (const [uid, start] of Object.entries(run.initial)) {
    const paid = records.filter((r) => r.subUid === uid).reduce((sum, r) => sum.plus(r.amount), new Big(0));
    const now = sim.state.balancesOf(uid).get("USDT")?.available;
    if (!now || !new Big(start).minus(paid).eq(now))
      problems.push(`${uid}: balance ${now?.toString()} is not ${start} less ${paid.toString()} carried out`);
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

  const interrupted = await db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM audit_log WHERE outcome = 'interrupted'",
  );
  const count = (f: (e: HistoryEvent) => boolean) => history.filter(f).length;
  return {
    problems,
    counts: {
      operations: history.length,
      requests: count((e) => e.op === "request" && e.ok),
      approvals: count((e) => e.op === "approve" && e.ok),
      answeredUnknown: count((e) => e.ok && e.result === "unknown"),
      refused: count((e) => !e.ok),
      withdrawals: withdrawals.length,
      carriedOut: records.length,
      auditRows: chain.rows,
      interruptedIntents: interrupted.rows[0]!.n,
    },
  };
}
