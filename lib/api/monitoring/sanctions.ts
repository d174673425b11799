// Releasing a sanctions list match takes two people: one proposes it (monitoring.write, with a reason), another
// confirms it (monitoring.approve: compliance or an admin; never the proposer; a fresh factor), naming whose
// proposal they read; the proposal can be withdrawn. Each answers the case. Isomorphic.
import * as z from "zod/mini";
import "@/lib/zod-english";
import { defineResource } from "../define-resource";
import { caseSchema, DECISION_ERRORS, text } from "./index";

export const proposeReleaseSchema = z.object({ reason: text("reason", 1, 500) });
export const confirmReleaseSchema = z.object({
  proposedBy: z.email({ error: "proposedBy is the email of the person whose proposal you read" }),
});

const caseTarget = { target: (_input: unknown, p: { id: string }) => `case:${p.id}` };

export const monitoringSanctionsResources = {
  proposeRelease: defineResource({
    id: "monitoring.release-propose",
    method: "POST",
    path: "/api/monitoring/cases/{id}/sanctions/{alertId}/propose-release",
    summary: "Propose releasing a sanctions list match, with a reason; it holds until another person confirms",
    permission: "monitoring.write",
    input: proposeReleaseSchema,
    output: caseSchema,
    audit: caseTarget,
    freshFactor: true,
    errors: [...DECISION_ERRORS],
  }),
  confirmRelease: defineResource({
    id: "monitoring.release-confirm",
    method: "POST",
    path: "/api/monitoring/cases/{id}/sanctions/{alertId}/confirm-release",
    summary: "Confirm another person's proposed release of a sanctions list match: its alert is cleared",
    permission: "monitoring.approve",
    input: confirmReleaseSchema,
    output: caseSchema,
    audit: caseTarget,
    freshFactor: true,
    errors: [...DECISION_ERRORS, "own_request", "two_person_rule"],
  }),
  withdrawRelease: defineResource({
    id: "monitoring.release-withdraw",
    method: "POST",
    path: "/api/monitoring/cases/{id}/sanctions/{alertId}/withdraw-release",
    summary: "Withdraw a proposed release of a sanctions list match: it holds on and no one can confirm it",
    permission: "monitoring.write",
    output: caseSchema,
    audit: caseTarget,
    errors: ["not_found", "already_decided", "approver_on_hold"],
  }),
} as const;
