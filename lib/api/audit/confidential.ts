// Compliance's work kept from the people it watches (tipping-off: FATF R.21, FinCEN SAR confidentiality).
// Which audit entries carry compliance's reasoning, and the words said instead of it, as data. The server
// (server/audit/confidential.ts) applies them when the log is READ by a role without `monitoring.read`: the
// stored rows are unchanged, so the chain verifies. Isomorphic, no zod.
import type { Role } from "@/lib/rbac";
import { can } from "@/lib/rbac";

/** Who may read compliance's work: notes, outcomes, rule parameters and names, case views, why a request is held. */
export const readsCompliance = (role: Role | null | undefined): boolean => can(role, "monitoring.read");

/** What every confidential action's name starts with (the SQL filters use it too). */
export const CONFIDENTIAL_ACTION_PREFIX = "monitoring.";

/**
 * The audit actions whose entry (intent and outcome) is compliance's own: every `monitoring.*` action, now and
 * later (a rule draft's parameters and name, a note, a case's outcome and view, a hold cleared and why, a
 * withdrawal compliance rejected from a case and why, a snooze, compliance's exports). Others only see that one
 * exists: actor, time, action and outcome.
 */
export function isConfidentialAction(action: string): boolean {
  return action.startsWith(CONFIDENTIAL_ACTION_PREFIX);
}

/**
 * Targets that name compliance's objects: a case, a rule (its name at draft, or its ID and a sub-account at a
 * snooze), a rule version, an alert. Kept as their kind, the ID withheld.
 */
export const CONFIDENTIAL_TARGET_KINDS = ["case", "rule", "rule-version", "alert"] as const;

/** What a withheld ID reads as. */
export const WITHHELD = "[withheld]";

/**
 * The reason a withdrawal compliance rejected from a case is stored with (server/monitoring/case.ts writes
 * `Compliance: <reason>`); whoever does not read monitoring sees only REJECTED_BY_COMPLIANCE.
 */
export const COMPLIANCE_REJECTION_PREFIX = "Compliance: ";
export const REJECTED_BY_COMPLIANCE = "Rejected by compliance";

/** Why an approval is refused while compliance holds the sub-account: no rule, no case, no alert. */
export const HELD_BY_COMPLIANCE =
  "Held by compliance: this withdrawal cannot be approved until compliance decides. Nothing was sent.";

/** The same hold, as the requester of a held request sees it. */
export const WAITING_FOR_COMPLIANCE = "Waiting for compliance";
