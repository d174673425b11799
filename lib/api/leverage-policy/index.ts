// The leverage policy's routes: its versions (draft, publish by a second admin with a fresh factor, discard),
// and the dry run of a draft over the last days' leverage changes. The rules' schema is lib/leverage-policy.ts;
// the versions' shape is the money-out policy's (../policy). Isomorphic.
import * as z from "zod/mini";
import "@/lib/zod-english";
import { leverageRulesSchema } from "@/lib/leverage-policy";
import { defineResource } from "../define-resource";
import { draftPolicyInput, versionViewSchemaOf } from "../policy";

export const leveragePolicyViewSchema = versionViewSchemaOf(leverageRulesSchema);
export type LeveragePolicyView = z.output<typeof leveragePolicyViewSchema>;

/** The dry run looks back this many days at most. */
export const LEVERAGE_DRY_RUN_DAYS = 90;

export const leverageDryRunInput = z.object({
  rules: z.unknown(),
  days: z.optional(
    z
      .number({ error: "days must be a number of days" })
      .check(
        z.int({ error: "days must be a whole number" }),
        z.minimum(1, "days must be at least 1"),
        z.maximum(LEVERAGE_DRY_RUN_DAYS, `days must be at most ${LEVERAGE_DRY_RUN_DAYS}`),
      ),
  ),
});

export const leverageDryRunRowSchema = z.object({
  /** The audit intent's id. */
  id: z.string(),
  at: z.string(),
  actor: z.string(),
  /** The key that signed it: "main" or "sub<UID>". */
  account: z.string(),
  productType: z.string(),
  symbol: z.string(),
  leverage: z.string(),
  /** 1 for a single change; a plan's count of targets in the window. */
  targets: z.number(),
  planId: z.nullable(z.string()),
  outcome: z.enum(["success", "failure", "no outcome"]),
  verdict: z.enum(["refuse", "second-lead"]),
});
export type LeverageDryRunRow = z.output<typeof leverageDryRunRowSchema>;

export const leverageDryRunReplySchema = z.object({
  from: z.string(),
  to: z.string(),
  days: z.number(),
  /** How many changes (E10 intents in the audit log) were read. */
  read: z.number(),
  /** More changes were in the window than one dry run reads (the newest were read). */
  truncated: z.boolean(),
  /** Changes no rule takes (allowed). */
  unmatched: z.number(),
  rules: z.array(
    z.object({
      index: z.number(),
      name: z.string(),
      /** Changes this rule decides (the first that takes them). */
      decided: z.number(),
      refused: z.number(),
      secondLead: z.number(),
      caughtCount: z.number(),
      /** The first of them, newest first. */
      caught: z.array(leverageDryRunRowSchema),
    }),
  ),
});
export type LeverageDryRunReply = z.output<typeof leverageDryRunReplySchema>;

const byVersion = { target: (_input: unknown, p: { version: string }) => `leverage-policy:${p.version}` };

export const leveragePolicyResources = {
  list: defineResource({
    id: "leveragePolicy.list",
    method: "GET",
    path: "/api/leverage/policy",
    summary: "The leverage policy's versions, newest first (at most one published: the one that judges)",
    permission: "policy.read",
    output: z.object({ items: z.array(leveragePolicyViewSchema) }),
    errors: [],
  }),
  draft: defineResource({
    id: "leveragePolicy.draft",
    method: "POST",
    path: "/api/leverage/policy",
    summary: "Draft a new version of the leverage policy (ordered rules; another admin publishes it)",
    permission: "policy.write",
    input: draftPolicyInput,
    output: leveragePolicyViewSchema,
    audit: { target: () => "leverage-policy" },
    errors: [],
  }),
  publish: defineResource({
    id: "leveragePolicy.publish",
    method: "POST",
    path: "/api/leverage/policy/{version}/publish",
    summary: "Publish a leverage policy draft someone else wrote; the version published before is superseded",
    permission: "policy.approve",
    output: leveragePolicyViewSchema,
    audit: byVersion,
    freshFactor: true,
    errors: ["not_found", "own_request", "already_decided", "approver_on_hold", "mfa_stale"],
  }),
  discard: defineResource({
    id: "leveragePolicy.discard",
    method: "POST",
    path: "/api/leverage/policy/{version}/discard",
    summary: "Discard a leverage policy draft",
    permission: "policy.write",
    output: leveragePolicyViewSchema,
    audit: byVersion,
    freshFactor: true,
    errors: ["not_found", "already_decided", "approver_on_hold", "mfa_stale"],
  }),
  dryRun: defineResource({
    id: "leveragePolicy.dry-run",
    method: "POST",
    path: "/api/leverage/policy/dry-run",
    summary: "Which of the last days' leverage changes (90 at most) each rule of a draft would have caught",
    permission: "policy.read",
    input: leverageDryRunInput,
    output: leverageDryRunReplySchema,
    // The step is in the audit chain; its outcome keeps the counts, not the changes listed.
    audit: {
      target: () => "leverage-policy",
      outcome: (r) => {
        const reply = r as LeverageDryRunReply;
        return {
          read: reply.read,
          days: reply.days,
          caught: reply.rules.map((x) => ({ rule: x.name, refused: x.refused, secondLead: x.secondLead })),
        };
      },
    },
    errors: [],
  }),
} as const;
