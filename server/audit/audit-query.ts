import "server-only";
// Reading the audit log: its filters as SQL, one page newest first, every row of a filter (the CSV export) and
// their count. Writing and checking the chain are audit-log.ts's.
import { auditCursor } from "@/lib/api/audit";
import { CONFIDENTIAL_ACTION_PREFIX } from "@/lib/api/audit/confidential";
import type { AuditAction, AuditOutcome } from "@/lib/api/audit/actions";
import type { Db } from "@/server/db";
import { keysetPage, keysetWalk, sqlFilters, type KeysetQuery } from "@/server/db/keyset";
import { AUDIT_COLUMNS, toRow, type AuditRow, type DbAuditRow } from "./audit-log";

export type AuditFilters = {
  actor?: string;
  /** Entries about this sub-account (migration 0027's audit_subaccount), and about its withdrawals. */
  subUid?: string;
  /**
   * Leaves compliance's own entries out of a sub-account's entries (lib/api/audit/confidential.ts): a reader
   * without `monitoring.read` sees that compliance acted, but never which sub-account it was about.
   */
  unlinkConfidential?: boolean;
  action?: AuditAction;
  outcome?: AuditOutcome;
  /** Inclusive. */
  from?: Date;
  /** Exclusive. */
  to?: Date;
  /** 1..500, default 100. */
  limit?: number;
  /** The previous page's nextCursor. */
  cursor?: string;
};

export const AUDIT_PAGE_MAX = 500;

/**
 * The audit log's query for the keyset pager: newest first by id. Actor matches part of the e-mail, case-insensitively.
 */
function auditQuery(
  filters: Omit<AuditFilters, "cursor" | "limit">,
): Omit<KeysetQuery<DbAuditRow, number>, "cursor" | "limit"> {
  const f = sqlFilters();
  // Part of the e-mail ("lead" finds lead@…); % and _ are the text typed, not wildcards.
  if (filters.actor) f.add((p) => `strpos(lower(actor), lower(${p})) > 0`, filters.actor);
  if (filters.action) f.add((p) => `action = ${p}`, filters.action);
  if (filters.subUid)
    f.add(
      (p) =>
        `(audit_subaccount(target, params) = ${p}
          OR target IN (SELECT 'withdrawal:' || id::text FROM withdrawal_requests WHERE sub_uid = ${p}))`,
      filters.subUid,
    );
  if (filters.subUid && filters.unlinkConfidential)
    f.add((p) => `NOT starts_with(action, ${p})`, CONFIDENTIAL_ACTION_PREFIX);
  if (filters.outcome) f.add((p) => `outcome = ${p}`, filters.outcome);
  if (filters.from) f.add((p) => `at >= ${p}::timestamptz`, filters.from.toISOString());
  if (filters.to) f.add((p) => `at < ${p}::timestamptz`, filters.to.toISOString());
  return {
    select: `SELECT ${AUDIT_COLUMNS} FROM audit_log`,
    where: f.where,
    params: f.params,
    orderBy: "id DESC",
    olderThan: (id, p) => `id < ${p(id)}`,
    keyOf: (r) => Number(r.id),
    codec: auditCursor,
    pageSize: { default: 100, max: AUDIT_PAGE_MAX },
  };
}

/** One page, newest first; `nextCursor` is null on the last page. */
export async function listAudit(
  db: Db,
  filters: AuditFilters = {},
): Promise<{ rows: AuditRow[]; nextCursor: string | null }> {
  const page = await keysetPage(db, { ...auditQuery(filters), cursor: filters.cursor, limit: filters.limit });
  return { rows: page.items.map(toRow), nextCursor: page.nextCursor };
}

/** Every row the filters select, newest first (the CSV export); more than `maxRows` throws export_too_large. */
export async function* walkAudit(
  db: Db,
  filters: Omit<AuditFilters, "cursor" | "limit">,
  maxRows: number,
  narrow?: string,
): AsyncGenerator<AuditRow> {
  for await (const row of keysetWalk(db, auditQuery(filters), maxRows, narrow)) yield toRow(row);
}

/** How many rows the filters select (an export counts before it writes, and refuses a set over its cap). */
export async function countAudit(db: Db, filters: Omit<AuditFilters, "cursor" | "limit">): Promise<number> {
  const q = auditQuery(filters);
  const { rows } = await db.query<{ n: string }>(
    `SELECT count(*)::text AS n FROM audit_log ${q.where.length ? `WHERE ${q.where.join(" AND ")}` : ""}`,
    q.params,
  );
  return Number(rows[0]!.n);
}
