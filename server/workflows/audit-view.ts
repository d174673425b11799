import "server-only";
import { AUDIT_ACTIONS, appendAudit, listAudit, walkAudit, type AuditFilters, type AuditRow } from "@/server/audit";
import type { Db } from "@/server/db";
import type { StaffSession } from "@/server/auth/session";
import type { z } from "zod";
import type { auditFiltersSchema } from "@/lib/api/audit";

type Filters = z.output<typeof auditFiltersSchema>;

export type AuditRowView = Omit<AuditRow, "at"> & { at: string };

function toFilters(f: Filters): AuditFilters {
  return { actor: f.actor, action: f.action, outcome: f.outcome, from: f.from, to: f.to, limit: f.limit, cursor: f.cursor };
}

export async function auditPage(db: Db, f: Filters) {
  const { rows, nextCursor } = await listAudit(db, toFilters(f));
  return { rows: rows.map((r): AuditRowView => ({ ...r, at: r.at.toISOString() })), nextCursor, actions: AUDIT_ACTIONS.options };
}

const CSV_COLUMNS = ["id", "at", "actor", "actorRole", "action", "outcome", "target", "intentId", "requestId", "ip", "params", "detail", "prevHash", "hash"] as const;
const EXPORT_MAX_ROWS = 100_000;

function csvCell(v: unknown): string {
  const s = v === null || v === undefined ? "" : typeof v === "string" ? v : JSON.stringify(v);
  // Spreadsheets run cells that start with = + - @ as formulas.
  const safe = /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The whole filtered log as CSV, newest first; the export itself is recorded first (fail-closed). */
export async function exportAuditCsv(db: Db, f: Filters, session: StaffSession, requestId: string, ip: string | null): Promise<Response> {
  const { cursor: _cursor, limit: _limit, ...filters } = toFilters(f);
  void _cursor;
  void _limit;
  await appendAudit(db, {
    actor: session.email, actorRole: session.role, action: "audit.export", outcome: "info",
    params: { ...f, from: f.from?.toISOString(), to: f.to?.toISOString() }, requestId, ip,
  });
  const lines = [CSV_COLUMNS.join(",")];
  for await (const r of walkAudit(db, filters, EXPORT_MAX_ROWS)) {
    lines.push(CSV_COLUMNS.map((c) => csvCell(c === "at" ? r.at.toISOString() : r[c])).join(","));
  }
  const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, "-");
  return new Response(`${lines.join("\r\n")}\r\n`, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="audit-${stamp}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
