// Compliance's bulk actions on cases from /alerts: assign several at once, or close them with one outcome and
// reason. Each case is changed and audited on its own (its own entry in its own trail): one case that cannot
// be changed (closed meanwhile, not found, or gathered an alert since the list was read) is reported and the
// others still are. Isomorphic.
import * as z from "zod/mini";
import "@/lib/zod-english";
import { defineResource } from "../define-resource";
import { closeFields, seenVersion } from "./index";

/** The most cases one bulk action takes. */
export const BULK_MAX = 200;

const caseIds = z
  .array(z.string().check(z.regex(/^[0-9a-f-]{36}$/, { error: "caseIds holds cases' IDs" })), {
    error: "caseIds is a list of cases' IDs",
  })
  .check(z.minLength(1, { error: "caseIds: choose at least one case" }))
  .check(z.maxLength(BULK_MAX, { error: `caseIds: at most ${BULK_MAX} cases at once` }))
  .check(z.refine((ids) => new Set(ids).size === ids.length, { error: "caseIds names a case twice" }));

export const bulkAssignSchema = z.object({
  caseIds,
  assignee: z.nullable(z.email({ error: "assignee is a staff member's email (or null to unassign)" })),
});
const caseId = z.string().check(z.regex(/^[0-9a-f-]{36}$/, { error: "cases: caseId is a case's ID" }));
/** Each case with the version the list showed it at: a case that has gathered an alert since is not closed. */
const seenCases = z
  .array(z.object({ caseId, version: seenVersion("cases: each case's version") }), {
    error: "cases is a list of { caseId, version } (each case as the list showed it)",
  })
  .check(z.minLength(1, { error: "cases: choose at least one case" }))
  .check(z.maxLength(BULK_MAX, { error: `cases: at most ${BULK_MAX} cases at once` }))
  .check(z.refine((cs) => new Set(cs.map((c) => c.caseId)).size === cs.length, { error: "cases names a case twice" }));
export const bulkCloseSchema = z.object({ ...closeFields, cases: seenCases });

export const bulkResultSchema = z.object({
  results: z.array(
    z.object({
      caseId: z.string(),
      ok: z.boolean(),
      code: z.optional(z.string()),
      message: z.optional(z.string()),
    }),
  ),
});
export type BulkResult = z.output<typeof bulkResultSchema>;

export const monitoringBulkResources = {
  assign: defineResource({
    id: "monitoring.cases-assign",
    method: "POST",
    path: "/api/monitoring/cases/assign",
    summary: "Assign several cases (each audited as its own case update); what could not be changed is reported",
    permission: "monitoring.write",
    input: bulkAssignSchema,
    output: bulkResultSchema,
    errors: [],
  }),
  close: defineResource({
    id: "monitoring.cases-close",
    method: "POST",
    path: "/api/monitoring/cases/close",
    summary: "Close several cases, each as of the version the list showed, with one outcome and reason (each audited)",
    permission: "monitoring.write",
    input: bulkCloseSchema,
    output: bulkResultSchema,
    freshFactor: true,
    errors: ["approver_on_hold", "mfa_stale"],
  }),
} as const;
