// The money-out policy's routes: its versions (draft, publish by a second admin with a fresh factor,
// discard) and the dry run of a draft over past withdrawals. The rules' schema is lib/policy.ts. Isomorphic.
import * as z from "zod/mini";
import "@/lib/zod-english";
import { policyRulesSchema, requirementSchema } from "@/lib/policy";
import { defineResource } from "../define-resource";

export const POLICY_STATES = ["draft", "published", "superseded", "discarded"] as const;

/** A version of a versioned policy (server/policy/versioned.ts) with its rules as `rules` parses them. */
export const versionViewSchemaOf = <R extends z.ZodMiniType>(rules: R) =>
  z.object({
    version: z.number(),
    state: z.enum(POLICY_STATES),
    rules,
    note: z.string(),
    draftedBy: z.string(),
    draftedAt: z.string(),
    publishedBy: z.nullable(z.string()),
    publishedAt: z.nullable(z.string()),
    supersededAt: z.nullable(z.string()),
  });

export const policyVersionViewSchema = versionViewSchemaOf(policyRulesSchema);
export type PolicyVersionView = z.output<typeof policyVersionViewSchema>;

export const draftPolicyInput = z.object({
  rules: z.unknown(),
  note: z.optional(z.string().check(z.trim(), z.maxLength(500, "note must be at most 500 characters"))),
});

/** The most past withdrawals one dry run reads. */
export const DRY_RUN_MAX = 2_000;

const isoTime = (field: string) =>
  z.optional(
    z.string().check(z.refine((v) => !Number.isNaN(Date.parse(v)), { error: `${field} must be an ISO 8601 time` })),
  );

/** The last `last` withdrawals, of those requested from `from` and before `to` when given (a range). */
export const dryRunInput = z.object({
  rules: z.unknown(),
  from: isoTime("from"),
  to: isoTime("to"),
  last: z
    .number({ error: "last must be a number of withdrawals" })
    .check(
      z.int({ error: "last must be a whole number" }),
      z.minimum(1, "last must be at least 1"),
      z.maximum(DRY_RUN_MAX, `last must be at most ${DRY_RUN_MAX}`),
    ),
});

const outcomeSchema = z.object({
  rule: z.string(),
  /** null: blocked. */
  approvals: z.nullable(z.array(requirementSchema)),
  blockReason: z.nullable(z.string()),
  words: z.string(),
});
export type PolicyOutcome = z.output<typeof outcomeSchema>;

export const dryRunRowSchema = z.object({
  id: z.string(),
  requestedAt: z.string(),
  subUid: z.string(),
  coin: z.string(),
  amount: z.string(),
  valueUsdt: z.nullable(z.string()),
  destination: z.string(),
  was: outcomeSchema,
  would: outcomeSchema,
  changed: z.boolean(),
});
export type DryRunRow = z.output<typeof dryRunRowSchema>;

export const dryRunReplySchema = z.object({
  rows: z.array(dryRunRowSchema),
  totals: z.object({
    withdrawals: z.number(),
    changed: z.number(),
    blocked: z.number(),
    moreApprovals: z.number(),
    fewerApprovals: z.number(),
  }),
});
export type DryRunReply = z.output<typeof dryRunReplySchema>;

const byVersion = { target: (_input: unknown, p: { version: string }) => `policy:${p.version}` };

export const policyResources = {
  list: defineResource({
    id: "policy.list",
    method: "GET",
    path: "/api/policy",
    summary: "The money-out policy's versions, newest first (at most one published)",
    permission: "policy.read",
    output: z.object({ items: z.array(policyVersionViewSchema) }),
    errors: [],
  }),
  draft: defineResource({
    id: "policy.draft",
    method: "POST",
    path: "/api/policy",
    summary: "Draft a new version of the money-out policy (ordered rules; another admin publishes it)",
    permission: "policy.write",
    input: draftPolicyInput,
    output: policyVersionViewSchema,
    audit: { target: () => "policy" },
    errors: [],
  }),
  publish: defineResource({
    id: "policy.publish",
    method: "POST",
    path: "/api/policy/{version}/publish",
    summary: "Publish a draft someone else wrote; the version published before is superseded",
    permission: "policy.approve",
    output: policyVersionViewSchema,
    audit: byVersion,
    freshFactor: true,
    errors: ["not_found", "own_request", "already_decided", "approver_on_hold", "mfa_stale"],
  }),
  discard: defineResource({
    id: "policy.discard",
    method: "POST",
    path: "/api/policy/{version}/discard",
    summary: "Discard a draft",
    permission: "policy.write",
    output: policyVersionViewSchema,
    audit: byVersion,
    freshFactor: true,
    errors: ["not_found", "already_decided", "approver_on_hold", "mfa_stale"],
  }),
  dryRun: defineResource({
    id: "policy.dry-run",
    method: "POST",
    path: "/api/policy/dry-run",
    summary: "What a draft would have required of the last N withdrawals, against what was required",
    permission: "policy.read",
    input: dryRunInput,
    output: dryRunReplySchema,
    errors: [],
  }),
} as const;
