// The originator of a deposit (the Travel Rule on the way in): compliance records what the sending VASP or the
// customer said of who sent it, in IVMS101's shape, on a deposit the ledger holds. A monitoring rule kind
// ("deposit above X without originator data after N days") raises alerts for the deposits that still lack it.
// Isomorphic.
import * as z from "zod/mini";
import "@/lib/zod-english";
import { originatorPersonSchema, vaspSchema } from "@/lib/ivms101";
import { defineResource } from "../define-resource";

const accountNumbers = z
  .array(
    z
      .string({ error: "accountNumber must be text" })
      .check(z.trim())
      .check(z.minLength(1, { error: "accountNumber must not be empty" }))
      .check(z.maxLength(128, { error: "accountNumber must be at most 128 characters" })),
    { error: "accountNumber must be a list" },
  )
  .check(z.maxLength(10, { error: "accountNumber holds at most 10 entries" }));

/** IVMS101's originator, and the originating VASP where the deposit came from one. */
export const depositOriginatorSchema = z.object({
  originatorPersons: z
    .array(originatorPersonSchema, { error: "originatorPersons must be a list" })
    .check(z.minLength(1, { error: "originatorPersons needs at least one person" }))
    .check(z.maxLength(10, { error: "originatorPersons holds at most 10 persons" })),
  accountNumber: z.optional(accountNumbers),
  originatingVASP: z.optional(z.object({ originatingVASP: vaspSchema })),
});

export const depositOriginatorInputSchema = z.object({ originator: depositOriginatorSchema });
export type DepositOriginatorInput = z.input<typeof depositOriginatorInputSchema>;

export const depositOriginatorViewSchema = z.object({
  orderId: z.string(),
  /** Null: nobody recorded the deposit's originator yet. */
  originator: z.nullable(depositOriginatorSchema),
  recordedBy: z.nullable(z.string()),
  recordedAt: z.nullable(z.string()),
});
export type DepositOriginatorView = z.output<typeof depositOriginatorViewSchema>;

export const depositOriginatorResources = {
  originator: defineResource({
    id: "ledger.deposit-originator-read",
    method: "GET",
    path: "/api/ledger/deposits/{orderId}/originator",
    summary: "Who sent the deposit (IVMS101 originator), as compliance recorded it",
    permission: "deposits.read",
    output: depositOriginatorViewSchema,
    errors: ["not_found"],
  }),
  setOriginator: defineResource({
    id: "ledger.deposit-originator",
    method: "PUT",
    path: "/api/ledger/deposits/{orderId}/originator",
    summary: "Record who sent the deposit (IVMS101 originator); a new record replaces the old, each one audited",
    permission: "monitoring.write",
    input: depositOriginatorInputSchema,
    output: depositOriginatorViewSchema,
    audit: { target: (_i, p) => `deposit:${p.orderId}` },
    errors: ["not_found"],
  }),
} as const;
