// The audit rows as the table shows them (ids as text, for row keys), and the words a row is summed up in.
import type { AuditRowView as AuditRow } from "@/lib/api/audit";

export type AuditRowView = Omit<AuditRow, "id" | "intentId"> & { id: string; intentId: string | null };

export function toRowView(r: AuditRow): AuditRowView {
  return { ...r, id: String(r.id), intentId: r.intentId === null ? null : String(r.intentId) };
}

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
