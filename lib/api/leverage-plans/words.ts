// The words of leverage plans a page needs before any call (filters, badges). Isomorphic, no zod.
export const PLAN_SOURCES = ["filter", "csv", "list"] as const;
export type PlanSource = (typeof PLAN_SOURCES)[number];

/** waiting: for a second lead; ready: may start; running; paused; cancelled; done. */
export const PLAN_STATES = ["waiting", "ready", "running", "paused", "cancelled", "done"] as const;
export type PlanState = (typeof PLAN_STATES)[number];

/**
 * pending: not sent yet; sending: claimed, its call out; done: the platform set it; failed: the platform refused it
 * (or it was not sent for want of rate budget); unknown: its call went out and no answer was recorded (an instance
 * stopped, a timeout): it may have been set, and it is not sent again; no-key: no key of the sub-account, never sent;
 * cancelled: the plan was cancelled before it was sent.
 */
export const TARGET_STATES = ["pending", "sending", "done", "failed", "unknown", "no-key", "cancelled"] as const;
export type TargetState = (typeof TARGET_STATES)[number];

export const TARGET_STATE_WORDS: Record<TargetState, string> = {
  pending: "Not sent yet",
  sending: "Sent, waiting for the answer",
  done: "Set",
  failed: "Refused",
  unknown: "No answer recorded: may have been set, not sent again",
  "no-key": "No key: not sent",
  cancelled: "Cancelled: not sent",
};
