import "server-only";
// Separation of duties: no one person may both control an approver account and use it
// to approve. An admin who created an account, promoted it into an approving role or set its password
// knows (or chose) its password; until its holder has set one of their own, and a cool-off has passed
// since (long enough for the holder, and the other leads who see it, to notice), it may not approve.
// Admins never approve withdrawals (lib/rbac.ts gives them no withdrawals.approve), but they publish the policy
// and activate and retire monitoring rules: the same standing is asked of every decision (lib/rbac.ts
// DECISION_PERMISSIONS), and promotion to admin starts the hold.
import type { ApproverHold, ApproverStanding, StaffUser } from "@/lib/api/admin/users";
import { env } from "@/lib/env";
import { formatDuration, formatUtc } from "@/lib/format";
import { decides } from "@/lib/rbac";
import { getDb, type Queryable } from "@/server/db";
import { findUserById } from "./users";

const WHY: Record<ApproverHold["reason"], string> = {
  "created-by-admin": "was created by",
  "promoted-by-admin": "was given an approving role by",
  "password-set-by-admin": "had its password set by",
  "factors-reset-by-admin": "had its second factors reset by",
};

export function approverStanding(
  user: Pick<StaffUser, "email" | "name" | "role" | "hasPassword" | "approverHold" | "passwordChangedAt">,
  now: number,
  coolOffMs: number,
): ApproverStanding {
  const base = { email: user.email, name: user.name, role: user.role, hold: user.approverHold };
  const hold = user.approverHold;
  if (!hold) return { ...base, mayApprove: true, reason: null, eligibleFrom: null };
  const heldAt = Date.parse(hold.at);
  const by = hold.by ?? "an administrator";
  const what = `Separation of duties: this account ${WHY[hold.reason]} ${by} on ${formatUtc(heldAt)}`;
  const hours = formatDuration(coolOffMs);
  // A factor reset: the admin never knew the password, but whoever enrols the next factor holds the
  // account. The cool-off from the reset gives its holder (told at their next page) and the other
  // leads time to notice one that was not asked for.
  if (hold.reason === "factors-reset-by-admin") {
    const from = heldAt + coolOffMs;
    if (now >= from) return { ...base, mayApprove: true, reason: null, eligibleFrom: null };
    return {
      ...base,
      mayApprove: false,
      reason: `${what}; it may approve from ${formatUtc(from)}, ${hours} after that reset`,
      eligibleFrom: new Date(from).toISOString(),
    };
  }
  // An account with no password (single sign-on) has nothing to change: the cool-off counts from the change.
  const changed = user.passwordChangedAt ? Date.parse(user.passwordChangedAt) : null;
  if (user.hasPassword && (changed === null || changed <= heldAt)) {
    return {
      ...base,
      mayApprove: false,
      reason: `${what}; it may approve once its holder has changed their own password and ${hours} have passed`,
      eligibleFrom: null,
    };
  }
  const from = (user.hasPassword ? changed! : heldAt) + coolOffMs;
  if (now < from) {
    const eligibleFrom = new Date(from).toISOString();
    return {
      ...base,
      mayApprove: false,
      reason:
        `${what}; it may approve from ${formatUtc(from)}, ${hours} after ` +
        `${user.hasPassword ? "its own password change" : "that change"}`,
      eligibleFrom,
    };
  }
  return { ...base, mayApprove: true, reason: null, eligibleFrom: null };
}

/** A staff member's own row, and, for a role that decides (approves, publishes, works monitoring), their standing. */
export async function loadAccount(
  db: Queryable,
  userId: string,
): Promise<{ user: StaffUser; standing: ApproverStanding | null } | null> {
  const record = await findUserById(db, userId);
  if (!record) return null;
  const { passwordHash: _hash, ...user } = record;
  void _hash;
  return {
    user,
    standing: decides(user.role) ? approverStanding(user, Date.now(), env.approverCoolOffMs) : null,
  };
}

/** The signed-in staff member's own account (the account page reads it through here, not the database). */
export async function loadOwnAccount(userId: string): ReturnType<typeof loadAccount> {
  return loadAccount(await getDb(), userId);
}
