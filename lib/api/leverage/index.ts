// Brokerdesk's leverage routes: the accounts a lead may set leverage for, a single change under the leverage
// policy (E10 signed by the chosen account's key, written to the record from the platform's answer), the changes
// waiting for a second lead and their decisions, and the record. Isomorphic.
import * as z from "zod/mini";
import "@/lib/zod-english";
import { checkLeverageBound, leverageSetFields, leverageSettingSchema } from "@/lib/platform/catalog/futures";
import { defineResource } from "../define-resource";
import { PLATFORM_ERRORS } from "../errors";
import { leverageChangeSchema, leverageRecordResources } from "./record";

export * from "./record";

export const leverageAccountSchema = z.object({
  /** The configured key's name, as X-Platform-Key takes it ("main" for the broker main account). */
  key: z.string(),
  kind: z.enum(["main", "sub-account"]),
  /** The sub-account's UID (its key is named SUB<UID>); null for the main account. */
  uid: z.nullable(z.string()),
  /** The sub-account's name and label in Brokerdesk's registry, when it is there. */
  name: z.nullable(z.string()),
  label: z.nullable(z.string()),
});
export type LeverageAccount = z.output<typeof leverageAccountSchema>;

/** Why a change is made, in words (kept with the record and the audit intent). */
export const leverageReasonSchema = z
  .string({ error: "reason must be text" })
  .check(z.trim())
  .check(z.maxLength(500, { error: "reason must be at most 500 characters" }));

/** The single form: E10's fields, the account whose key signs it, and why. */
export const leverageChangeInputSchema = z
  .object({
    ...leverageSetFields.shape,
    /** The configured key's name ("main", or sub<UID>), as the accounts list gives it. */
    key: z._default(
      z.string().check(z.regex(/^(main|[a-z][a-z0-9]{0,40})$/, { error: "key must name a configured key" })),
      "main",
    ),
    reason: z._default(leverageReasonSchema, ""),
  })
  .check(z.superRefine(checkLeverageBound));
export type LeverageChangeInput = z.output<typeof leverageChangeInputSchema>;
export type LeverageChangeRequest = z.input<typeof leverageChangeInputSchema>;

/** What the single form's route answers: set now (the platform's answer), or waiting for a second lead. */
export const leverageChangeOutcomeSchema = z.union([
  z.object({ state: z.literal("set"), data: leverageSettingSchema }),
  z.object({ state: z.literal("waiting"), change: leverageChangeSchema }),
]);

export const leverageRejectSchema = z.object({
  reason: z
    .string({ error: "reason is required" })
    .check(z.trim())
    .check(z.minLength(3, { error: "reason must be at least 3 characters" }))
    .check(z.maxLength(500, { error: "reason must be at most 500 characters" })),
});

const changeErrors = ["not_found", "own_request", "already_decided", "approver_on_hold"] as const;
const byChange = { target: (_input: unknown, p: { id: string }) => `leverage-change:${p.id}` };

export const leverageResources = {
  accounts: defineResource({
    id: "leverage.accounts",
    method: "GET",
    path: "/api/leverage/accounts",
    summary:
      "The accounts whose leverage the caller may set: the main account, and each sub-account with a " +
      "configured key the caller's role may choose",
    permission: "leverage.write",
    output: z.object({ items: z.array(leverageAccountSchema) }),
    errors: [],
  }),
  change: defineResource({
    id: "leverage.change",
    method: "POST",
    path: "/api/leverage/set",
    summary:
      "Set a futures symbol's leverage (E10) on the main account or a sub-account with a configured key, under the " +
      "leverage policy: allowed changes are sent and written to the record from the platform's answer; a change " +
      "the policy gives a second lead waits for one; one beyond its maximum is refused on its field (400)",
    permission: "leverage.write",
    input: leverageChangeInputSchema,
    output: leverageChangeOutcomeSchema,
    // Audited inside: the intent of E10 right before the call (leverage.set), or the waiting request's row.
    errors: [...PLATFORM_ERRORS, "leverage_refused", "platform_key_forbidden"],
  }),
  approve: defineResource({
    id: "leverage.approve",
    method: "POST",
    path: "/api/leverage/changes/{id}/approve",
    summary: "Approve a leverage change another lead asked for; sends it (E10) and writes the record",
    permission: "leverage.write",
    output: leverageChangeSchema,
    audit: byChange,
    freshFactor: true,
    errors: [...changeErrors, "mfa_stale", ...PLATFORM_ERRORS],
  }),
  reject: defineResource({
    id: "leverage.reject",
    method: "POST",
    path: "/api/leverage/changes/{id}/reject",
    summary: "Reject a leverage change another lead asked for; nothing is sent",
    permission: "leverage.write",
    input: leverageRejectSchema,
    output: leverageChangeSchema,
    audit: byChange,
    errors: changeErrors,
  }),
  withdraw: defineResource({
    id: "leverage.withdraw",
    method: "POST",
    path: "/api/leverage/changes/{id}/withdraw",
    summary: "Withdraw one's own leverage change while it waits; nothing is sent",
    permission: "leverage.write",
    output: leverageChangeSchema,
    audit: byChange,
    errors: ["not_found", "forbidden", "already_decided"],
  }),
  ...leverageRecordResources,
} as const;
