import "server-only";
// Holds on money out. A rule version marked as holding raises alerts that stop the approval of the
// sub-account's withdrawals while any is open; compliance clears them (case.ts) with a reason, or the
// withdrawal is rejected. A decision that lets money go (an approval, the claim of an approved request for
// sending) asks `refuseHeldInTransaction`, under its row lock, and nothing else.
import { DomainError } from "@/lib/api/errors";
import type { HoldsView } from "@/lib/api/monitoring";
import type { Db, Queryable } from "@/server/db";
import { HELD_BY_COMPLIANCE, readsCompliance } from "@/lib/api/audit/confidential";
import { can, type Role } from "@/lib/rbac";
import { logger } from "@/server/log";
import { evaluateScope } from "./evaluate";

export type Hold = { alertId: string; ruleName: string; severity: string; caseId: string | null; raisedAt: string };

/**
 * Screens the sub-account's withdrawal requests against the active withdrawal rules (idempotent: what a
 * request already raised is not raised again), then answers its open holding alerts. Screening here as
 * well as at request time means a request whose screening failed then is still screened before approval.
 */
export async function holdsOn(db: Db, subUid: string): Promise<Hold[]> {
  await screenWithdrawals(db, subUid, null);
  return openHolds(db, subUid);
}

/** The sub-account's open holding alerts as they stand (no screening). */
export async function openHolds(db: Queryable, subUid: string): Promise<Hold[]> {
  const { rows } = await db.query<{
    id: string;
    name: string;
    severity: string;
    case_id: string | null;
    raised_at: Date;
  }>(
    `SELECT a.id::text, r.name, a.severity, a.case_id::text, a.raised_at FROM monitoring_alerts a
       JOIN monitoring_rules r ON r.id = a.rule_id
      WHERE a.sub_uid = $1 AND a.holds AND a.status = 'open' ORDER BY a.raised_at, a.id`,
    [subUid],
  );
  return rows.map((r) => ({
    alertId: r.id,
    ruleName: r.name,
    severity: r.severity,
    caseId: r.case_id,
    raisedAt: new Date(r.raised_at).toISOString(),
  }));
}

/**
 * The held sub-accounts a viewer may know of (the approval queue's and the requester's notice). With
 * `monitoring.read`: every one, its rules and case. Without it, no rule and no case, only sub-accounts that have a
 * request waiting: a lead's (who approves) every such one; anyone else's only those of their own requests.
 */
export async function listHolds(db: Db, viewer: { email: string; role: Role }): Promise<HoldsView> {
  if (readsCompliance(viewer.role)) {
    const { rows } = await db.query<{ sub_uid: string; rules: string[]; case_id: string | null }>(
      `SELECT a.sub_uid, array_agg(DISTINCT r.name ORDER BY r.name) AS rules, min(a.case_id::text) AS case_id
         FROM monitoring_alerts a JOIN monitoring_rules r ON r.id = a.rule_id
        WHERE a.holds AND a.status = 'open' GROUP BY a.sub_uid ORDER BY a.sub_uid`,
    );
    return { items: rows.map((r) => ({ subUid: r.sub_uid, rules: r.rules, caseId: r.case_id })) };
  }
  const { rows } = await db.query<{ sub_uid: string }>(
    `SELECT DISTINCT w.sub_uid FROM withdrawal_requests w
      WHERE w.state = 'requested' AND ($2 OR lower(w.requested_by) = lower($1))
        AND EXISTS (SELECT 1 FROM monitoring_alerts a WHERE a.sub_uid = w.sub_uid AND a.holds AND a.status = 'open')
      ORDER BY w.sub_uid`,
    [viewer.email, can(viewer.role, "withdrawals.approve")],
  );
  return { items: rows.map((r) => ({ subUid: r.sub_uid })) };
}

/**
 * Throws `withdrawal_held` when the sub-account has an open holding alert. The message names no rule, case or
 * alert: whoever approves may not read monitoring (lib/api/audit/confidential.ts).
 */
export async function refuseHeld(db: Db, subUid: string): Promise<void> {
  throwIfHeld(await holdsOn(db, subUid));
}

/**
 * The hold check of a decision that lets money go, in the decision's own transaction (`tx`), after its row
 * lock: takes the sub-account's hold lock, then reads its open holding alerts (no screening: the caller
 * screened before its transaction, server/workflows/withdrawal-screening.ts). Every insert of a holding alert
 * takes the same lock, shared (migration 0070's trigger), so a holding alert either committed before this
 * read and is seen, or waits until the decision has committed: none can slip in between the check and the
 * commit. Throws `withdrawal_held` as refuseHeld does.
 */
export async function refuseHeldInTransaction(tx: Queryable, subUid: string): Promise<void> {
  await tx.query("SELECT pg_advisory_xact_lock(hashtext('monitoring-hold:' || $1::text))", [subUid]);
  throwIfHeld(await openHolds(tx, subUid));
}

function throwIfHeld(holds: Hold[]): void {
  if (!holds.length) return;
  throw new DomainError("withdrawal_held", HELD_BY_COMPLIANCE);
}

/**
 * Pre-approval screening: the active rules over withdrawal requests, for one sub-account's requests since `sinceMs`.
 */
export async function screenWithdrawals(db: Db, subUid: string, sinceMs: number | null): Promise<number> {
  return evaluateScope(db, { subUid, since: sinceMs }, "withdrawals");
}

/** Screening at request time must not lose the request: a failure is logged, and approval screens again. */
export async function screenRequest(db: Db, subUid: string, requestedAtMs: number): Promise<void> {
  await screenWithdrawals(db, subUid, requestedAtMs).catch((e: unknown) =>
    logger.error({ err: e instanceof Error ? e.message : String(e), subUid }, "withdrawal screening failed"),
  );
}
