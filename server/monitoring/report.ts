import "server-only";
// A case as evidence: the ledger records it concerns (attached by compliance, or named by one of its alerts) as
// CSV rows, and its self-contained HTML report (report-html.ts). Both are audited with the case as target, so
// they join the case's own trail, and each outcome records the file's SHA-256 (server/audit/export-seal.ts).
import { CASE_RECORD_CSV_COLUMNS, type CaseRecordRow } from "@/lib/api/monitoring/evidence";
import type { CaseWithAlerts } from "@/lib/api/monitoring";
import type { CsvRows } from "@/lib/csv";
import { openAudit, sealOf, sealedExport, type AuditSubject } from "@/server/audit";
import type { StaffSession } from "@/server/auth/session";
import type { Db, Queryable } from "@/server/db";
import { failureDetail } from "@/server/failures";
import { getCaseWithAlerts } from "./case";
import { renderCaseReport } from "./report-html";

const isoOf = (d: Date | string | number | null) => (d === null ? "" : new Date(d).toISOString());

/** The records the case concerns, oldest first; a record named twice is one row saying every source. */
export async function caseRecordRows(db: Queryable, c: CaseWithAlerts): Promise<CaseRecordRow[]> {
  const via = new Map<string, string[]>();
  const attached = new Map<string, CaseWithAlerts["records"][number]>();
  const note = (kind: string, id: string, why: string) => {
    const key = `${kind}:${id}`;
    via.set(key, [...(via.get(key) ?? []), why]);
  };
  for (const r of c.records) {
    note(r.recordKind, r.recordId, "attached");
    attached.set(`${r.recordKind}:${r.recordId}`, r);
  }
  for (const a of c.alerts) for (const r of a.records) note(r.kind, r.id, `alert ${a.id} (${a.ruleName})`);
  const ids = (kind: string) =>
    [...via.keys()].filter((k) => k.startsWith(`${kind}:`)).map((k) => k.slice(kind.length + 1));
  const deposits = await db.query<{
    order_id: string;
    sub_uid: string;
    coin: string;
    amount: string;
    status: string;
    ctime: string;
    chain: string;
    from_address: string;
    tx_id: string;
  }>(
    `SELECT order_id, sub_uid, coin, amount::text AS amount, status, ctime::text AS ctime, chain, from_address, tx_id
       FROM ledger_deposits WHERE order_id = ANY($1::text[])`,
    [ids("deposit")],
  );
  const withdrawals = await db.query<{
    id: string;
    sub_uid: string;
    coin: string;
    amount: string;
    state: string;
    requested_at: Date;
    chain: string | null;
    address: string;
    platform_order_id: string | null;
  }>(
    `SELECT id::text, sub_uid, coin, amount, state, requested_at, chain, address, platform_order_id
       FROM withdrawal_requests WHERE id::text = ANY($1::text[])`,
    [ids("withdrawal")],
  );
  const rows: { at: number; row: CaseRecordRow }[] = [];
  const row = (
    kind: string,
    id: string,
    r: Omit<CaseRecordRow, "kind" | "id" | "via" | "attachedBy" | "attachedAtUtc">,
  ) => {
    const a = attached.get(`${kind}:${id}`);
    rows.push({
      at: r.timeUtc ? Date.parse(r.timeUtc) : 0,
      row: {
        kind,
        id,
        ...r,
        via: (via.get(`${kind}:${id}`) ?? []).join("; "),
        attachedBy: a?.attachedBy ?? "",
        attachedAtUtc: a?.attachedAt ?? "",
      },
    });
  };
  for (const d of deposits.rows) {
    row("deposit", d.order_id, {
      subUid: d.sub_uid,
      coin: d.coin,
      amount: d.amount,
      state: d.status,
      timeUtc: isoOf(Number(d.ctime)),
      chain: d.chain,
      address: d.from_address,
      txId: d.tx_id,
    });
  }
  for (const w of withdrawals.rows) {
    row("withdrawal", w.id, {
      subUid: w.sub_uid,
      coin: w.coin,
      amount: w.amount,
      state: w.state,
      timeUtc: isoOf(w.requested_at),
      chain: w.chain ?? "",
      address: w.address,
      txId: w.platform_order_id ?? "",
    });
  }
  // A record no longer in the ledger (retention) is still listed, with what the case knows of it.
  const found = new Set(rows.map((r) => `${r.row.kind}:${r.row.id}`));
  for (const key of via.keys()) {
    if (found.has(key)) continue;
    const [kind, ...rest] = key.split(":");
    const empty = { subUid: c.subUid, coin: "", amount: "", chain: "", address: "", txId: "", timeUtc: "" };
    row(kind!, rest.join(":"), { ...empty, state: "not in the ledger" });
  }
  rows.sort((x, y) => x.at - y.at || x.row.kind.localeCompare(y.row.kind) || x.row.id.localeCompare(y.row.id));
  return rows.map((r) => r.row);
}

type Ctx = { requestId?: string | null; ip?: string | null };

const subjectOf = (session: StaffSession, action: AuditSubject["action"], id: string, ctx: Ctx): AuditSubject => ({
  actor: session.email,
  actorRole: session.role,
  action,
  target: `case:${id}`,
  requestId: ctx.requestId ?? null,
  ip: ctx.ip ?? null,
});

/** The case's records as CSV rows (CASE_RECORD_CSV_COLUMNS), sealed in the audit log as they are sent. */
export async function caseRecordsForExport(db: Db, session: StaffSession, id: string, ctx: Ctx): Promise<CsvRows> {
  const c = await getCaseWithAlerts(db, id);
  const rows = await caseRecordRows(db, c);
  return sealedExport(
    db,
    subjectOf(session, "monitoring.case-records-export", c.id, ctx),
    { caseId: c.id, subUid: c.subUid },
    (async function* () {
      for (const r of rows) yield CASE_RECORD_CSV_COLUMNS.map((k) => r[k]);
    })(),
  );
}

/**
 * The case's report, built whole: audited fail-closed (the intent first, whose ID the report states), then
 * hashed, and the outcome records the hash before a byte is sent.
 */
export async function caseReport(
  db: Db,
  session: StaffSession,
  id: string,
  ctx: Ctx,
  now: Date = new Date(),
): Promise<{ name: string; bytes: Uint8Array }> {
  const c = await getCaseWithAlerts(db, id);
  const records = await caseRecordRows(db, c);
  const trail = await openAudit(db, subjectOf(session, "monitoring.case-report", c.id, ctx), {
    caseId: c.id,
    subUid: c.subUid,
  });
  try {
    const html = renderCaseReport({ c, records, by: session.email, at: now, auditEntry: trail.intentId });
    const bytes = new TextEncoder().encode(html);
    // The seal before a byte is sent: a report whose seal cannot be written is not sent (the answer fails).
    await trail.closeOrThrow("success", { records: records.length, ...sealOf(bytes) });
    return { name: `case_${c.id.slice(0, 8)}_report_${now.toISOString().slice(0, 10)}.html`, bytes };
  } catch (e) {
    await trail.close("failure", failureDetail(e));
    throw e;
  }
}
