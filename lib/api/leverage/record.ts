// The leverage record's list (what each account was last set to through Brokerdesk: the platform has no
// operation that reads leverage back) and the single changes waiting for a second lead: filters, rows and
// entries. Isomorphic.
import * as z from "zod/mini";
import "@/lib/zod-english";
import { PRODUCT_TYPES } from "@/lib/platform/values";
import { defineResource } from "../define-resource";
import { blankless, msTimeFilter, nextCursorField, pageCursor, pageLimit } from "../query-fields";

const wholeLeverage = (field: string) =>
  blankless(
    z.pipe(
      z.string().check(z.regex(/^[1-9]\d{0,2}$/, { error: `${field} must be a whole number from 1 to 999` })),
      z.transform(Number),
    ),
  );

/** The record's filters, shared by /leverage (URL), the sub-account's page and the API (query string). */
export const leverageRecordFiltersSchema = z
  .object({
    subUid: blankless(z.string().check(z.regex(/^\d{1,32}$/, { error: "subUid must be a numeric ID" }))),
    /** "main" for the broker main account, or a sub-account key's name (sub<UID>). */
    account: blankless(
      z.string().check(z.regex(/^(main|sub\d{1,32})$/, { error: "account must be main or sub<UID>" })),
    ),
    symbol: blankless(
      z
        .string()
        .check(z.trim())
        .check(z.regex(/^[A-Za-z0-9]{1,32}$/, { error: "symbol must be letters and digits, e.g. BTCUSDT" }))
        .check(z.toUpperCase()),
    ),
    productType: blankless(z.enum(PRODUCT_TYPES, { error: `productType must be one of ${PRODUCT_TYPES.join(", ")}` })),
    /** Leverage (of the row's margin mode: cross, or the higher side) strictly above / below this. */
    above: wholeLeverage("above"),
    below: wholeLeverage("below"),
    /** Set strictly before this time (Unix milliseconds). */
    before: msTimeFilter("before"),
    cursor: pageCursor,
    limit: pageLimit,
  })
  .check(
    z.refine((f) => f.above === undefined || f.below === undefined || f.above < f.below - 1, {
      path: ["below"],
      error: "below must be more than one above above: no whole leverage lies between them",
    }),
  );
export type LeverageRecordFiltersInput = z.input<typeof leverageRecordFiltersSchema>;
export type LeverageRecordFilters = z.output<typeof leverageRecordFiltersSchema>;

/** One row of the record, times ISO 8601 UTC. */
export const leverageRecordRowSchema = z.object({
  account: z.string(),
  subUid: z.nullable(z.string()),
  productType: z.string(),
  symbol: z.string(),
  marginCoin: z.string(),
  marginMode: z.string(),
  longLeverage: z.string(),
  shortLeverage: z.string(),
  crossLeverage: z.string(),
  /** The leverage that applies in the row's margin mode (cross; isolated: the higher side). */
  leverage: z.string(),
  requested: z.string(),
  setBy: z.string(),
  setAt: z.string(),
  reason: z.string(),
  intentId: z.nullable(z.string()),
  planId: z.nullable(z.string()),
});
export type LeverageRecordRow = z.output<typeof leverageRecordRowSchema>;

export const LEVERAGE_CHANGE_STATES = ["waiting", "approved", "sent", "failed", "rejected", "withdrawn"] as const;

/** A single change the policy sent to a second lead. */
export const leverageChangeSchema = z.object({
  id: z.string(),
  account: z.string(),
  subUid: z.nullable(z.string()),
  productType: z.string(),
  symbol: z.string(),
  leverage: z.string(),
  marginCoin: z.string(),
  holdSide: z.nullable(z.string()),
  reason: z.string(),
  requestedBy: z.string(),
  requestedAt: z.string(),
  policyRule: z.string(),
  why: z.string(),
  state: z.enum(LEVERAGE_CHANGE_STATES),
  decidedBy: z.nullable(z.string()),
  decidedAt: z.nullable(z.string()),
  rejectReason: z.nullable(z.string()),
  failure: z.nullable(z.string()),
});
export type LeverageChangeView = z.output<typeof leverageChangeSchema>;

export const leverageChangesQuerySchema = z.object({
  state: blankless(
    z.enum(LEVERAGE_CHANGE_STATES, { error: `state must be one of ${LEVERAGE_CHANGE_STATES.join(", ")}` }),
  ),
  subUid: blankless(z.string().check(z.regex(/^\d{1,32}$/, { error: "subUid must be a numeric ID" }))),
});

export const leverageRecordResources = {
  record: defineResource({
    id: "leverage.record",
    method: "GET",
    path: "/api/leverage/record",
    summary:
      "The leverage record: what each account, symbol and margin mode was last set to through Brokerdesk (E10's " +
      "answer), with who, when and why; newest first, keyset paged. The platform cannot be read back.",
    // Whoever reads the registry reads what its accounts were set to (the sub-account's page shows it).
    permission: "subaccounts.read",
    input: leverageRecordFiltersSchema,
    output: z.object({ items: z.array(leverageRecordRowSchema), nextCursor: nextCursorField }),
    errors: [],
  }),
  changes: defineResource({
    id: "leverage.changes",
    method: "GET",
    path: "/api/leverage/changes",
    summary: "Single leverage changes the policy sent to a second lead, newest first (waiting ones by default)",
    permission: "leverage.write",
    input: leverageChangesQuerySchema,
    output: z.object({ items: z.array(leverageChangeSchema) }),
    errors: [],
  }),
} as const;
