// Switching a monitoring control down takes two people: the snooze requests of holding rules, waiting for a
// second person (the retirement of a rule is proposed and confirmed on its version's own routes, ./index).
// Isomorphic.
import * as z from "zod/mini";
import "@/lib/zod-english";
import { defineResource } from "../define-resource";
import { DECISION_ERRORS } from "./index";

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
