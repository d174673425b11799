import "server-only";
// Who may decide what another person asked for (a withdrawal, an address-book entry): one place, so every
// decision holds to the same rules. Separation of duties first (never one's own request), then the
// decider's standing (an account an admin set up, or whose factors an admin reset, is on approver hold:
// server/auth/approver-standing.ts). The fresh second factor is the route's (lib/api: freshFactor).
import { DomainError } from "@/lib/api/errors";
import { env } from "@/lib/env";
import { approverStanding } from "@/server/auth/approver-standing";
import type { StaffSession } from "@/server/auth/session";
import { findUserById } from "@/server/auth/users";
import type { Queryable } from "@/server/db";
import type { Requirement } from "@/lib/policy";
import type { Role } from "@/lib/rbac";
import { nextApproval, type ApprovalStep } from "@/server/policy/approvals";

/** Refuses the person who asked for something deciding on it (`own_request`), naming what they asked for. */
export function refuseOwn(requestedBy: string, session: StaffSession, message: string): void {
  if (requestedBy.toLowerCase() === session.email.toLowerCase()) throw new DomainError("own_request", message);
}

/**
 * Refuses an account on approver hold (`approver_on_hold`, saying until when and why), or one that no longer exists.
 */
export async function refuseOnHold(db: Queryable, session: StaffSession): Promise<void> {
  const user = await findUserById(db, session.userId);
  if (!user) throw new DomainError("forbidden", "Your staff account no longer exists");
  const standing = approverStanding(user, Date.now(), env.approverCoolOffMs);
  if (!standing.mayApprove)
    throw new DomainError("approver_on_hold", standing.reason ?? "This account may not approve yet");
}

/** One approval already given to a withdrawal. */
export type ApprovalRow = { by: string; role: Role; at: string };

/** The approvals a withdrawal has been given, oldest first. */
export async function approvalsOf(db: Queryable, withdrawalId: string): Promise<ApprovalRow[]> {
  const { rows } = await db.query<{ approver: string; role: Role; approved_at: Date | string }>(
    "SELECT approver, role, approved_at FROM withdrawal_approvals " +
      "WHERE withdrawal_id = $1 ORDER BY approved_at, approver",
    [withdrawalId],
  );
  return rows.map((r) => ({ by: r.approver, role: r.role, at: new Date(r.approved_at).toISOString() }));
}

/**
 * The one gate before an approval of a withdrawal counts. Called under the withdrawal's row lock, after
 * refuseOwn and refuseOnHold; what the money-out policy required when it was requested decides whose
 * approval still counts (server/policy/approvals.ts). A check that stops every approval of a withdrawal
 * (a monitoring hold on its sub-account) belongs here too, before the policy's.
 */
export async function approvalGate(
  db: Queryable,
  session: StaffSession,
  withdrawal: { id: string; requestedBy: string; required: readonly Requirement[] },
): Promise<ApprovalStep> {
  const given = await approvalsOf(db, withdrawal.id);
  return nextApproval(withdrawal.required, given, session, withdrawal.requestedBy);
}
