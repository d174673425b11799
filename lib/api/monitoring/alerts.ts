// Alerts as compliance reads them: the list's filters, an alert's view and its CSV columns (re-exported by
// ./index with the routes). Isomorphic.
import * as z from "zod/mini";
import "@/lib/zod-english";
import { blankless, nextCursorField, pageCursor, pageLimit } from "../query-fields";
import { SEVERITIES } from "./rule-kinds";

const subUid = z.string().check(z.regex(/^\d{1,32}$/, { error: "subUid is a sub-account UID (digits)" }));

export const ALERT_STATUSES = ["open", "cleared", "closed"] as const;
export const alertFiltersSchema = z.object({
  ruleId: blankless(z.string().check(z.regex(/^[0-9a-f-]{36}$/, { error: "ruleId is a rule's ID" }))),
  subUid: blankless(subUid),
  severity: blankless(z.enum(SEVERITIES, { error: "severity is low, medium or high" })),
  status: blankless(z.enum(ALERT_STATUSES, { error: "status is open, cleared or closed" })),
  /** Raised at least this many hours ago (age). */
  olderThanHours: blankless(
    z.pipe(
      z.string().check(z.regex(/^\d{1,6}$/, { error: "olderThanHours is a whole number of hours" })),
      z.transform(Number),
    ),
  ),
  /** Only alerts whose case is past its review deadline and not closed. */
  overdue: blankless(z.enum(["true"], { error: "overdue is true (cases past their review deadline) or left out" })),
  /** Only the alerts gathered into this case (its page pages them). */
  caseId: blankless(
    z
      .string()
      .check(
        z.regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, { error: "caseId is a case's ID" }),
      ),
  ),
  cursor: pageCursor,
  limit: pageLimit,
});
export type AlertFilters = z.output<typeof alertFiltersSchema>;

export const alertSchema = z.object({
  id: z.string(),
  ruleId: z.string(),
  ruleName: z.string(),
  ruleVersion: z.number(),
  kind: z.string(),
  subUid: z.string(),
  occurrence: z.string(),
  windowStart: z.string(),
  windowEnd: z.string(),
  severity: z.string(),
  holds: z.boolean(),
  value: z.string(),
  records: z.array(z.object({ kind: z.string(), id: z.string() })),
  /**
   * The coverage the alert was raised under: what its rule needed (none, the whole deposit history, or a window of
   * `ms`) and the sub-account's deposits the ledger held then (from/to in UTC; from the epoch: the whole history).
   * Null for an alert raised before it was recorded.
   */
  coverage: z.nullable(
    z.object({
      needs: z.enum(["none", "history", "window"]),
      ms: z.optional(z.number()),
      from: z.nullable(z.string()),
      to: z.nullable(z.string()),
    }),
  ),
  status: z.enum(ALERT_STATUSES),
  caseId: z.nullable(z.string()),
  raisedAt: z.string(),
  clearedBy: z.nullable(z.string()),
  clearReason: z.nullable(z.string()),
  /** The alert's case: its status, assignee and review deadline (by its highest severity). */
  caseStatus: z.nullable(z.enum(["open", "investigating", "closed"])),
  caseAssignee: z.nullable(z.string()),
  caseDueAt: z.nullable(z.string()),
  /** The case's version now (how many alerts have joined it), and the one this alert joined at. */
  caseVersion: z.nullable(z.number()),
  joinedVersion: z.nullable(z.number()),
});
export type AlertView = z.output<typeof alertSchema>;
export const ALERT_CSV_COLUMNS = [
  "raisedAt",
  "id",
  "rule",
  "ruleVersion",
  "kind",
  "subUid",
  "severity",
  "status",
  "holds",
  "value",
  "windowStart",
  "windowEnd",
  "records",
  "caseId",
] as const;
export const alertPageSchema = z.object({
  items: z.array(alertSchema),
  total: z.number(),
  nextCursor: nextCursorField,
});

/**
 * A sanctions list match of a case (the system rules of kind sanctioned_address): the listed address and the lists
 * that list it, and its two-person release (proposed by one person, confirmed by another).
 */
export const sanctionsAlertSchema = z.object({
  alertId: z.string(),
  status: z.enum(ALERT_STATUSES),
  side: z.enum(["deposit_source", "withdrawal_destination"]),
  /** The deposit's orderId or the withdrawal request's ID. */
  recordId: z.string(),
  address: z.string(),
  listed: z.array(z.object({ list: z.string(), versionId: z.number() })),
  raisedAt: z.string(),
  releaseRequestedBy: z.nullable(z.string()),
  releaseRequestedAt: z.nullable(z.string()),
  releaseReason: z.nullable(z.string()),
  clearedBy: z.nullable(z.string()),
  clearedAt: z.nullable(z.string()),
  clearReason: z.nullable(z.string()),
});
export type SanctionsAlertView = z.output<typeof sanctionsAlertSchema>;
