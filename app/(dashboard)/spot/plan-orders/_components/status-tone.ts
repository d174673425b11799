// A plan order's status as a badge tone: the platform's list (./columns) and the ledger's
// (../_ledger/plan-orders-ledger-view)
// show it alike. Apart from ./columns so the ledger, the page's first view, does not load the platform list's
// columns (page weight).
const STATUS_TONE = { executed: "ok", not_trigger: "info", fail_execute: "error", cancelled: "neutral" } as const;
// Statuses outside the documented four (a sample says "cancel") are shown as sent, in a neutral badge.
export const planOrderStatusTone = (s: string) =>
  s in STATUS_TONE ? STATUS_TONE[s as keyof typeof STATUS_TONE] : "neutral";
