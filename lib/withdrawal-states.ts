// The withdrawal request's state machine as both sides need it: its states and when an unsettled one may be
// reconciled. The server's transitions live in server/workflows/withdrawal-requests.ts. Isomorphic.

export const WITHDRAWAL_STATES = [
  "requested",
  "approved",
  "submitted",
  "confirmed",
  "failed",
  "unknown",
  "rejected",
  "cancelled",
] as const;
export type WithdrawalState = (typeof WITHDRAWAL_STATES)[number];

/**
 * Each state in words that claim no more than is known. "confirmed" (the stored name) only means the
 * platform accepted the order and gave its order ID: not that the coins arrived on chain.
 */
export const STATE_LABELS: Readonly<Record<WithdrawalState, string>> = {
  requested: "requested",
  approved: "approved, being sent",
  submitted: "sent, no answer yet",
  confirmed: "accepted by the platform",
  failed: "refused by the platform",
  unknown: "outcome unknown",
  rejected: "rejected",
  cancelled: "cancelled by the requester",
};

/** The tone each state is shown in (components/ui/badge.tsx), wherever a withdrawal's state is shown. */
export const STATE_TONES = {
  requested: "info",
  approved: "info",
  submitted: "warn",
  confirmed: "ok",
  failed: "error",
  unknown: "warn",
  rejected: "neutral",
  cancelled: "neutral",
} as const satisfies Record<WithdrawalState, "info" | "warn" | "ok" | "error" | "neutral">;

/**
 * A submit "submitted" this long without an outcome belongs to a process that died mid-call; a reconcile may
 * take it over. Far above the platform client's timeout, so a live call is never overtaken.
 */
export const STALE_SUBMIT_MS = 5 * 60_000;
/**
 * An "approved" row is claimed for sending by its approver within milliseconds; left longer, its send was
 * never recorded (the audit intent could not be written), so nothing left and a reconcile may send it.
 */
export const STALE_APPROVED_MS = 30_000;

/** Whether reconcile may (re)send: outcome unknown, or a send that was left behind (see the STALE_* times). */
export function isReconcilable(
  w: { state: WithdrawalState; submittedAt: string | null; approvedAt: string | null },
  now: number,
): boolean {
  const age = (at: string | null) => (at === null ? 0 : now - Date.parse(at));
  if (w.state === "unknown") return true;
  if (w.state === "submitted") return age(w.submittedAt) > STALE_SUBMIT_MS;
  if (w.state === "approved") return age(w.approvedAt) > STALE_APPROVED_MS;
  return false;
}
