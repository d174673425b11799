import "server-only";
// Alerts as compliance reads them: newest first by keyset, filtered by rule, sub-account, severity, status
// and age, with the exact count of the filtered set.
import type { AlertFilters, AlertView } from "@/lib/api/monitoring";
import type { Queryable } from "@/server/db";
import type { StaffSession } from "@/server/auth/session";
import { sealedExport } from "@/server/audit";
import type { CsvRows } from "@/lib/csv";
import type { Db } from "@/server/db";
import { caseDueSql, overdueSql } from "./review";
import { keysetPage, keysetWalk, sqlFilters, type CursorCodec, type KeysetQuery } from "@/server/db/keyset";

export type AlertRow = {
  id: string;
  rule_id: string;
  rule_name: string;
  rule_version: number;
  kind: string;
  sub_uid: string;
  occurrence: string;
  window_start: string;
  window_end: string;
  severity: string;
  holds: boolean;
  value: string;
  records: { kind: string; id: string }[];
  coverage: { needs: "none" | "history" | "window"; ms?: number; from: number | null; to: number | null } | null;
  status: AlertView["status"];
  case_id: string | null;
  raised_at: Date;
  cleared_by: string | null;
  clear_reason: string | null;
  case_status: AlertView["caseStatus"];
  case_assignee: string | null;
  case_due_at: Date | null;
  case_version: number | null;
  joined_version: number | null;
};

export const ALERT_SELECT = `SELECT a.id::text, a.rule_id::text, r.name AS rule_name, v.version AS rule_version, v.kind,
  a.sub_uid, a.occurrence, a.window_start::text, a.window_end::text, a.severity, a.holds, a.value, a.records, a.coverage,
  a.status, a.case_id::text, a.raised_at, a.cleared_by, a.clear_reason,
  c.status AS case_status, c.assignee AS case_assignee, c.alert_version AS case_version,
  a.case_version AS joined_version,
  CASE WHEN c.id IS NOT NULL THEN ${caseDueSql("c")} END AS case_due_at
  FROM monitoring_alerts a JOIN monitoring_rule_versions v ON v.id = a.rule_version_id
    JOIN monitoring_rules r ON r.id = a.rule_id
    LEFT JOIN monitoring_cases c ON c.id = a.case_id`;

export const alertView = (r: AlertRow): AlertView => ({
  id: r.id,
  ruleId: r.rule_id,
  ruleName: r.rule_name,
  ruleVersion: Number(r.rule_version),
  kind: r.kind,
  subUid: r.sub_uid,
  occurrence: r.occurrence,
  windowStart: r.window_start,
  windowEnd: r.window_end,
  severity: r.severity,
  holds: r.holds,
  value: r.value,
  records: r.records,
  coverage: r.coverage && {
    needs: r.coverage.needs,
    ...(r.coverage.ms === undefined ? {} : { ms: r.coverage.ms }),
    from: r.coverage.from === null ? null : new Date(Number(r.coverage.from)).toISOString(),
    to: r.coverage.to === null ? null : new Date(Math.min(Number(r.coverage.to), 8.64e15)).toISOString(),
  },
  status: r.status,
  caseId: r.case_id,
  raisedAt: new Date(r.raised_at).toISOString(),
  clearedBy: r.cleared_by,
  clearReason: r.clear_reason,
  caseStatus: r.case_status,
  caseAssignee: r.case_assignee,
  caseDueAt: r.case_due_at ? new Date(r.case_due_at).toISOString() : null,
  caseVersion: r.case_version === null ? null : Number(r.case_version),
  joinedVersion: r.joined_version === null ? null : Number(r.joined_version),
});

type Key = { at: string; id: string };
const cursor: CursorCodec<Key> = {
  encode: (k) => Buffer.from(JSON.stringify([k.at, k.id])).toString("base64url"),
  decode: (c) => {
    try {
      const v: unknown = JSON.parse(Buffer.from(c, "base64url").toString());
      return Array.isArray(v) && typeof v[0] === "string" && typeof v[1] === "string" && /^\d+$/.test(v[1])
        ? { at: v[0], id: v[1] }
        : null;
    } catch {
      return null;
    }
  },
};

function filtersOf(f: AlertFilters) {
  const w = sqlFilters();
  if (f.ruleId) w.add((p) => `a.rule_id::text = ${p}`, f.ruleId);
  if (f.subUid) w.add((p) => `a.sub_uid = ${p}`, f.subUid);
  if (f.severity) w.add((p) => `a.severity = ${p}`, f.severity);
  if (f.status) w.add((p) => `a.status = ${p}`, f.status);
  if (f.olderThanHours !== undefined)
    w.add((p) => `a.raised_at <= now() - ${p}::integer * interval '1 hour'`, f.olderThanHours);
  if (f.overdue) w.where.push(overdueSql("a"));
  if (f.caseId) w.add((p) => `a.case_id = ${p}::uuid`, f.caseId);
  return w;
}

const query = (w: ReturnType<typeof filtersOf>): Omit<KeysetQuery<AlertRow, Key>, "cursor" | "limit"> => ({
  select: ALERT_SELECT,
  where: w.where,
  params: w.params,
  orderBy: "a.raised_at DESC, a.id DESC",
  olderThan: (k, p) => `(a.raised_at, a.id) < (${p(k.at)}::timestamptz, ${p(k.id)}::bigint)`,
  keyOf: (r) => ({ at: new Date(r.raised_at).toISOString(), id: r.id }),
  codec: cursor,
  pageSize: { default: 50, max: 500 },
});

export async function listAlerts(
  db: Queryable,
  f: AlertFilters,
): Promise<{ items: AlertView[]; total: number; nextCursor: string | null }> {
  const w = filtersOf(f);
  const total = await countAlerts(db, w);
  const page = await keysetPage(db, { ...query(w), cursor: f.cursor, limit: f.limit });
  return { items: page.items.map(alertView), total, nextCursor: page.nextCursor };
}

async function countAlerts(db: Queryable, w: ReturnType<typeof filtersOf>): Promise<number> {
  const count = await db.query<{ n: string }>(
    `SELECT count(*)::text AS n FROM monitoring_alerts a ${w.where.length ? `WHERE ${w.where.join(" AND ")}` : ""}`,
    w.params,
  );
  return Number(count.rows[0]!.n);
}

/** The most rows one export writes: a larger set is refused (export_too_large), never cut short. */
export const ALERT_EXPORT_MAX = 200_000;

/**
 * Every filtered alert, newest first, as CSV rows (ALERT_CSV_COLUMNS): the page's rows for the same filters
 * (every one of them, caseId too), whole. The export is an audit entry whose intent records those filters.
 */
export async function alertsForExport(
  db: Db,
  f: AlertFilters,
  session: StaffSession,
  ctx: { requestId?: string; ip?: string | null } = {},
  opts: { maxRows?: number } = {},
): Promise<CsvRows> {
  // Every filter of the page; only its cursor and page size do not apply to a whole export.
  const filters: AlertFilters = { ...f, cursor: undefined, limit: undefined };
  const cap = opts.maxRows ?? ALERT_EXPORT_MAX;
  const w = filtersOf(filters);
  const narrow = "Narrow it with the filters (a rule, a sub-account, a status, a case) and export it in parts.";
  const rows = keysetWalk(db, query(w), cap, narrow);
  const subject = {
    actor: session.email,
    actorRole: session.role,
    action: "monitoring.alerts-export" as const,
    target: "alerts",
    requestId: ctx.requestId ?? null,
    ip: ctx.ip ?? null,
  };
  return sealedExport(
    db,
    subject,
    filters,
    (async function* () {
      for await (const r of rows) {
        const a = alertView(r);
        yield [
          a.raisedAt,
          a.id,
          a.ruleName,
          a.ruleVersion,
          a.kind,
          a.subUid,
          a.severity,
          a.status,
          a.holds,
          a.value,
          a.windowStart,
          a.windowEnd,
          a.records.map((x) => `${x.kind}:${x.id}`).join(" "),
          a.caseId ?? "",
        ];
      }
    })(),
    { count: await countAlerts(db, w), cap, narrow },
  );
}
