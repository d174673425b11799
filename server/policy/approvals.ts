import "server-only";
// Whether one more approval counts, pure: never the requester's, never a second one from the same person,
// and only from a role the decision still needs. The approval gate (server/workflows/approval-gate.ts)
// applies it under the withdrawal's row lock, so two approvals at once are judged one after the other.
import { DomainError } from "@/lib/api/errors";
import { missingApprovals, stillNeededWords, type GivenApproval, type Requirement } from "@/lib/policy";
import type { Role } from "@/lib/rbac";

export type ApprovalStep = {
  /** This approval meets the last requirement: the withdrawal is approved and sent. */
  completes: boolean;
  /** What is needed after it, in words; null when it completes. */
  stillNeeded: string | null;
};

export function nextApproval(
  required: readonly Requirement[],
  given: readonly GivenApproval[],
  approver: { email: string; role: Role },
  requestedBy: string,
): ApprovalStep {
  const me = approver.email.toLowerCase();
  if (me === requestedBy.toLowerCase())
    throw new DomainError("own_request", "You requested this withdrawal, so others must approve it");
  if (given.some((g) => g.by.toLowerCase() === me))
    throw new DomainError(
      "approval_not_needed",
      `You approved this withdrawal already; it ${stillNeededWords(required, given) ?? "needs nothing more"} ` +
        `from someone else`,
    );
  const missing = missingApprovals(required, given);
  if (!missing.some((m) => m.role === approver.role)) {
    const needed = stillNeededWords(required, given);
    throw new DomainError(
      "approval_not_needed",
      needed
        ? `This withdrawal ${needed}: a ${approver.role}'s approval is not one of them`
        : "This withdrawal needs no more approvals",
    );
  }
  const after = [...given, { by: approver.email, role: approver.role }];
  const stillNeeded = stillNeededWords(required, after);
  return { completes: stillNeeded === null, stillNeeded };
}
