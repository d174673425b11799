// The withdrawal ledger's list (two-person rule): its filters, rows and totals, and the list's and
// the totals' entries. Apart from ./actions (the other routes: one request, a sub-account's funds,
// the decisions) and ./withdrawals (the request form's schema and entry), so the list page builds neither the
// form's rules nor the decisions' (page weight). Isomorphic.
import * as z from "zod/mini";
import "@/lib/zod-english";
import { WITHDRAWAL_COINS, WITHDRAWAL_DESTS } from "@/lib/platform/values";
import { WITHDRAWAL_STATES } from "@/lib/withdrawal-states";
import { defineResource } from "../define-resource";
import { travelRuleRecordSchema } from "./travel-rule";
import {
  blankless,
  coinTotalsField,
  nextCursorField,
  orderedAmounts,
  orderedRange,
  rangeAndPage,
} from "../query-fields";

const amountFilter = (field: string) =>
  blankless(
    z
      .string()
      .check(z.trim())
      .check(z.regex(/^(0|[1-9]\d{0,29})(\.\d{1,30})?$/, { error: `${field} must be a decimal number such as 12.5` })),
  );

/** Ledger filters, shared by the /withdrawals page (URL) and its API (query string). */
export const withdrawalFiltersSchema = z
  .object({
    subUid: blankless(z.string().check(z.regex(/^\d{1,32}$/, { error: "subUid must be a numeric ID" }))),
    coin: blankless(z.enum(WITHDRAWAL_COINS, { error: "coin must be one of the withdrawal coins" })),
    state: blankless(z.enum(WITHDRAWAL_STATES, { error: `state must be one of ${WITHDRAWAL_STATES.join(", ")}` })),
    requestedBy: blankless(z.string().check(z.trim()).check(z.maxLength(254))),
    /** At least / at most this amount (decimal, compared exactly in the database). */
    amountMin: amountFilter("amountMin"),
    amountMax: amountFilter("amountMax"),
    /**
     * The address or recipient UID holds this text: hex (0x…) in any case, anything else as typed (base58 is
     * case-sensitive).
     */
    address: blankless(
      z
        .string()
        .check(z.trim())
        .check(z.maxLength(128, { error: "address must be at most 128 characters" })),
    ),
    ...rangeAndPage,
  })
  .check(orderedRange())
  .check(orderedAmounts("amountMin", "amountMax"));
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
  /**
   * An internal transfer: when the ledger first saw the recipient's deposit settled; null until then (and on chain).
   */
  creditedAt: z.nullable(z.string()),
  /**
   * Whether the destination is approved in the sub-account's address book (a request to one that is not is flagged).
   */
  inAddressBook: z.boolean(),
  submittedAt: z.nullable(z.string()),
  settledAt: z.nullable(z.string()),
  platformOrderId: z.nullable(z.string()),
  errorCode: z.nullable(z.string()),
  errorMsg: z.nullable(z.string()),
  version: z.number(),
  /** What the money-out policy required when it was requested, the approvals given, and what is still needed. */
  policy: z.object({
    /** The published version that decided; null: none was published (the default, one lead). */
    version: z.nullable(z.number()),
    rule: z.string(),
    required: z.array(z.object({ role: z.string(), count: z.number() })),
    approvals: z.array(z.object({ by: z.string(), role: z.string(), at: z.string() })),
    /** "needs one more approval: compliance"; null once nothing more is needed or it was decided. */
    stillNeeded: z.nullable(z.string()),
    /** The amount's USDT value the policy saw; null when the day had no price. */
    valueUsdt: z.nullable(z.string()),
  }),
  /**
   * The Travel Rule's data as it was requested (IVMS101: the originator copied from the registry, the
   * beneficiary, the VASPs) and the self-hosted wallet's attestation; null when the rule did not apply.
   */
  travelRule: z.nullable(travelRuleRecordSchema),
});
export type WithdrawalView = z.infer<typeof withdrawalViewSchema>;

export const withdrawalPageSchema = z.object({ items: z.array(withdrawalViewSchema), nextCursor: nextCursorField });
export type WithdrawalPage = z.infer<typeof withdrawalPageSchema>;

/** The whole filtered set (not a page): its exact count and, per coin, how many and their total amount. */
export const withdrawalSummarySchema = z.object({
  count: z.number(),
  totals: coinTotalsField,
});
export type WithdrawalSummary = z.infer<typeof withdrawalSummarySchema>;

/** The columns of the ledger's CSV export, in order. */
export const WITHDRAWAL_CSV_COLUMNS = [
  "id",
  "clientOid",
  "state",
  "subUid",
  "coin",
  "dest",
  "chain",
  "address",
  "tag",
  "amount",
  "reason",
  "requestedBy",
  "requestedAt",
  "approvedBy",
  "approvedAt",
  "rejectedBy",
  "rejectedAt",
  "rejectReason",
  "submittedAt",
  "settledAt",
  "platformOrderId",
  "errorCode",
  "errorMsg",
  "cancelledAt",
  "creditedAt",
] as const satisfies readonly (keyof WithdrawalView)[];

// ---- the routes ---------------------------------------------------------------------------------

/**
 * The ledger's list and totals; ./index adds the address book's routes, ./actions' and the
 * request to make `withdrawalResources`.
 */
export const withdrawalLedgerResources = {
  list: defineResource({
    id: "withdrawals.list",
    method: "GET",
    path: "/api/withdrawals",
    summary: "The withdrawal ledger, newest first, filtered and keyset-paged",
    permission: "withdrawals.read",
    input: withdrawalFiltersSchema,
    output: withdrawalPageSchema,
    errors: [],
  }),
  summary: defineResource({
    id: "withdrawals.summary",
    method: "GET",
    path: "/api/withdrawals/summary",
    summary: "The filtered ledger's exact count and its totals per coin",
    permission: "withdrawals.read",
    input: withdrawalFiltersSchema,
    output: withdrawalSummarySchema,
    errors: [],
  }),
} as const;
