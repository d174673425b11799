// Monitoring's routes (ARCHITECTURE "Monitoring and policy"): rules and their versions, alerts, cases, snoozes
// and holds, with the schemas the browser and the server share. The kinds' own parameters are in
// ./rule-kinds. Isomorphic.
import * as z from "zod/mini";
import "@/lib/zod-english";
import { defineResource } from "../define-resource";
import { DRAFTABLE_KINDS, SEVERITIES } from "./rule-kinds";

export const text = (field: string, min: number, max: number) =>
  z
    .string({ error: `${field} is required` })
    .check(z.trim())
    .check(z.minLength(min, { error: `${field} must be at least ${min} characters` }))
    .check(z.maxLength(max, { error: `${field} must be at most ${max} characters` }));

// ---- rules ----

/** A new version of a rule (a new rule when no version of that name exists). The kind's schema parses params. */
export const draftRuleSchema = z.object({
  name: text("name", 1, 100),
  // The system kinds (sanctions screening) are Brokerdesk's own: never drafted.
  kind: z.enum(DRAFTABLE_KINDS, { error: `kind is one of ${DRAFTABLE_KINDS.join(", ")}` }),
  params: z.record(z.string(), z.unknown()),
  severity: z.enum(SEVERITIES, { error: "severity is low, medium or high" }),
  holds: z.boolean({ error: "holds is true (withdrawals wait for compliance) or false" }),
});
export type DraftRuleInput = z.output<typeof draftRuleSchema>;

/** What a backtest found (server/monitoring/backtest.ts keeps it with the version). */
export const backtestSchema = z.object({
  total: z.number(),
  months: z.array(z.object({ month: z.string(), alerts: z.number() })),
  top: z.array(z.object({ subUid: z.string(), alerts: z.number() })),
  samples: z.array(
    z.object({
      subUid: z.string(),
      occurrence: z.string(),
      value: z.string(),
      records: z.array(z.object({ kind: z.string(), id: z.string() })),
    }),
  ),
  /**
   * The sub-accounts whose deposits the ledger did not hold back far enough for the rule to judge (their records
   * waiting were not counted); absent from a backtest kept before it was said.
   */
  notEvaluable: z.optional(z.number()),
});
export type Backtest = z.output<typeof backtestSchema>;

export const ruleVersionSchema = z.object({
  id: z.string(),
  ruleId: z.string(),
  name: z.string(),
  version: z.number(),
  kind: z.string(),
  params: z.record(z.string(), z.unknown()),
  severity: z.string(),
  holds: z.boolean(),
  state: z.enum(["draft", "active", "retired"]),
  author: z.string(),
  createdAt: z.string(),
  activatedBy: z.nullable(z.string()),
  activatedAt: z.nullable(z.string()),
  /** The last backtest (total, per month, top sub-accounts, samples), or null; and whether one is asked for. */
  backtest: z.nullable(backtestSchema),
  backtestAt: z.nullable(z.string()),
  backtestPending: z.boolean(),
  /** An active version's proposed retirement, waiting for a second person to confirm it (or null). */
  retireRequestedBy: z.nullable(z.string()),
  retireRequestedAt: z.nullable(z.string()),
  retireReason: z.nullable(z.string()),
  /** A draft's weakenings of its rule's active version ("minAmount 10000 → 50000"); null when nothing to compare. */
  weakens: z.nullable(z.array(z.string())),
  /** An active version: how many sub-accounts it cannot judge yet (history not synced back far enough). */
  notEvaluable: z.optional(z.number()),
});
export type RuleVersionView = z.output<typeof ruleVersionSchema>;

// ---- alerts ----

export * from "./alerts";
import { alertFiltersSchema, alertPageSchema, alertSchema, sanctionsAlertSchema, type AlertView } from "./alerts";

// ---- cases ----

export const CASE_STATUSES = ["open", "investigating", "closed"] as const;
export const CASE_OUTCOMES = ["false_positive", "monitored", "reported"] as const;

export const updateCaseSchema = z.object({
  assignee: z.optional(z.nullable(z.email({ error: "assignee is a staff member's email" }))),
  status: z.optional(
    z.enum(["open", "investigating"], { error: "status is open or investigating (close a case to end it)" }),
  ),
});
/**
 * The case's version its reviewer saw (`version` of GET the case, or `caseVersion` of its alerts in the list): a
 * decision applies to the alerts that had joined the case by then, and never to one raised since.
 */
export const seenVersion = (field: string) =>
  z
    .int({ error: `${field} is required: the case's version you reviewed (as its page or list read it)` })
    .check(z.minimum(0, { error: `${field} is a case's version (0 or more)` }));
export const closeFields = {
  outcome: z.enum(CASE_OUTCOMES, { error: "outcome is false_positive, monitored or reported" }),
  reason: text("reason", 3, 2000),
};
export const closeCaseSchema = z.object({ ...closeFields, version: seenVersion("version") });
export const caseNoteSchema = z.object({ body: text("body", 1, 5000) });
export const attachRecordSchema = z.object({
  recordKind: z.enum(["deposit", "withdrawal"], { error: "recordKind is deposit or withdrawal" }),
  recordId: text("recordId", 1, 100),
});
export const clearHoldSchema = z.object({ reason: text("reason", 3, 500), version: seenVersion("version") });
export const rejectHeldSchema = z.object({
  withdrawalId: z.string().check(z.regex(/^[0-9a-f-]{36}$/, { error: "withdrawalId is a withdrawal request's ID" })),
  reason: text("reason", 3, 500),
  version: seenVersion("version"),
});
/** An activation; a version that weakens the active one is activated only with `confirmWeakening: true`. */
export const activateSchema = z.object({
  confirmWeakening: z.optional(z.boolean({ error: "confirmWeakening is true (I mean to weaken the active version)" })),
});

export const caseSchema = z.object({
  id: z.string(),
  subUid: z.string(),
  status: z.enum(CASE_STATUSES),
  assignee: z.nullable(z.string()),
  outcome: z.nullable(z.enum(CASE_OUTCOMES)),
  outcomeReason: z.nullable(z.string()),
  openedAt: z.string(),
  closedBy: z.nullable(z.string()),
  closedAt: z.nullable(z.string()),
  /** How many alerts the case gathers (exact); its page reads them in keyset pages (`alerts` with caseId). */
  alertCount: z.number(),
  notes: z.array(z.object({ id: z.string(), author: z.string(), body: z.string(), createdAt: z.string() })),
  records: z.array(
    z.object({ recordKind: z.string(), recordId: z.string(), attachedBy: z.string(), attachedAt: z.string() }),
  ),
  holding: z.boolean(),
  /** Its highest alert's severity, and when its review is due by it (MONITORING_REVIEW_DAYS). */
  severity: z.nullable(z.string()),
  reviewDueAt: z.nullable(z.string()),
  /** The audit entries of the case (target case:<id>), oldest first. */
  trail: z.array(
    z.object({ id: z.string(), at: z.string(), actor: z.string(), action: z.string(), outcome: z.string() }),
  ),
  /** How many alerts have joined the case: a decision sends back the version its reviewer saw. */
  version: z.number(),
  /** Its sanctions list matches (open first): each released only by two people (./sanctions). */
  sanctions: z.array(sanctionsAlertSchema),
});
export type CaseView = z.output<typeof caseSchema>;
/** A case with every one of its alerts, oldest first: what its report and record export read, never its page. */
export type CaseWithAlerts = CaseView & { alerts: AlertView[] };

// ---- the routes ----

/** What every monitoring decision may answer: its decider on approver hold, a stale factor, a raced decision. */
export const DECISION_ERRORS = ["not_found", "already_decided", "approver_on_hold", "mfa_stale"] as const;

const caseTarget = { target: (_input: unknown, p: { id: string }) => `case:${p.id}` };

/**
 * The sub-accounts whose withdrawals compliance holds. Why (the rules and the case) only to a role with
 * monitoring.read; to others, only sub-accounts with a waiting request they may decide or made themselves.
 */
export const holdsSchema = z.object({
  items: z.array(
    z.object({
      subUid: z.string(),
      rules: z.optional(z.array(z.string())),
      caseId: z.optional(z.nullable(z.string())),
    }),
  ),
});
export type HoldsView = z.output<typeof holdsSchema>;

export const monitoringResources = {
  holds: defineResource({
    id: "monitoring.holds",
    method: "GET",
    path: "/api/monitoring/holds",
    summary:
      "Sub-accounts with an open holding alert; to monitoring roles the rules and case, to others only those " +
      "with a request waiting that they decide or made",
    permission: "withdrawals.read",
    output: holdsSchema,
    errors: [],
  }),
  rules: defineResource({
    id: "monitoring.rules",
    method: "GET",
    path: "/api/monitoring/rules",
    summary: "Every version of every monitoring rule, newest first",
    permission: "monitoring.read",
    output: z.object({ items: z.array(ruleVersionSchema) }),
    errors: [],
  }),
  draft: defineResource({
    id: "monitoring.rule-draft",
    method: "POST",
    path: "/api/monitoring/rules",
    summary: "Draft a version of a rule (its kind's parameters checked field by field)",
    permission: "monitoring.write",
    input: draftRuleSchema,
    output: ruleVersionSchema,
    audit: { target: (input) => `rule:${input.name}` },
    errors: [],
  }),
  activate: defineResource({
    id: "monitoring.rule-activate",
    method: "POST",
    path: "/api/monitoring/rule-versions/{id}/activate",
    summary:
      "Activate a drafted version (not its author's); the rule's active version retires; history is evaluated. " +
      "A version that weakens the active one needs confirmWeakening",
    permission: "monitoring.approve",
    input: activateSchema,
    output: ruleVersionSchema,
    audit: { target: (_input, p) => `rule-version:${p.id}` },
    freshFactor: true,
    errors: [...DECISION_ERRORS, "own_request", "two_person_rule", "confirmation_mismatch"],
  }),
  backtest: defineResource({
    id: "monitoring.rule-backtest",
    method: "POST",
    path: "/api/monitoring/rule-versions/{id}/backtest",
    summary: "Run a version over the ledger's whole history without raising alerts; the result is kept with it",
    permission: "monitoring.write",
    output: ruleVersionSchema,
    audit: { target: (_input, p) => `rule-version:${p.id}` },
    errors: ["not_found"],
  }),
  retire: defineResource({
    id: "monitoring.rule-retire",
    method: "POST",
    path: "/api/monitoring/rule-versions/{id}/retire",
    summary: "Confirm another person's proposed retirement of an active version: it raises nothing more",
    permission: "monitoring.approve",
    output: ruleVersionSchema,
    audit: { target: (_input, p) => `rule-version:${p.id}` },
    freshFactor: true,
    errors: [...DECISION_ERRORS, "own_request", "two_person_rule"],
  }),
  alerts: defineResource({
    id: "monitoring.alerts",
    method: "GET",
    path: "/api/monitoring/alerts",
    summary: "Alerts, newest first, filtered by rule, sub-account, severity, status and age, with the exact count",
    permission: "monitoring.read",
    input: alertFiltersSchema,
    output: alertPageSchema,
    errors: [],
  }),
  export: defineResource({
    id: "monitoring.alerts-export",
    method: "GET",
    path: "/api/monitoring/alerts/export",
    summary: "The filtered alerts as CSV (one row per alert)",
    permission: "monitoring.read",
    input: alertFiltersSchema,
    output: alertSchema,
    reply: "csv",
    errors: ["export_too_large"],
  }),
  case: defineResource({
    id: "monitoring.case",
    method: "GET",
    path: "/api/monitoring/cases/{id}",
    summary: "A case: its alerts, notes and attached records",
    permission: "monitoring.read",
    output: caseSchema,
    errors: ["not_found"],
  }),
  updateCase: defineResource({
    id: "monitoring.case-update",
    method: "POST",
    path: "/api/monitoring/cases/{id}",
    summary: "Assign a case, or move it between open and investigating",
    permission: "monitoring.write",
    input: updateCaseSchema,
    output: caseSchema,
    audit: caseTarget,
    errors: ["not_found", "already_decided"],
  }),
  closeCase: defineResource({
    id: "monitoring.case-close",
    method: "POST",
    path: "/api/monitoring/cases/{id}/close",
    summary: "Close a case as of the version its reviewer saw, with its outcome and reason; its alerts close with it",
    permission: "monitoring.write",
    input: closeCaseSchema,
    output: caseSchema,
    audit: caseTarget,
    freshFactor: true,
    errors: [...DECISION_ERRORS, "case_changed"],
  }),
  note: defineResource({
    id: "monitoring.case-note",
    method: "POST",
    path: "/api/monitoring/cases/{id}/notes",
    summary: "Add a note to a case",
    permission: "monitoring.write",
    input: caseNoteSchema,
    output: caseSchema,
    audit: caseTarget,
    errors: ["not_found", "already_decided"],
  }),
  attach: defineResource({
    id: "monitoring.case-attach",
    method: "POST",
    path: "/api/monitoring/cases/{id}/records",
    summary: "Attach a ledger record (a deposit or a withdrawal request of the case's sub-account) to a case",
    permission: "monitoring.write",
    input: attachRecordSchema,
    output: caseSchema,
    audit: caseTarget,
    errors: ["not_found", "already_decided"],
  }),
  clearHold: defineResource({
    id: "monitoring.hold-clear",
    method: "POST",
    path: "/api/monitoring/cases/{id}/clear-hold",
    summary:
      "Clear the holding alerts of the case as its reviewer saw it (a version), with a reason; later ones hold on",
    permission: "monitoring.write",
    input: clearHoldSchema,
    output: caseSchema,
    audit: caseTarget,
    freshFactor: true,
    errors: [...DECISION_ERRORS, "case_changed"],
  }),
  rejectWithdrawal: defineResource({
    id: "monitoring.withdrawal-reject",
    method: "POST",
    path: "/api/monitoring/cases/{id}/reject-withdrawal",
    summary: "Reject a waiting withdrawal request of the case's sub-account while an alert its reviewer saw holds it",
    permission: "monitoring.write",
    input: rejectHeldSchema,
    output: caseSchema,
    audit: caseTarget,
    freshFactor: true,
    errors: [...DECISION_ERRORS, "case_changed"],
  }),
} as const;
