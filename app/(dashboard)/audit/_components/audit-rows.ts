// The browser's parse of GET /api/audit (STYLE rule 3), and the words a row is summed up in.
import { z } from "zod";

const id = z.union([z.number(), z.string()]).transform((v) => String(v));

export const auditRowSchema = z.object({
  id,
  at: z.string(),
  actor: z.string(),
  actorRole: z.string().nullable(),
  action: z.string(),
  outcome: z.string(),
  target: z.string().nullable(),
  params: z.unknown(),
  detail: z.unknown(),
  requestId: z.string().nullable(),
  ip: z.string().nullable(),
  intentId: id.nullable(),
  prevHash: z.string(),
  hash: z.string(),
});
export type AuditRowView = z.output<typeof auditRowSchema>;

export const auditPageSchema = z.object({
  rows: z.array(auditRowSchema),
  nextBeforeId: z.number().nullable(),
  actions: z.array(z.string()),
});

/** One line for the table: why a request was refused, or what the platform answered on failure. */
export function summarize(detail: unknown): string {
  if (!detail || typeof detail !== "object" || Array.isArray(detail)) return "";
  const d = detail as Record<string, unknown>;
  const text = (k: string) => (typeof d[k] === "string" || typeof d[k] === "number" ? String(d[k]) : "");
  if (text("reason")) return [text("status"), text("reason")].filter(Boolean).join(" · ");
  if (text("msg")) return [text("code"), text("msg")].filter(Boolean).join(" ");
  return text("message") || text("code") || text("status");
}

/** Pretty JSON for the details panel; absent values say so rather than print "null". */
export function pretty(value: unknown): string {
  if (value === null || value === undefined) return "(none)";
  return JSON.stringify(value, null, 2);
}
