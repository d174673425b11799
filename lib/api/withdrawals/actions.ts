// The withdrawal routes besides the ledger's list (two-person rule): one request, a sub-account's
// funds, the count waiting for a lead, the decisions (approve, reject, cancel, reconcile) and the CSV export,
// with the approver's and rejecter's inputs and the funds' schemas. Apart from ./ledger so the list
// page does not build them (page weight); ./withdrawals re-exports both. Isomorphic.
import * as z from "zod/mini";
import "@/lib/zod-english";
import { WITHDRAWAL_COINS } from "@/lib/platform/values";
import { defineResource } from "../define-resource";
import { PLATFORM_ERRORS } from "../errors";
import { withdrawalFiltersSchema, withdrawalViewSchema } from "./ledger";

/** The approver retypes both, exactly as stored (no trimming: "10" is not "10.0"). */
export const approveWithdrawalSchema = z.object({
  confirmAmount: z
    .string({ error: "Type the amount to confirm" })
    .check(z.minLength(1, { error: "Type the amount to confirm" })),
  confirmAddress: z
    .string({ error: "Type the address to confirm" })
    .check(z.minLength(1, { error: "Type the address to confirm" })),
});
export type ApproveWithdrawalInput = z.infer<typeof approveWithdrawalSchema>;

export const rejectWithdrawalSchema = z.object({
  reason: z
    .string({ error: "reason is required" })
    .check(z.trim())
    .check(z.minLength(3, { error: "reason must be at least 3 characters" }))
    .check(z.maxLength(500, { error: "reason must be at most 500 characters" })),
});

/** What a sub-account can still withdraw of a coin: the platform's balance minus Brokerdesk's pending requests. */
export const withdrawalFundsQuerySchema = z.object({
  subUid: z
    .string({ error: "subUid is required" })
    .check(z.minLength(1, { error: "subUid is required", abort: true }))
    .check(z.regex(/^\d{1,32}$/, { error: "subUid must be a numeric ID" })),
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

// ---- the routes ---------------------------------------------------------------------------------

const byId = { target: (_input: unknown, p: { id: string }) => `withdrawal:${p.id}` };

/**
 * The routes after the ledger's list and totals (./ledger), in the order `withdrawalResources` lists them.
 */
export const withdrawalActionResources = {
  funds: defineResource({
    id: "withdrawals.funds",
    method: "GET",
    path: "/api/withdrawals/funds",
    summary:
      "A sub-account's available balance of a coin, the sum of its pending requests, and what is left to request",
    permission: "withdrawals.read",
    input: withdrawalFundsQuerySchema,
    output: withdrawalFundsSchema,
    errors: PLATFORM_ERRORS,
  }),
  waiting: defineResource({
    id: "withdrawals.waiting",
    method: "GET",
    path: "/api/withdrawals/waiting",
    summary: "How many requests wait for this lead's decision (others' requests, not yet decided)",
    permission: "withdrawals.approve",
    output: z.object({ waiting: z.number() }),
    errors: [],
  }),
  get: defineResource({
    id: "withdrawals.get",
    method: "GET",
    path: "/api/withdrawals/{id}",
    summary: "One withdrawal request",
    permission: "withdrawals.read",
    output: withdrawalViewSchema,
    errors: ["not_found"],
  }),
  approve: defineResource({
    id: "withdrawals.approve",
    method: "POST",
    path: "/api/withdrawals/{id}/approve",
    summary: "Approve a withdrawal another person requested, retyping its amount and address; sends it (E5)",
    permission: "withdrawals.approve",
    input: approveWithdrawalSchema,
    output: withdrawalViewSchema,
    audit: byId,
    // A fresh second factor before money moves.
    freshFactor: true,
    errors: [
      "not_found",
      "own_request",
      "already_decided",
      "confirmation_mismatch",
      "already_in_progress",
      "approver_on_hold",
      "approval_not_needed",
      "mfa_stale",
    ],
  }),
  reject: defineResource({
    id: "withdrawals.reject",
    method: "POST",
    path: "/api/withdrawals/{id}/reject",
    summary: "Reject a withdrawal another person requested",
    permission: "withdrawals.approve",
    input: rejectWithdrawalSchema,
    output: withdrawalViewSchema,
    audit: byId,
    errors: ["not_found", "own_request", "already_decided", "approver_on_hold", "approval_not_needed"],
  }),
  cancel: defineResource({
    id: "withdrawals.cancel",
    method: "POST",
    path: "/api/withdrawals/{id}/cancel",
    summary:
      "Cancel one's own request while it waits for a decision (nothing was sent; it no longer holds the balance)",
    permission: "withdrawals.write",
    output: withdrawalViewSchema,
    audit: byId,
    errors: ["not_found", "already_decided"],
  }),
  reconcile: defineResource({
    id: "withdrawals.reconcile",
    method: "POST",
    path: "/api/withdrawals/{id}/reconcile",
    summary: "Settle a withdrawal whose outcome is unknown by resending the same request (same clientOid)",
    permission: "withdrawals.approve",
    output: withdrawalViewSchema,
    audit: byId,
    errors: ["not_found", "not_reconcilable", "already_in_progress"],
  }),
  export: defineResource({
    id: "withdrawals.export",
    method: "GET",
    path: "/api/withdrawals/export",
    summary: "The filtered ledger as CSV (one row per request)",
    permission: "withdrawals.read",
    input: withdrawalFiltersSchema,
    output: withdrawalViewSchema,
    reply: "csv",
    errors: ["export_too_large"],
  }),
} as const;
