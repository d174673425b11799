// The kinds of entry in a sub-account's timeline and the filter's choices, without zod (the page's
// filter reads them before the entry loads; ./ledger-timeline builds its schema on them). Isomorphic.

export const TIMELINE_KINDS = [
  "deposit",
  "withdrawal-requested",
  "withdrawal-decided",
  "withdrawal-sent",
  "balance",
  "alert",
  "case-note",
  "audit",
] as const;
export type TimelineKind = (typeof TIMELINE_KINDS)[number];

export const TIMELINE_KIND_WORDS: Record<TimelineKind, string> = {
  deposit: "Deposit",
  "withdrawal-requested": "Withdrawal requested",
  "withdrawal-decided": "Withdrawal decided",
  "withdrawal-sent": "Withdrawal sent",
  balance: "Balance snapshot",
  alert: "Alert",
  "case-note": "Case note",
  audit: "Audit entry",
};

/** The filter's choices: a value is the comma-separated kinds the server is asked for. */
export const TIMELINE_FILTERS = [
  { value: "deposit", label: "Deposits" },
  { value: "withdrawal-requested,withdrawal-decided,withdrawal-sent", label: "Withdrawals" },
  { value: "balance", label: "Balance snapshots" },
  { value: "alert", label: "Alerts" },
  { value: "case-note", label: "Case notes" },
  { value: "audit", label: "Audit entries" },
] as const;
