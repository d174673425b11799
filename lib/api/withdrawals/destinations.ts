// The address book of each sub-account: a destination is asked for by one person and approved
// by another, as a withdrawal is; a withdrawal to a destination not approved here is flagged in the
// approval queue. The same address check per chain as the request form. Isomorphic.
import * as z from "zod/mini";
import "@/lib/zod-english";
import { WITHDRAWAL_DESTS } from "@/lib/platform/values";
import { preprocess } from "@/lib/platform/value-schemas";
import { isKnownChain, KNOWN_CHAINS } from "@/lib/withdrawal-addresses";
import { defineResource } from "../define-resource";
import { blankToUndefined } from "../query-fields";

const text = (field: string, min: number, max: number) =>
  z
    .string({ error: `${field} is required` })
    .check(z.trim())
    .check(
      z.minLength(min, { error: min === 1 ? `${field} is required` : `${field} must be at least ${min} characters` }),
    )
    .check(z.maxLength(max, { error: `${field} must be at most ${max} characters` }));

export const destinationFormSchema = z.pipe(
  z
    .object({
      subUid: z
        .string({ error: "subUid is required" })
        .check(z.minLength(1, { error: "subUid is required", abort: true }))
        .check(z.regex(/^\d{1,32}$/, { error: "subUid must be a numeric ID" })),
      dest: z.enum(WITHDRAWAL_DESTS, { error: "dest must be on_chain or internal_transfer" }),
      chain: preprocess(blankToUndefined, z.optional(z.string().check(z.trim()).check(z.maxLength(32)))),
      address: text("address", 1, 128).check(z.regex(/^\S+$/, { error: "address must not contain spaces" })),
      tag: preprocess(
        blankToUndefined,
        z.optional(
          z
            .string()
            .check(z.trim())
            .check(z.maxLength(64, { error: "tag must be at most 64 characters" })),
        ),
      ),
      label: text("label", 1, 100),
    })
    .check(
      z.superRefine((v, ctx) => {
        if (v.dest === "internal_transfer") {
          if (!/^\d{1,32}$/.test(v.address))
            ctx.addIssue({
              code: "custom",
              path: ["address"],
              message: "address must be a numeric UID for an internal transfer",
            });
          else if (v.address === v.subUid)
            ctx.addIssue({ code: "custom", path: ["address"], message: "address must not be the sub-account itself" });
          return;
        }
        if (!v.chain)
          return void ctx.addIssue({
            code: "custom",
            path: ["chain"],
            message: "chain is required for an on-chain destination",
          });
        if (!isKnownChain(v.chain))
          ctx.addIssue({ code: "custom", path: ["chain"], message: `chain must be one of ${KNOWN_CHAINS.join(", ")}` });
        // The address itself: server/workflows/address-check.ts, on the server only (see lib/api/withdrawals/index.ts).
      }),
    ),
  z.transform((v) => ({
    ...v,
    chain: v.dest === "on_chain" ? (v.chain ?? "").toUpperCase() : "",
    tag: v.dest === "on_chain" ? (v.tag ?? "") : "",
  })),
);
export type DestinationFormInput = z.input<typeof destinationFormSchema>;

export const destinationViewSchema = z.object({
  id: z.string(),
  subUid: z.string(),
  dest: z.enum(WITHDRAWAL_DESTS),
  chain: z.string(),
  address: z.string(),
  tag: z.string(),
  label: z.string(),
  state: z.enum(["requested", "approved", "rejected"]),
  requestedBy: z.string(),
  requestedAt: z.string(),
  decidedBy: z.nullable(z.string()),
  decidedAt: z.nullable(z.string()),
  rejectReason: z.nullable(z.string()),
  /**
   * When an approved entry counts as in the book (its approval plus the lock, DESTINATION_LOCK_HOURS); null otherwise.
   */
  usableFrom: z.nullable(z.string()),
  /**
   * Only for a reader of compliance's work (monitoring.read), in the book's list: whether the sanctions and block
   * lists list it as of its latest screening, by which lists, and when it was screened.
   */
  listed: z.optional(z.boolean()),
  listedBy: z.optional(z.array(z.string())),
  screenedAt: z.optional(z.nullable(z.string())),
});
export type DestinationView = z.infer<typeof destinationViewSchema>;

/** The most destinations one list answers (newest first): a book, or every one waiting for approval. */
export const DESTINATIONS_LIMIT = 500;

const byId = { target: (_input: unknown, p: { id: string }) => `destination:${p.id}` };

export const destinationResources = {
  destinations: defineResource({
    id: "destinations.list",
    method: "GET",
    path: "/api/withdrawals/destinations",
    summary: "The address book: a sub-account's destinations (or every one waiting for approval), newest first",
    permission: "withdrawals.read",
    input: z.object({
      subUid: preprocess(
        blankToUndefined,
        z.optional(z.string().check(z.regex(/^\d{1,32}$/, { error: "subUid must be a numeric ID" }))),
      ),
      state: preprocess(
        blankToUndefined,
        z.optional(
          z.enum(["requested", "approved", "rejected"], { error: "state must be requested, approved or rejected" }),
        ),
      ),
    }),
    output: z.object({ items: z.array(destinationViewSchema) }),
    errors: [],
  }),
  addDestination: defineResource({
    id: "destinations.request",
    method: "POST",
    path: "/api/withdrawals/destinations",
    summary: "Ask for a destination to be added to a sub-account's address book (another person approves it)",
    permission: "withdrawals.write",
    input: destinationFormSchema,
    output: destinationViewSchema,
    audit: { target: (i) => `subaccount:${i.subUid}` },
    // Adding a destination is half of moving money to it: the standing and factor rules of an approval.
    freshFactor: true,
    errors: ["already_registered", "approver_on_hold", "mfa_stale"],
  }),
  approveDestination: defineResource({
    id: "destinations.approve",
    method: "POST",
    path: "/api/withdrawals/destinations/{id}/approve",
    summary: "Approve a destination another person asked for",
    permission: "withdrawals.approve",
    output: destinationViewSchema,
    audit: byId,
    freshFactor: true,
    errors: ["not_found", "own_request", "already_decided", "approver_on_hold", "mfa_stale", "withdrawal_held"],
  }),
  rejectDestination: defineResource({
    id: "destinations.reject",
    method: "POST",
    path: "/api/withdrawals/destinations/{id}/reject",
    summary: "Reject a destination another person asked for, with a reason",
    permission: "withdrawals.approve",
    input: z.object({ reason: text("reason", 3, 500) }),
    output: destinationViewSchema,
    audit: byId,
    freshFactor: true,
    errors: ["not_found", "own_request", "already_decided", "approver_on_hold", "mfa_stale"],
  }),
} as const;
