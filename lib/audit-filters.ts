import { z } from "zod";
import { isMsTimestamp } from "@/lib/platform/schemas";

/** Filters of the audit log, shared by the /audit page (URL) and its API (query string). */
export const AUDIT_OUTCOME_VALUES = ["intent", "success", "failure", "refused", "info"] as const;

const time = (field: string) =>
  z
    .string()
    // Not a bare 16-digit check: past year 275760 the Date below would be invalid (and the query a 500).
    .refine(isMsTimestamp, { error: `${field} must be a Unix millisecond timestamp` })
    .transform((v) => new Date(Number(v)))
    .optional();

export const auditFiltersSchema = z.object({
  actor: z.string().trim().max(200).optional().transform((v) => v || undefined),
  action: z
    .string()
    .regex(/^[a-zA-Z.-]{1,64}$/, { error: "action must be an audit action such as withdrawals.approve" })
    .optional(),
  outcome: z.enum(AUDIT_OUTCOME_VALUES, { error: `outcome must be one of ${AUDIT_OUTCOME_VALUES.join(", ")}` }).optional(),
  from: time("from"),
  to: time("to"),
  limit: z
    .string()
    .regex(/^\d+$/, { error: "limit must be a whole number from 1 to 500" })
    .transform(Number)
    .pipe(z.number().int().min(1, { error: "limit must be a whole number from 1 to 500" }).max(500, { error: "limit must be a whole number from 1 to 500" }))
    .optional(),
  // A safe integer: past 2^53 the number is rounded, and past the database's bigint the query fails (a 500).
  beforeId: z
    .string()
    .regex(/^\d+$/, { error: "beforeId must be a row id" })
    .transform(Number)
    .refine(Number.isSafeInteger, { error: "beforeId must be a row id" })
    .optional(),
});
export type AuditFiltersInput = z.input<typeof auditFiltersSchema>;
