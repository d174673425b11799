// Switching a monitoring control down takes two people: a retirement proposed by one person (confirmed by
// another on the version's retire route, ./index), and a snooze, which for a holding rule is a request
// waiting for a second person. Isomorphic.
import * as z from "zod/mini";
import "@/lib/zod-english";
import { defineResource } from "../define-resource";
import { DECISION_ERRORS, ruleVersionSchema, text } from "./index";

const subUid = z.string().check(z.regex(/^\d{1,32}$/, { error: "subUid is a sub-account UID (digits)" }));
export const proposeRetirementSchema = z.object({ reason: text("reason", 3, 500) });
export const snoozeSchema = z.object({
  ruleId: z.string().check(z.regex(/^[0-9a-f-]{36}$/, { error: "ruleId is a rule's ID" })),
  subUid,
  until: z.iso.datetime({ error: "until is a date and time (ISO 8601, UTC)", offset: true }),
  reason: text("reason", 3, 500),
});
/** A snooze: `active` at once (a rule that does not hold), or `requested` (a holding rule: a second person approves). */
export const snoozeReplySchema = z.object({
  id: z.string(),
  until: z.string(),
  state: z.enum(["active", "requested"]),
});

export const snoozeRequestSchema = z.object({
  id: z.string(),
  ruleId: z.string(),
  ruleName: z.string(),
  subUid: z.string(),
  until: z.string(),
  reason: z.string(),
  requestedBy: z.string(),
  requestedAt: z.string(),
  state: z.enum(["requested", "approved", "declined"]),
  decidedBy: z.nullable(z.string()),
  decidedAt: z.nullable(z.string()),
});
export type SnoozeRequestView = z.output<typeof snoozeRequestSchema>;

const byRequest = { target: (_input: unknown, p: { id: string }) => `snooze-request:${p.id}` };

export const monitoringControlResources = {
  proposeRetirement: defineResource({
    id: "monitoring.rule-retire-propose",
    method: "POST",
    path: "/api/monitoring/rule-versions/{id}/propose-retirement",
    summary: "Propose retiring an active version, with a reason; it raises and holds until another person confirms",
    permission: "monitoring.approve",
    input: proposeRetirementSchema,
    output: ruleVersionSchema,
    audit: { target: (_input, p) => `rule-version:${p.id}` },
    freshFactor: true,
    errors: [...DECISION_ERRORS],
  }),
  withdrawRetirement: defineResource({
    id: "monitoring.rule-retire-withdraw",
    method: "POST",
    path: "/api/monitoring/rule-versions/{id}/withdraw-retirement",
    summary: "Withdraw a proposed retirement: the version stays active and no one can confirm it",
    permission: "monitoring.approve",
    output: ruleVersionSchema,
    audit: { target: (_input, p) => `rule-version:${p.id}` },
    errors: ["not_found", "already_decided", "approver_on_hold"],
  }),
  snooze: defineResource({
    id: "monitoring.snooze",
    method: "POST",
    path: "/api/monitoring/snoozes",
    summary:
      "Silence one rule for one sub-account until a time, with a reason; a holding rule's snooze is a request " +
      "that silences nothing until another person approves it",
    permission: "monitoring.write",
    input: snoozeSchema,
    output: snoozeReplySchema,
    audit: { target: (input) => `rule:${input.ruleId}:${input.subUid}` },
    freshFactor: true,
    errors: ["not_found", "approver_on_hold", "mfa_stale"],
  }),
  snoozeRequests: defineResource({
    id: "monitoring.snooze-requests",
    method: "GET",
    path: "/api/monitoring/snooze-requests",
    summary: "Snooze requests of holding rules still waiting for a second person, oldest first",
    permission: "monitoring.read",
    output: z.object({ items: z.array(snoozeRequestSchema) }),
    errors: [],
  }),
  approveSnooze: defineResource({
    id: "monitoring.snooze-approve",
    method: "POST",
    path: "/api/monitoring/snooze-requests/{id}/approve",
    summary: "Approve another person's snooze request of a holding rule: from now it silences the rule",
    permission: "monitoring.approve",
    output: snoozeRequestSchema,
    audit: byRequest,
    freshFactor: true,
    errors: [...DECISION_ERRORS, "own_request"],
  }),
  declineSnooze: defineResource({
    id: "monitoring.snooze-decline",
    method: "POST",
    path: "/api/monitoring/snooze-requests/{id}/decline",
    summary: "Decline (or, as its requester, withdraw) a snooze request: the rule stays as it is",
    permission: "monitoring.write",
    output: snoozeRequestSchema,
    audit: byRequest,
    errors: ["not_found", "already_decided"],
  }),
} as const;
