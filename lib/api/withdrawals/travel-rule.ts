// The Travel Rule's part of a withdrawal request: what the requester says of the beneficiary, and either the
// beneficiary's VASP or the staff member's attestation that the customer controls a self-hosted wallet. The
// originator is not asked for: the server copies it from the sub-account's registry holder. Isomorphic.
import * as z from "zod/mini";
import "@/lib/zod-english";
import { beneficiarySchema, identityPayloadSchema, vaspSchema } from "@/lib/ivms101";
import { defineResource } from "../define-resource";

import { SELF_HOSTED_METHODS } from "./travel-rule-words";

export { SELF_HOSTED_METHODS, SELF_HOSTED_METHOD_WORDS, type SelfHostedMethod } from "./travel-rule-words";

export const travelRuleInputSchema = z
  .object({
    beneficiary: beneficiarySchema,
    beneficiaryVASP: z.optional(z.object({ beneficiaryVASP: vaspSchema })),
    selfHostedWallet: z.optional(
      z.object({
        method: z.enum(SELF_HOSTED_METHODS, { error: `method must be one of ${SELF_HOSTED_METHODS.join(", ")}` }),
        statement: z
          .string({ error: "statement is required" })
          .check(z.trim())
          .check(z.minLength(10, { error: "statement must say what the customer showed (10 characters or more)" }))
          .check(z.maxLength(1000, { error: "statement must be at most 1000 characters" })),
      }),
    ),
  })
  .check(
    z.superRefine((v, ctx) => {
      if (!v.beneficiaryVASP === !v.selfHostedWallet) {
        ctx.addIssue({
          code: "custom",
          path: ["beneficiaryVASP"],
          message: "name the beneficiary's VASP, or record a self-hosted wallet's ownership attestation (one of them)",
        });
      }
    }),
  );
export type TravelRuleInput = z.input<typeof travelRuleInputSchema>;

/**
 * What a form's fields leave behind, taken out: blank text, and the objects and lists that hold nothing else
 * once it is (a field the form no longer shows may leave its parents behind). The request form applies it
 * before the schema; the server judges what an API client sends as sent, so an empty list is named as such.
 */
export function pruneBlank(v: unknown): unknown {
  if (typeof v === "string") return v.trim() === "" ? undefined : v;
  if (Array.isArray(v)) {
    const items = v.map(pruneBlank).filter((x) => x !== undefined);
    return items.length ? items : undefined;
  }
  if (typeof v === "object" && v !== null) {
    const entries = Object.entries(v)
      .map(([k, x]) => [k, pruneBlank(x)] as const)
      .filter(([, x]) => x !== undefined);
    return entries.length ? Object.fromEntries(entries) : undefined;
  }
  return v;
}
export type TravelRuleValues = z.output<typeof travelRuleInputSchema>;

/** What a request keeps: the IVMS101 payload as it was at request time, and how the rule applied. */
export const travelRuleRecordSchema = z.object({
  ivms101: identityPayloadSchema,
  selfHostedWallet: z.nullable(
    z.object({
      method: z.enum(SELF_HOSTED_METHODS),
      statement: z.string(),
      attestedBy: z.string(),
      attestedAt: z.string(),
    }),
  ),
  /** TRAVEL_RULE_THRESHOLD_USDT when requested, and the value the rule was judged on (null: no price that day). */
  thresholdUsdt: z.string(),
  valueUsdt: z.nullable(z.string()),
});
export type TravelRuleRecord = z.infer<typeof travelRuleRecordSchema>;

/**
 * A Travel Rule name of the request that is a party name of the active version of a screening list: compliance's
 * lead (monitoring.read only), exact as the list writes it or normalised (accents, case, punctuation, word order).
 */
export const nameMatchSchema = z.object({
  role: z.enum(["originator", "beneficiary", "beneficiaryVASP"]),
  name: z.string(),
  partyName: z.string(),
  list: z.string(),
  versionId: z.number(),
  match: z.enum(["exact", "normalised"]),
});
export type NameMatchView = z.infer<typeof nameMatchSchema>;

export const travelRuleResources = {
  nameMatches: defineResource({
    id: "withdrawals.name-matches",
    method: "GET",
    path: "/api/withdrawals/{id}/name-matches",
    summary:
      "The request's Travel Rule names that match a listed party's name (exact or normalised) in the lists' " +
      "active versions: compliance's lead, for monitoring roles only",
    permission: "monitoring.read",
    output: z.object({ items: z.array(nameMatchSchema) }),
    errors: ["not_found"],
  }),
  travelRuleExport: defineResource({
    id: "withdrawals.travel-rule-export",
    method: "GET",
    path: "/api/withdrawals/{id}/travel-rule",
    summary:
      "The request's Travel Rule data as an IVMS101 JSON file (its IdentityPayload); the file's SHA-256 is " +
      "recorded in its audit entry",
    permission: "withdrawals.read",
    output: identityPayloadSchema,
    reply: "json-file",
    errors: ["not_found"],
  }),
} as const;
