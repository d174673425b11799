// Brokerdesk's audit-log routes: the filters (shared by the /audit page's URL and the query string), the
// rows as the API sends them, and one entry per route. Isomorphic.
import * as z from "zod/mini";
import "@/lib/zod-english";
import { defineResource } from "../define-resource";
import { AUDIT_ACTIONS } from "./actions";
import { nextCursorField, orderedRange, pageCursor, rangeAndPage } from "../query-fields";

import { AUDIT_OUTCOME_VALUES } from "./words";
export { AUDIT_OUTCOME_VALUES };

const isAuditAction = (v: string) => (AUDIT_ACTIONS.options as readonly string[]).includes(v);

/** The audit log pages by row id (newest first); its cursor is the id of the last row shown. */
export const auditCursor = {
  encode: (id: number): string => String(id),
  // A safe integer: past 2^53 the number is rounded, and past the database's bigint the query would fail.
  decode: (cursor: string): number | null =>
    /^\d{1,16}$/.test(cursor) && Number.isSafeInteger(Number(cursor)) ? Number(cursor) : null,
};

export const auditFiltersSchema = z
  .object({
    actor: z.pipe(
      z.optional(z.string().check(z.trim()).check(z.maxLength(200))),
      z.transform((v) => v || undefined),
    ),
    /** Entries about this sub-account (its UID), its withdrawals included. */
    subUid: z.optional(
      z.pipe(
        z
          .string()
          .check(z.trim())
          .check(z.regex(/^(\d{1,32})?$/, { error: "subUid is a sub-account UID (digits)" })),
        z.transform((v) => v || undefined),
      ),
    ),
    action: z.optional(
      z.pipe(
        z
          .string()
          .check(
            z.regex(/^[a-zA-Z.-]{1,64}$/, {
              error: "action must be an audit action such as withdrawals.approve",
              abort: true,
            }),
          )
          .check(z.refine(isAuditAction, { error: (issue) => `Unknown audit action "${String(issue.input)}"` })),
        z.transform((v) => v as z.output<typeof AUDIT_ACTIONS>),
      ),
    ),
    outcome: z.optional(
      z.enum(AUDIT_OUTCOME_VALUES, { error: `outcome must be one of ${AUDIT_OUTCOME_VALUES.join(", ")}` }),
    ),
    ...rangeAndPage,
    // Checked here, not only when a page is read: the export ignores the cursor but refuses a bad one alike.
    cursor: pageCursor.check(
      z.refine((c) => c === undefined || auditCursor.decode(c) !== null, {
        error: "cursor is not one this list gave out",
      }),
    ),
  })
  .check(orderedRange());
export type AuditFiltersInput = z.input<typeof auditFiltersSchema>;
export type AuditFiltersValues = z.output<typeof auditFiltersSchema>;

/** A row as the API sends it: times ISO 8601 UTC, params and detail redacted when written. */
export const auditRowSchema = z.object({
  id: z.number(),
  at: z.string(),
  actor: z.string(),
  actorRole: z.nullable(z.string()),
  action: z.string(),
  outcome: z.string(),
  target: z.nullable(z.string()),
  params: z.unknown(),
  detail: z.unknown(),
  requestId: z.nullable(z.string()),
  ip: z.nullable(z.string()),
  intentId: z.nullable(z.number()),
  prevHash: z.string(),
  hash: z.string(),
  /**
   * A member of staff's e-mail, where the target is their id (users.update, users.disable…): what a reviewer knows
   * them
   * by.
   */
  targetName: z.optional(z.string()),
  /**
   * Compliance's entry read by a role without monitoring.read: its params, detail and the ID in its target are
   * withheld (lib/api/audit/confidential.ts); the stored row is unchanged.
   */
  confidential: z.optional(z.boolean()),
});
export type AuditRowView = z.output<typeof auditRowSchema>;

export const auditPageSchema = z.object({
  rows: z.array(auditRowSchema),
  nextCursor: nextCursorField,
  actions: z.array(z.string()),
});
export type AuditPage = z.output<typeof auditPageSchema>;

export const AUDIT_CSV_COLUMNS = [
  "id",
  "at",
  "actor",
  "actorRole",
  "action",
  "outcome",
  "target",
  "intentId",
  "requestId",
  "ip",
  "params",
  "detail",
  "prevHash",
  "hash",
] as const satisfies readonly (keyof AuditRowView)[];

export const auditResources = {
  list: defineResource({
    id: "audit.list",
    method: "GET",
    path: "/api/audit",
    summary: "The audit log, newest first, filtered and keyset-paged",
    permission: "audit.read",
    input: auditFiltersSchema,
    output: auditPageSchema,
    errors: [],
  }),
  export: defineResource({
    id: "audit.export",
    method: "GET",
    path: "/api/audit/export",
    summary: "The filtered audit log as CSV (the export is itself recorded first)",
    permission: "audit.read",
    input: auditFiltersSchema,
    output: auditRowSchema,
    reply: "csv",
    errors: ["export_too_large"],
  }),
} as const;
