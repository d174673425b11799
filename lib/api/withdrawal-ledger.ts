// The withdrawal ledger's routes (two-person rule, issue 6): the approver's and rejecter's inputs, the
// ledger's filters and rows, a sub-account's funds, and one entry per route but the request. Apart from
// ./withdrawals, which adds the request form's schema (E5's fields and the chains' rules) and its entry, so
// the list page does not build the form's rules (issue 15, page weight). Isomorphic.
import * as z from "zod/mini";
import { WITHDRAWAL_COINS, WITHDRAWAL_DESTS } from "@/lib/platform/values";
import { WITHDRAWAL_STATES } from "@/lib/withdrawal-states";
import { defineResource } from "./define-resource";
import { PLATFORM_ERRORS } from "./errors";
import { blankless, msTimeFilter, nextCursorField, pageCursor, pageLimit } from "./query-fields";

/** The approver retypes both, exactly as stored (no trimming: "10" is not "10.0"). */
export const approveWithdrawalSchema = z.object({
  confirmAmount: z.string({ error: "Type the amount to confirm" }).check(z.minLength(1, { error: "Type the amount to confirm" })),
  confirmAddress: z.string({ error: "Type the address to confirm" }).check(z.minLength(1, { error: "Type the address to confirm" })),
});
export type ApproveWithdrawalInput = z.infer<typeof approveWithdrawalSchema>;

export const rejectWithdrawalSchema = z.object({
  reason: z
    .string({ error: "reason is required" }).check(z.trim()).check(z.minLength(3, { error: "reason must be at least 3 characters" })).check(z.maxLength(500, { error: "reason must be at most 500 characters" })),
});

const amountFilter = (field: string) =>
  blankless(z.string().check(z.trim()).check(z.regex(/^(0|[1-9]\d{0,29})(\.\d{1,30})?$/, { error: `${field} must be a decimal number such as 12.5` })));

/** Ledger filters, shared by the /withdrawals page (URL) and its API (query string). */
export const withdrawalFiltersSchema = z.object({
  subUid: blankless(z.string().check(z.regex(/^\d{1,32}$/, { error: "subUid must be a numeric ID" }))),
  coin: blankless(z.enum(WITHDRAWAL_COINS, { error: "coin must be one of the withdrawal coins" })),
  state: blankless(z.enum(WITHDRAWAL_STATES, { error: `state must be one of ${WITHDRAWAL_STATES.join(", ")}` })),
  requestedBy: blankless(z.string().check(z.trim()).check(z.maxLength(254))),
  /** At least / at most this amount (decimal, compared exactly in the database). */
  amountMin: amountFilter("amountMin"),
  amountMax: amountFilter("amountMax"),
  /** The address or recipient UID holds this text (case as typed: addresses are case-sensitive). */
  address: blankless(z.string().check(z.trim()).check(z.maxLength(128, { error: "address must be at most 128 characters" }))),
  from: msTimeFilter("from"),
  to: msTimeFilter("to"),
  limit: pageLimit,
  cursor: pageCursor,
});
export type WithdrawalFiltersInput = z.input<typeof withdrawalFiltersSchema>;

/** A ledger row as the API sends it: amounts as strings, times as ISO 8601 UTC. */
export const withdrawalViewSchema = z.object({
  id: z.string(),
  clientOid: z.string(),
  subUid: z.string(),
  coin: z.string(),
  dest: z.enum(WITHDRAWAL_DESTS),
  chain: z.nullable(z.string()),
  address: z.string(),
  tag: z.nullable(z.string()),
  amount: z.string(),
  reason: z.string(),
  state: z.enum(WITHDRAWAL_STATES),
  requestedBy: z.string(),
  requestedAt: z.string(),
  approvedBy: z.nullable(z.string()),
  approvedAt: z.nullable(z.string()),
  rejectedBy: z.nullable(z.string()),
  rejectedAt: z.nullable(z.string()),
  rejectReason: z.nullable(z.string()),
  cancelledAt: z.nullable(z.string()),
  /** An internal transfer: when the ledger first saw the recipient's deposit settled; null until then (and on chain). */
  creditedAt: z.nullable(z.string()),
  /** Whether the destination is approved in the sub-account's address book (a request to one that is not is flagged). */
  inAddressBook: z.boolean(),
  submittedAt: z.nullable(z.string()),
  settledAt: z.nullable(z.string()),
  platformOrderId: z.nullable(z.string()),
  errorCode: z.nullable(z.string()),
  errorMsg: z.nullable(z.string()),
  version: z.number(),
});
export type WithdrawalView = z.infer<typeof withdrawalViewSchema>;

export const withdrawalPageSchema = z.object({ items: z.array(withdrawalViewSchema), nextCursor: nextCursorField });
export type WithdrawalPage = z.infer<typeof withdrawalPageSchema>;

/** What a sub-account can still withdraw of a coin: the platform's balance minus Brokerdesk's pending requests. */
export const withdrawalFundsQuerySchema = z.object({
  subUid: z.string({ error: "subUid is required" }).check(z.regex(/^\d{1,32}$/, { error: "subUid must be a numeric ID" })),
  coin: z.enum(WITHDRAWAL_COINS, { error: "coin must be one of the withdrawal coins" }),
});
export const withdrawalFundsSchema = z.object({
  subUid: z.string(),
  coin: z.string(),
  /** The platform's available balance, read now (E2). */
  available: z.string(),
  /** The sum of this sub-account's requests of this coin not yet answered by the platform. */
  pending: z.string(),
  pendingCount: z.number(),
  /** available − pending, never below zero: the most a new request may ask for. */
  free: z.string(),
});
export type WithdrawalFunds = z.infer<typeof withdrawalFundsSchema>;
export type WithdrawalFundsQuery = z.input<typeof withdrawalFundsQuerySchema>;

/** The whole filtered set (not a page): its exact count and, per coin, how many and their total amount. */
export const withdrawalSummarySchema = z.object({
  count: z.number(),
  totals: z.array(z.object({ coin: z.string(), count: z.number(), amount: z.string() })),
});
export type WithdrawalSummary = z.infer<typeof withdrawalSummarySchema>;

/** The columns of the ledger's CSV export, in order. */
export const WITHDRAWAL_CSV_COLUMNS = [
  "id", "clientOid", "state", "subUid", "coin", "dest", "chain", "address", "tag", "amount", "reason", "requestedBy", "requestedAt",
  "approvedBy", "approvedAt", "rejectedBy", "rejectedAt", "rejectReason", "submittedAt", "settledAt", "platformOrderId", "errorCode", "errorMsg", "cancelledAt", "creditedAt",
] as const satisfies readonly (keyof WithdrawalView)[];

// ---- the routes ---------------------------------------------------------------------------------

const byId = { target: (_input: unknown, p: { id: string }) => `withdrawal:${p.id}` };

/**
 * Every withdrawal route but the request and the address book's; ./withdrawals adds them to make
 * `withdrawalResources`. The address book's routes (lib/api/withdrawal-destinations.ts) live under
 * /api/withdrawals too, but only the address book calls them, so the ledger's page does not load them.
 */
export const withdrawalLedgerResources = {
  list: defineResource({
    id: "withdrawals.list", method: "GET", path: "/api/withdrawals", summary: "The withdrawal ledger, newest first, filtered and keyset-paged",
    permission: "withdrawals.read", input: withdrawalFiltersSchema, output: withdrawalPageSchema, errors: [],
  }),
  summary: defineResource({
    id: "withdrawals.summary", method: "GET", path: "/api/withdrawals/summary",
    summary: "The filtered ledger's exact count and its totals per coin",
    permission: "withdrawals.read", input: withdrawalFiltersSchema, output: withdrawalSummarySchema, errors: [],
  }),
  funds: defineResource({
    id: "withdrawals.funds", method: "GET", path: "/api/withdrawals/funds",
    summary: "A sub-account's available balance of a coin, the sum of its pending requests, and what is left to request",
    permission: "withdrawals.read", input: withdrawalFundsQuerySchema, output: withdrawalFundsSchema, errors: PLATFORM_ERRORS,
  }),
  waiting: defineResource({
    id: "withdrawals.waiting", method: "GET", path: "/api/withdrawals/waiting",
    summary: "How many requests wait for this lead's decision (others' requests, not yet decided)",
    permission: "withdrawals.approve", output: z.object({ waiting: z.number() }), errors: [],
  }),
  get: defineResource({
    id: "withdrawals.get", method: "GET", path: "/api/withdrawals/{id}", summary: "One withdrawal request",
    permission: "withdrawals.read", output: withdrawalViewSchema, errors: ["not_found"],
  }),
  approve: defineResource({
    id: "withdrawals.approve", method: "POST", path: "/api/withdrawals/{id}/approve",
    summary: "Approve a withdrawal another person requested, retyping its amount and address; sends it (E5)",
    permission: "withdrawals.approve", input: approveWithdrawalSchema, output: withdrawalViewSchema, audit: byId,
    // A fresh second factor before money moves (issue 12 item 2).
    freshFactor: true,
    errors: ["not_found", "own_request", "already_decided", "confirmation_mismatch", "already_in_progress", "approver_on_hold", "mfa_stale"],
  }),
  reject: defineResource({
    id: "withdrawals.reject", method: "POST", path: "/api/withdrawals/{id}/reject", summary: "Reject a withdrawal another person requested",
    permission: "withdrawals.approve", input: rejectWithdrawalSchema, output: withdrawalViewSchema, audit: byId,
    errors: ["not_found", "own_request", "already_decided"],
  }),
  cancel: defineResource({
    id: "withdrawals.cancel", method: "POST", path: "/api/withdrawals/{id}/cancel",
    summary: "Cancel one's own request while it waits for a decision (nothing was sent; it no longer holds the balance)",
    permission: "withdrawals.write", output: withdrawalViewSchema, audit: byId, errors: ["not_found", "already_decided"],
  }),
  reconcile: defineResource({
    id: "withdrawals.reconcile", method: "POST", path: "/api/withdrawals/{id}/reconcile",
    summary: "Settle a withdrawal whose outcome is unknown by resending the same request (same clientOid)",
    permission: "withdrawals.approve", output: withdrawalViewSchema, audit: byId,
    errors: ["not_found", "not_reconcilable", "already_in_progress"],
  }),
  export: defineResource({
    id: "withdrawals.export", method: "GET", path: "/api/withdrawals/export", summary: "The filtered ledger as CSV (one row per request)",
    permission: "withdrawals.read", input: withdrawalFiltersSchema, output: withdrawalViewSchema, reply: "csv", errors: [],
  }),
} as const;
