import "server-only";
// What staff ask of the audit log: one page of it (filtered, newest first) and the whole filtered log for
// the CSV export, which is itself recorded before a row is read (fail-closed).
import { AUDIT_CSV_COLUMNS, type AuditFiltersValues, type AuditPage } from "@/lib/api/audit";
import {
  AUDIT_ACTIONS,
  auditRowFor,
  countAudit,
  listAudit,
  sealedExport,
  walkAudit,
  type AuditRow,
} from "@/server/audit";
import type { CsvRows } from "@/lib/csv";
import type { StaffSession } from "@/server/auth/session";
import { staffEmailsById } from "@/server/auth/users";
import type { Db } from "@/server/db";
import type { Role } from "@/lib/rbac";
import { readsCompliance } from "@/lib/api/audit/confidential";

/** The most rows one export writes: a larger set is refused (export_too_large), never cut short. */
export const AUDIT_EXPORT_MAX = 100_000;

const view = (r: AuditRow) => ({ ...r, at: r.at.toISOString() });

/** The filters as `role` may apply them: a sub-account's entries leave compliance's out without monitoring.read. */
const filtersFor = <F extends AuditFiltersValues>(f: F, role: Role): F & { unlinkConfidential: boolean } => ({
  ...f,
  unlinkConfidential: !readsCompliance(role),
});

/**
 * One page as `role` reads it: without `monitoring.read`, compliance's entries show that they exist, not what
 * they say (server/audit/confidential.ts).
 */
export async function auditPage(db: Db, f: AuditFiltersValues, role: Role): Promise<AuditPage> {
  const { rows: stored, nextCursor } = await listAudit(db, filtersFor(f, role));
  const rows = stored.map((r) => auditRowFor(role, r));
  // Actions on a member of staff name them by id (it never changes); the page says who, by e-mail, beside it.
  const staffTarget = (r: AuditRow) => (r.action.startsWith("users.") && r.target ? r.target.toLowerCase() : null);
  const emails = await staffEmailsById(
    db,
    rows.flatMap((r) => staffTarget(r) ?? []),
  );
  return {
    rows: rows.map((r) => {
      const targetName = emails.get(staffTarget(r) ?? "");
      return targetName ? { ...view(r), targetName } : view(r);
    }),
    nextCursor,
    actions: AUDIT_ACTIONS.options,
  };
}

/** Every row the filters select, as rows of AUDIT_CSV_COLUMNS; the page's cursor and size do not apply. */
export async function auditForExport(
  db: Db,
  f: AuditFiltersValues,
  session: StaffSession,
  ctx: { requestId: string; ip: string | null },
  opts: { maxRows?: number } = {},
): Promise<CsvRows> {
  const cap = opts.maxRows ?? AUDIT_EXPORT_MAX;
  const readable = filtersFor(f, session.role);
  const narrow = "Narrow it with the filters (a shorter period, an action, an actor) and export it in parts.";
  const subject = {
    actor: session.email,
    actorRole: session.role,
    action: "audit.export" as const,
    requestId: ctx.requestId,
    ip: ctx.ip,
  };
  // Every filter of the page; only its cursor and page size do not apply to a whole export.
  const params = { ...f, cursor: undefined, limit: undefined, from: f.from?.toISOString(), to: f.to?.toISOString() };
  return sealedExport(
    db,
    subject,
    params,
    (async function* () {
      for await (const r of walkAudit(db, readable, cap, narrow)) {
        // The row as the exporter may read it (compliance's detail withheld from a role without monitoring.read).
        const row = view(auditRowFor(session.role, r));
        yield AUDIT_CSV_COLUMNS.map((c) => row[c]);
      }
    })(),
    { count: await countAudit(db, readable), cap, narrow },
  );
}
