// Changes of futures leverage planned across many sub-accounts: the targets (a filter over the registry and the
// leverage record, an uploaded CSV of UID, symbol and leverage, or a hand-made list of UIDs), the preview, the plan
// and its rollout (start, pause, resume, cancel, retry what failed), a second lead's approval when the policy asks
// for one, and the report as CSV. Isomorphic.
import * as z from "zod/mini";
import "@/lib/zod-english";
import { PRODUCT_TYPES } from "@/lib/platform/schemas";
import { defineResource } from "../define-resource";
import { PLAN_SOURCES, PLAN_STATES, TARGET_STATES } from "./words";

export * from "./words";

/** The most targets one plan holds (a CSV or list longer than this is refused on its field). */
export const PLAN_MAX_TARGETS = 20_000;

const optionalText = (field: string, max: number) =>
  z.optional(z.string().check(z.maxLength(max, { error: `${field} must be at most ${max} characters` })));
const wholeNumber = (field: string) =>
  z.optional(z.string().check(z.regex(/^[1-9]\d{0,2}$/, { error: `${field} must be a whole number from 1 to 999` })));

/**
 * What a plan is made of. `source` picks how the targets are chosen: "filter" (the registry's sub-accounts whose
 * label contains `label`, bound to `riskUnit`, whose recorded leverage of `symbol` is above `above` or below `below`,
 * `keyOnly` those with a key), "csv" (`csv`: a header uid,symbol,leverage and a row per target) or "list" (`uids`,
 * separated by commas, spaces or new lines). Filter and list set every target to `symbol` at `leverage`.
 */
export const planTargetsSchema = z.object({
  productType: z.enum(PRODUCT_TYPES, { error: `productType must be one of ${PRODUCT_TYPES.join(", ")}` }),
  marginCoin: z._default(
    z.string().check(z.regex(/^[A-Z0-9]{1,16}$/, { error: "marginCoin must be in upper case, e.g. USDT" })),
    "USDT",
  ),
  source: z.enum(PLAN_SOURCES, { error: `source must be one of ${PLAN_SOURCES.join(", ")}` }),
  symbol: z.optional(
    z.string().check(z.regex(/^[A-Z0-9$]{1,32}$/, { error: "symbol must be a contract's name, e.g. BTCUSDT" })),
  ),
  leverage: wholeNumber("leverage"),
  label: optionalText("label", 100),
  riskUnit: z.optional(z.string().check(z.regex(/^\d{1,32}$/, { error: "riskUnit must be a UID (digits)" }))),
  above: wholeNumber("above"),
  below: wholeNumber("below"),
  keyOnly: z.optional(z.boolean({ error: "keyOnly must be true or false" })),
  csv: optionalText("csv", 2_000_000),
  uids: optionalText("uids", 1_000_000),
});
export type PlanTargetsInput = z.output<typeof planTargetsSchema>;

export const createPlanSchema = z.extend(planTargetsSchema, {
  reason: z
    .string({ error: "reason is required" })
    .check(
      z.trim(),
      z.minLength(3, { error: "reason must say why, in at least 3 characters" }),
      z.maxLength(500, { error: "reason must be at most 500 characters" }),
    ),
});
export type CreatePlanInput = z.output<typeof createPlanSchema>;

export const previewTargetSchema = z.object({
  subUid: z.string(),
  name: z.nullable(z.string()),
  label: z.nullable(z.string()),
  symbol: z.string(),
  /** What the leverage record holds (null: nothing was set through Brokerdesk). */
  current: z.nullable(z.string()),
  leverage: z.string(),
  hasKey: z.boolean(),
});
export type PreviewTarget = z.output<typeof previewTargetSchema>;

export const previewSchema = z.object({
  /** Targets with a key, then those without (never sent), each by UID. */
  items: z.array(previewTargetSchema),
  withKey: z.number(),
  withoutKey: z.number(),
  /** The highest leverage asked (what the policy judges). */
  highest: z.nullable(z.string()),
});

export const planCountsSchema = z.object({
  total: z.number(),
  pending: z.number(),
  sending: z.number(),
  done: z.number(),
  failed: z.number(),
  unknown: z.number(),
  noKey: z.number(),
  cancelled: z.number(),
});

export const planSchema = z.object({
  id: z.string(),
  state: z.enum(PLAN_STATES),
  productType: z.string(),
  marginCoin: z.string(),
  source: z.enum(PLAN_SOURCES),
  selection: z.record(z.string(), z.unknown()),
  reason: z.string(),
  verdict: z.object({ verdict: z.string(), why: z.nullable(z.string()) }),
  createdBy: z.string(),
  createdAt: z.string(),
  approvedBy: z.nullable(z.string()),
  startedBy: z.nullable(z.string()),
  startedAt: z.nullable(z.string()),
  finishedAt: z.nullable(z.string()),
  counts: planCountsSchema,
});
export type PlanView = z.output<typeof planSchema>;

export const planTargetSchema = z.object({
  ord: z.number(),
  subUid: z.string(),
  symbol: z.string(),
  current: z.nullable(z.string()),
  leverage: z.string(),
  hasKey: z.boolean(),
  state: z.enum(TARGET_STATES),
  sends: z.number(),
  /** The platform's code ("00000" when it set it) and message, or why nothing was sent. */
  code: z.nullable(z.string()),
  message: z.nullable(z.string()),
  answeredAt: z.nullable(z.string()),
});
export type PlanTargetView = z.output<typeof planTargetSchema>;

export const planTargetsPageSchema = z.object({
  items: z.array(planTargetSchema),
  /** The next page's `after` (the last target's place), or null at the end. */
  next: z.nullable(z.number()),
});

export const targetFiltersSchema = z.object({
  state: z.optional(z.enum(TARGET_STATES, { error: `state must be one of ${TARGET_STATES.join(", ")}` })),
  after: z.optional(z.coerce.number().check(z.int({ error: "after must be a whole number" }), z.minimum(0))),
  limit: z.optional(
    z.coerce
      .number()
      .check(
        z.int({ error: "limit must be a whole number" }),
        z.minimum(1),
        z.maximum(1000, { error: "limit ≤ 1000" }),
      ),
  ),
});

const noBody = z.object({});
const planTarget = { target: (_i: unknown, p: { id: string }) => `leverage-plan:${p.id}` };
const DECIDE = ["not_found", "already_decided"] as const;

export const PLAN_REPORT_COLUMNS = [
  "ord",
  "subUid",
  "symbol",
  "current",
  "leverage",
  "hasKey",
  "state",
  "sends",
  "code",
  "message",
  "answeredAt",
] as const;

export const leveragePlanResources = {
  preview: defineResource({
    id: "leveragePlans.preview",
    method: "POST",
    path: "/api/leverage/plans/preview",
    summary: "The targets a plan would have, each with what the record holds, the value asked and whether a key exists",
    permission: "leverage.write",
    input: planTargetsSchema,
    output: previewSchema,
    errors: ["leverage_refused"],
  }),
  create: defineResource({
    id: "leveragePlans.create",
    method: "POST",
    path: "/api/leverage/plans",
    summary: "Make a plan of its targets, judged by the leverage policy (it may wait for a second lead)",
    permission: "leverage.write",
    input: createPlanSchema,
    output: planSchema,
    audit: { target: () => "leverage-plan:new", outcome: (r) => ({ id: (r as PlanView).id }) },
    errors: ["leverage_refused"],
  }),
  list: defineResource({
    id: "leveragePlans.list",
    method: "GET",
    path: "/api/leverage/plans",
    summary: "The newest plans with their progress",
    permission: "leverage.write",
    output: z.object({ items: z.array(planSchema) }),
    errors: [],
  }),
  get: defineResource({
    id: "leveragePlans.get",
    method: "GET",
    path: "/api/leverage/plans/{id}",
    summary: "A plan and its progress (counts of targets by state)",
    permission: "leverage.write",
    output: planSchema,
    errors: ["not_found"],
  }),
  targets: defineResource({
    id: "leveragePlans.targets",
    method: "GET",
    path: "/api/leverage/plans/{id}/targets",
    summary: "A plan's targets in order, with each one's answer (by state, paged by place)",
    permission: "leverage.write",
    input: targetFiltersSchema,
    output: planTargetsPageSchema,
    errors: ["not_found"],
  }),
  approve: defineResource({
    id: "leveragePlans.approve",
    method: "POST",
    path: "/api/leverage/plans/{id}/approve",
    summary: "A second lead lets a plan the policy holds start (not its planner; fresh second factor)",
    permission: "leverage.write",
    input: noBody,
    output: planSchema,
    audit: planTarget,
    freshFactor: true,
    errors: [...DECIDE, "own_request", "approver_on_hold", "mfa_stale"],
  }),
  start: defineResource({
    id: "leveragePlans.start",
    method: "POST",
    path: "/api/leverage/plans/{id}/start",
    summary: "Start sending a ready plan (the rollout job)",
    permission: "leverage.write",
    input: noBody,
    output: planSchema,
    audit: planTarget,
    errors: DECIDE,
  }),
  pause: defineResource({
    id: "leveragePlans.pause",
    method: "POST",
    path: "/api/leverage/plans/{id}/pause",
    summary: "Stop sending further targets (those in flight get their answers)",
    permission: "leverage.write",
    input: noBody,
    output: planSchema,
    audit: planTarget,
    errors: DECIDE,
  }),
  resume: defineResource({
    id: "leveragePlans.resume",
    method: "POST",
    path: "/api/leverage/plans/{id}/resume",
    summary: "Go on sending a paused plan",
    permission: "leverage.write",
    input: noBody,
    output: planSchema,
    audit: planTarget,
    errors: DECIDE,
  }),
  cancel: defineResource({
    id: "leveragePlans.cancel",
    method: "POST",
    path: "/api/leverage/plans/{id}/cancel",
    summary: "Cancel a plan: targets not sent yet are never sent",
    permission: "leverage.write",
    input: noBody,
    output: planSchema,
    audit: planTarget,
    errors: DECIDE,
  }),
  retry: defineResource({
    id: "leveragePlans.retry",
    method: "POST",
    path: "/api/leverage/plans/{id}/retry",
    summary: "Send again only the targets the platform refused (or that were not sent for want of budget)",
    permission: "leverage.write",
    input: noBody,
    output: planSchema,
    audit: planTarget,
    errors: DECIDE,
  }),
  export: defineResource({
    id: "leveragePlans.export",
    method: "GET",
    path: "/api/leverage/plans/{id}/export",
    summary: "The plan's report as CSV (one row per target: the platform's answer and code), sealed",
    permission: "leverage.write",
    output: planTargetSchema,
    reply: "csv",
    errors: ["not_found"],
  }),
} as const;
