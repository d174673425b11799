// Brokerdesk's withdrawal routes (two-person rule): the request form and its entry here, the rest in
// ./ledger (which the list page loads without the form's rules). The browser form
// validates with the same schema as the server (STYLE rule 12), so it refuses exactly what the server would.
// Isomorphic.
import * as z from "zod/mini";
import "@/lib/zod-english";
import { withdrawalRequestSchema } from "@/lib/platform/catalog/withdrawals";
import { preprocess } from "@/lib/platform/value-schemas";
import { isKnownChain, KNOWN_CHAINS } from "@/lib/withdrawal-addresses";
import { AMOUNT_MAX_DECIMALS, DEFAULT_CHAINS, XRP_TAG_MAX, tagRuleOf } from "@/lib/withdrawal-chains";
import { defineResource } from "../define-resource";
import { PLATFORM_ERRORS } from "../errors";
import { blankToUndefined } from "../query-fields";
import { destinationResources } from "./destinations";
import { withdrawalScreeningResources } from "./screenings";
import { travelRuleInputSchema, travelRuleResources } from "./travel-rule";
import { withdrawalActionResources } from "./actions";
import { withdrawalLedgerResources, withdrawalViewSchema } from "./ledger";

export * from "./ledger";
export * from "./actions";
export * from "./travel-rule";

const catalogShape = withdrawalRequestSchema.shape;
const optionalTrimmed = (field: string, max: number, pattern?: { re: RegExp; message: string }) =>
  preprocess(
    blankToUndefined,
    z.optional(
      z
        .string({ error: `${field} must be text` })
        .check(z.trim())
        .check(z.maxLength(max, { error: `${field} must be at most ${max} characters` }))
        .check(z.refine((v) => !pattern || pattern.re.test(v), { error: pattern?.message ?? "" })),
    ),
  );

/** The request form: the catalog's E5 fields (without clientOid, which the server mints) plus a reason. */
export const withdrawalFormSchema = z.pipe(
  z
    .object({
      subUid: catalogShape.subUid,
      coin: catalogShape.coin,
      dest: catalogShape.dest,
      chain: optionalTrimmed("chain", 32, {
        re: /^[A-Za-z0-9_-]+$/,
        message: "chain may hold letters, digits, - and _ only",
      }),
      address: z.pipe(
        catalogShape.address,
        z
          .string()
          .check(z.maxLength(128, { error: "address must be at most 128 characters" }))
          .check(z.regex(/^\S+$/, { error: "address must not contain spaces" })),
      ),
      tag: optionalTrimmed("tag", 64),
      amount: catalogShape.amount.check(
        z.refine((v) => (v.split(".")[1]?.length ?? 0) <= AMOUNT_MAX_DECIMALS, {
          error: `amount may have at most ${AMOUNT_MAX_DECIMALS} decimals`,
        }),
      ),
      reason: z
        .string({ error: "reason is required" })
        .check(z.trim())
        .check(z.minLength(3, { error: "reason must be at least 3 characters" }))
        .check(z.maxLength(500, { error: "reason must be at most 500 characters" })),
      /**
       * The Travel Rule's data (IVMS101), for an on-chain request at or above TRAVEL_RULE_THRESHOLD_USDT: the
       * server decides whether it applies (it values the amount) and refuses one without it, naming the field.
       */
      travelRule: z.optional(travelRuleInputSchema),
    })
    .check(
      z.superRefine((v, ctx) => {
        if (v.dest === "internal_transfer") {
          // The catalog's rule, repeated because refinements are not carried by `.shape`.
          if (v.address && !/^\d+$/.test(v.address)) {
            ctx.addIssue({
              code: "custom",
              path: ["address"],
              message: "address must be a numeric UID for an internal transfer",
            });
          } else if (v.address === v.subUid) {
            ctx.addIssue({
              code: "custom",
              path: ["address"],
              message: "address must not be the sending sub-account itself",
            });
          }
          return;
        }
        const chain = v.chain ?? DEFAULT_CHAINS[v.coin];
        if (!isKnownChain(chain)) {
          ctx.addIssue({
            code: "custom",
            path: ["chain"],
            message: `chain ${chain} is not one Brokerdesk can check addresses on (${KNOWN_CHAINS.join(", ")})`,
          });
        }
        // The address itself is checked by the server (server/workflows/address-check.ts): its codecs are too
        // heavy for the browser, and the form shows the server's answer on the address field.
        const rule = tagRuleOf(v.coin);
        if (!rule) return;
        if (!v.tag) {
          ctx.addIssue({
            code: "custom",
            path: ["tag"],
            message: `${v.coin} withdrawals on chain need a ${rule.label.toLowerCase()}`,
          });
        } else if (rule.numeric && (!/^\d{1,10}$/.test(v.tag) || Number(v.tag) > XRP_TAG_MAX)) {
          ctx.addIssue({
            code: "custom",
            path: ["tag"],
            message: `${rule.label} must be a whole number from 0 to ${XRP_TAG_MAX}`,
          });
        }
      }),
    ),
  z.transform((v) => ({
    ...v,
    // Stored explicitly: on chain, an empty chain means the coin's default; an internal transfer has no chain or tag.
    chain: v.dest === "on_chain" ? (v.chain ?? DEFAULT_CHAINS[v.coin]) : undefined,
    tag: v.dest === "on_chain" ? v.tag : undefined,
    // An internal transfer stays within the broker (one VASP): the Travel Rule does not apply.
    travelRule: v.dest === "on_chain" ? v.travelRule : undefined,
  })),
);
export type WithdrawalFormInput = z.input<typeof withdrawalFormSchema>;
export type WithdrawalFormValues = z.output<typeof withdrawalFormSchema>;

// ---- the routes ---------------------------------------------------------------------------------

/**
 * The address book's routes (./destinations), the ledger's (./ledger, ./actions) and
 * the request.
 */
export const withdrawalResources = {
  ...destinationResources,
  ...withdrawalLedgerResources,
  ...withdrawalActionResources,
  ...travelRuleResources,
  ...withdrawalScreeningResources,
  request: defineResource({
    id: "withdrawals.request",
    method: "POST",
    path: "/api/withdrawals",
    summary:
      "Request a withdrawal (saved with a fresh clientOid and what the money-out policy requires; " +
      "nothing is sent until others approve)",
    permission: "withdrawals.write",
    input: withdrawalFormSchema,
    output: withdrawalViewSchema,
    audit: { target: (i) => `subaccount:${i.subUid}` },
    errors: [...PLATFORM_ERRORS, "policy_blocked"],
  }),
} as const;
