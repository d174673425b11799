import "server-only";
// A sub-account's case: the alerts gathered into it (evaluate.ts), an assignee, a status (open →
// investigating → closed with an outcome and a reason), notes and the ledger records it concerns. Every
// change is one guarded statement (nothing changes a closed case) and an audit entry whose target is the
// case (the route's), which is the trail its page shows.
import { DomainError, invalidField } from "@/lib/api/errors";
import type { CaseView, CaseWithAlerts } from "@/lib/api/monitoring";
import type { StaffSession } from "@/server/auth/session";
import type { Db, Queryable } from "@/server/db";
import { ALERT_SELECT, alertView, type AlertRow } from "./alert";
import { caseDueSql, caseSeveritySql } from "./review";
import { refuseOnHold } from "@/server/workflows/approval-gate";

type CaseRow = {
  id: string;
  sub_uid: string;
  status: CaseView["status"];
  assignee: string | null;
  outcome: CaseView["outcome"];
  outcome_reason: string | null;
  opened_at: Date;
  closed_by: string | null;
  closed_at: Date | null;
  severity: string | null;
  review_due_at: Date;
};

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

export async function getCase(db: Queryable, id: string): Promise<CaseView> {
  const { rows } = await db.query<CaseRow>(
    `SELECT c.*, ${caseSeveritySql("c")} AS severity, ${caseDueSql("c")} AS review_due_at
       FROM monitoring_cases c WHERE c.id::text = $1`,
    [id],
  );
  const c = rows[0];
  if (!c) throw new DomainError("not_found", `No case ${id}`);
  // Counted, not read: a case may gather thousands of alerts, which its page reads a keyset page at a time.
  const counts = await db.query<{ n: string; holding: boolean }>(
    `SELECT count(*)::text AS n, coalesce(bool_or(holds AND status = 'open'), false) AS holding
       FROM monitoring_alerts WHERE case_id = $1`,
    [c.id],
  );
  const notes = await db.query<{ id: string; author: string; body: string; created_at: Date }>(
    `SELECT id::text, author, body, created_at FROM monitoring_case_notes WHERE case_id = $1 ORDER BY id`,
    [c.id],
  );
  const records = await db.query<{ record_kind: string; record_id: string; attached_by: string; attached_at: Date }>(
    `SELECT record_kind, record_id, attached_by, attached_at FROM monitoring_case_records WHERE case_id = $1
      ORDER BY attached_at, record_kind, record_id`,
    [c.id],
  );
  const trail = await db.query<{ id: string; at: Date; actor: string; action: string; outcome: string }>(
    `SELECT id::text, at, actor, action, outcome FROM audit_log WHERE target = $1 ORDER BY id`,
    [`case:${c.id}`],
  );
  return {
    id: c.id,
    subUid: c.sub_uid,
    status: c.status,
    assignee: c.assignee,
    outcome: c.outcome,
    outcomeReason: c.outcome_reason,
    openedAt: iso(c.opened_at)!,
    closedBy: c.closed_by,
    closedAt: iso(c.closed_at),
    alertCount: Number(counts.rows[0]!.n),
    notes: notes.rows.map((n) => ({ id: n.id, author: n.author, body: n.body, createdAt: iso(n.created_at)! })),
    records: records.rows.map((r) => ({
      recordKind: r.record_kind,
      recordId: r.record_id,
      attachedBy: r.attached_by,
      attachedAt: iso(r.attached_at)!,
    })),
    holding: counts.rows[0]!.holding,
    severity: c.severity,
    reviewDueAt: iso(c.review_due_at),
    trail: trail.rows.map((t) => ({ ...t, at: iso(t.at)! })),
  };
}

/** The case with every one of its alerts, oldest first (its report and its records' export). */
export async function getCaseWithAlerts(db: Queryable, id: string): Promise<CaseWithAlerts> {
  const c = await getCase(db, id);
  const alerts = await db.query<AlertRow>(`${ALERT_SELECT} WHERE a.case_id = $1 ORDER BY a.raised_at, a.id`, [c.id]);
  return { ...c, alerts: alerts.rows.map(alertView) };
}

/** The case, refused when it does not exist or is closed. */
async function openCase(db: Queryable, id: string): Promise<CaseView> {
  const c = await getCase(db, id);
  if (c.status === "closed") throw new DomainError("already_decided", "This case is closed");
  return c;
}

export async function updateCase(
  db: Db,
  id: string,
  input: { assignee?: string | null; status?: "open" | "investigating" },
): Promise<CaseView> {
  await openCase(db, id);
  const { rows } = await db.query(
    `UPDATE monitoring_cases SET assignee = CASE WHEN $2 THEN $3 ELSE assignee END, status = coalesce($4, status)
      WHERE id::text = $1 AND status <> 'closed' RETURNING id`,
    [id, input.assignee !== undefined, input.assignee ?? null, input.status ?? null],
  );
  if (!rows[0]) throw new DomainError("already_decided", "This case was closed meanwhile");
  return getCase(db, id);
}

/** Closes the case with its outcome; its alerts close with it (a holding one no longer holds). */
export async function closeCase(
  db: Db,
  session: StaffSession,
  id: string,
  input: { outcome: NonNullable<CaseView["outcome"]>; reason: string },
): Promise<CaseView> {
  await refuseOnHold(db, session);
  await openCase(db, id);
  await db.transaction(async (tx) => {
    const { rows } = await tx.query(
      `UPDATE monitoring_cases SET status = 'closed', outcome = $2, outcome_reason = $3,
        closed_by = $4, closed_at = now()
        WHERE id::text = $1 AND status <> 'closed' RETURNING id`,
      [id, input.outcome, input.reason, session.email],
    );
    if (!rows[0]) throw new DomainError("already_decided", "This case was closed meanwhile");
    await tx.query(`UPDATE monitoring_alerts SET status = 'closed' WHERE case_id::text = $1 AND status = 'open'`, [id]);
  });
  return getCase(db, id);
}

export async function addNote(db: Db, session: StaffSession, id: string, body: string): Promise<CaseView> {
  await openCase(db, id);
  await db.query(`INSERT INTO monitoring_case_notes (case_id, author, body) VALUES ($1, $2, $3)`, [
    id,
    session.email,
    body,
  ]);
  return getCase(db, id);
}

/** Attaches a deposit (by orderId) or a withdrawal request (by id) of the case's own sub-account. */
export async function attachRecord(
  db: Db,
  session: StaffSession,
  id: string,
  input: { recordKind: "deposit" | "withdrawal"; recordId: string },
): Promise<CaseView> {
  const c = await openCase(db, id);
  const found =
    input.recordKind === "deposit"
      ? await db.query(`SELECT 1 FROM ledger_deposits WHERE order_id = $1 AND sub_uid = $2`, [input.recordId, c.subUid])
      : await db.query(`SELECT 1 FROM withdrawal_requests WHERE id::text = $1 AND sub_uid = $2`, [
          input.recordId,
          c.subUid,
        ]);
  if (!found.rows[0])
    throw invalidField("recordId", `No ${input.recordKind} ${input.recordId} of sub-account ${c.subUid} in the ledger`);
  await db.query(
    `INSERT INTO monitoring_case_records (case_id, record_kind, record_id, attached_by) VALUES ($1, $2, $3, $4)
     ON CONFLICT DO NOTHING`,
    [id, input.recordKind, input.recordId, session.email],
  );
  return getCase(db, id);
}

/** Clears the case's open holding alerts with a reason: the sub-account's withdrawals may be approved again. */
export async function clearHold(db: Db, session: StaffSession, id: string, reason: string): Promise<CaseView> {
  await refuseOnHold(db, session);
  await getCase(db, id);
  await db.query(
    `UPDATE monitoring_alerts SET status = 'cleared', cleared_by = $2, cleared_at = now(), clear_reason = $3
      WHERE case_id::text = $1 AND holds AND status = 'open'`,
    [id, session.email, reason],
  );
  return getCase(db, id);
}

/**
 * Compliance's other answer to a hold: rejecting a waiting request of the case's sub-account (requested →
 * rejected, guarded as the lead's rejection is; nothing was sent). Only while the case holds.
 */
export async function rejectHeldWithdrawal(
  db: Db,
  session: StaffSession,
  id: string,
  input: { withdrawalId: string; reason: string },
): Promise<CaseView> {
  await refuseOnHold(db, session);
  const c = await getCase(db, id);
  if (!c.holding) throw new DomainError("already_decided", "This case holds no withdrawal: the lead decides");
  const { rows } = await db.query(
    `UPDATE withdrawal_requests SET state = 'rejected', rejected_by = $2, rejected_at = now(), reject_reason = $3,
            version = version + 1
      WHERE id::text = $1 AND sub_uid = $4 AND state = 'requested' AND lower(requested_by) <> lower($2) RETURNING id`,
    [input.withdrawalId, session.email, `Compliance: ${input.reason}`, c.subUid],
  );
  if (!rows[0])
    throw invalidField(
      "withdrawalId",
      `No waiting withdrawal request ${input.withdrawalId} of sub-account ${c.subUid}`,
    );
  await db.query(
    `INSERT INTO monitoring_case_records (case_id, record_kind, record_id, attached_by)
      VALUES ($1, 'withdrawal', $2, $3)
     ON CONFLICT DO NOTHING`,
    [c.id, input.withdrawalId, session.email],
  );
  return getCase(db, id);
}
