import "server-only";
// A sub-account's case: the alerts gathered into it (evaluate.ts), an assignee, a status (open →
// investigating → closed with an outcome and a reason), notes and the ledger records it concerns. Every
// change is one guarded statement (nothing changes a closed case) and an audit entry whose target is the
// case (the route's), which is the trail its page shows. A decision (clear, reject, close) names the case as
// its reviewer saw it: its version, bumped each time an alert joins it (migration 0075), and never reaches an
// alert that joined later.
import { DomainError, invalidField } from "@/lib/api/errors";
import { counted } from "@/lib/format";
import type { CaseView, CaseWithAlerts } from "@/lib/api/monitoring";
import type { StaffSession } from "@/server/auth/session";
import type { Db, Queryable } from "@/server/db";
import { ALERT_SELECT, alertView, type AlertRow } from "./alert";
import { caseDueSql, caseSeveritySql } from "./review";
import { refuseOnHold } from "@/server/workflows/approval-gate";
import { IS_SANCTIONS_ALERT } from "./system-rules";
import { sanctionsOfCase } from "./sanctions-release";

const SANCTIONS_OPEN =
  "This case holds a sanctions list match. A match is released only by compliance and a second person " +
  "(propose the release on the alert, another person confirms it), never by clearing, closing or a bulk action";

/** Refuses while the case has an open sanctions alert: closing or clearing would release it with one person. */
async function refuseOpenSanctions(tx: Queryable, caseId: string): Promise<void> {
  const { rows } = await tx.query(
    `SELECT 1 FROM monitoring_alerts a WHERE a.case_id = $1::uuid AND a.status = 'open' AND ${IS_SANCTIONS_ALERT("a")}
      LIMIT 1`,
    [caseId],
  );
  if (rows[0]) throw new DomainError("two_person_rule", SANCTIONS_OPEN);
}

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
  alert_version: number;
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
    version: Number(c.alert_version),
    sanctions: await sanctionsOfCase(db, c.id),
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

/** What a decision names: the case as its reviewer saw it (its version then, as GET the case answered it). */
type Seen = { version: number };
type LockedCase = { id: string; sub_uid: string; status: CaseView["status"]; alert_version: number };

/**
 * The case, locked for the decision's transaction: an alert that joins it waits until the decision is in
 * (filing an alert bumps the case's version under this same row lock), so what is checked here is what is
 * decided. A version newer than the case's is refused on its field.
 */
async function lockCase(tx: Queryable, id: string, seen: Seen): Promise<LockedCase> {
  const { rows } = await tx.query<LockedCase>(
    `SELECT id::text, sub_uid, status, alert_version FROM monitoring_cases WHERE id::text = $1 FOR UPDATE`,
    [id],
  );
  const c = rows[0];
  if (!c) throw new DomainError("not_found", `No case ${id}`);
  if (seen.version > c.alert_version)
    throw invalidField(
      "version",
      `version ${seen.version} is newer than the case's (${c.alert_version}): read it again`,
    );
  return c;
}

type NewAlert = { id: string; rule: string; severity: string; holds: boolean; status: string };

/** The alerts that joined the case after the version its reviewer saw, in the order they joined. */
async function alertsSince(tx: Queryable, c: LockedCase, seen: Seen): Promise<NewAlert[]> {
  const { rows } = await tx.query<NewAlert>(
    `SELECT a.id::text, r.name AS rule, a.severity, a.holds, a.status FROM monitoring_alerts a
       JOIN monitoring_rules r ON r.id = a.rule_id
      WHERE a.case_id = $1::uuid AND a.case_version > $2 ORDER BY a.case_version`,
    [c.id, seen.version],
  );
  return rows;
}

const NAMED = 5;
/** The 409 of a decision made on an older view of the case, naming what joined it since. */
function changedSince(news: readonly NewAlert[], what: string): DomainError {
  const named = news
    .slice(0, NAMED)
    .map((a) => `alert ${a.id} (${a.rule}, ${a.severity}${a.holds && a.status === "open" ? ", holding" : ""})`);
  const more = news.length > NAMED ? ` and ${news.length - NAMED} more` : "";
  return new DomainError(
    "case_changed",
    `${counted(news.length, "new alert")} since you opened this case: ${named.join(", ")}${more}. ` +
      `Nothing was ${what}: reload the case to review them.`,
  );
}

/**
 * Closes the case, as of the version its reviewer saw, with its outcome; its alerts close with it (a holding
 * one no longer holds). A case that has gathered an alert since is refused whole (409 `case_changed`, naming
 * it, nothing changed): closing ends every alert of the case, and an outcome cannot be about an alert nobody
 * read, while leaving that alert open in a closed case would hide it from the open cases compliance works.
 */
export async function closeCase(
  db: Db,
  session: StaffSession,
  id: string,
  input: { outcome: NonNullable<CaseView["outcome"]>; reason: string } & Seen,
): Promise<CaseView> {
  await refuseOnHold(db, session);
  await db.transaction(async (tx) => {
    const c = await lockCase(tx, id, input);
    if (c.status === "closed") throw new DomainError("already_decided", "This case is closed");
    if (c.alert_version > input.version) throw changedSince(await alertsSince(tx, c, input), "closed");
    await refuseOpenSanctions(tx, c.id);
    await tx.query(
      `UPDATE monitoring_cases SET status = 'closed', outcome = $2, outcome_reason = $3,
        closed_by = $4, closed_at = now()
        WHERE id = $1::uuid AND status <> 'closed'`,
      [c.id, input.outcome, input.reason, session.email],
    );
    await tx.query(
      `UPDATE monitoring_alerts SET status = 'closed'
        WHERE case_id = $1::uuid AND status = 'open' AND case_version <= $2`,
      [c.id, input.version],
    );
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

/**
 * Clears, with a reason, the case's open holding alerts that its reviewer saw (joined by the version they
 * send): the sub-account's withdrawals may be approved again unless an alert raised since holds them.
 *
 * Unlike a close, a clear with newer alerts in the case goes ahead for the alerts it names. The reviewer's
 * judgment of those alerts is complete and stays true; each later alert keeps its hold until it is cleared
 * on its own, so nothing unseen is released, and the page says what still holds. Refusing would only send
 * the reviewer back to clear everything again with the reason they wrote for the first alert. When none of
 * the alerts they saw still holds, and only newer ones do, there is nothing they could have meant to clear:
 * that is refused with 409 `case_changed`, naming the newer ones.
 */
export async function clearHold(
  db: Db,
  session: StaffSession,
  id: string,
  input: { reason: string } & Seen,
): Promise<CaseView> {
  await refuseOnHold(db, session);
  await db.transaction(async (tx) => {
    const c = await lockCase(tx, id, input);
    // A sanctions match is never cleared here: it needs a second person (./sanctions-release.ts).
    const { rows } = await tx.query(
      `UPDATE monitoring_alerts a SET status = 'cleared', cleared_by = $2, cleared_at = now(), clear_reason = $3
        WHERE a.case_id = $1::uuid AND a.holds AND a.status = 'open' AND a.case_version <= $4
          AND NOT ${IS_SANCTIONS_ALERT("a")} RETURNING id`,
      [c.id, session.email, input.reason, input.version],
    );
    if (rows.length) return;
    await refuseOpenSanctions(tx, c.id);
    const holdingSince = (await alertsSince(tx, c, input)).filter((a) => a.holds && a.status === "open");
    if (holdingSince.length) throw changedSince(holdingSince, "cleared");
  });
  return getCase(db, id);
}

/**
 * Compliance's other answer to a hold: rejecting a waiting request of the case's sub-account (requested →
 * rejected, guarded as the lead's rejection is; nothing was sent). Only while an alert its reviewer saw holds:
 * the rejection rests on that alert. Newer alerts in the case do not stop it (a rejection releases nothing,
 * and refusing it would leave the request waiting for the lead); a case held only by newer alerts is refused
 * with 409 `case_changed`, naming them, since the reviewer has not seen why it holds.
 */
export async function rejectHeldWithdrawal(
  db: Db,
  session: StaffSession,
  id: string,
  input: { withdrawalId: string; reason: string } & Seen,
): Promise<CaseView> {
  await refuseOnHold(db, session);
  await db.transaction(async (tx) => {
    const c = await lockCase(tx, id, input);
    const seenHolding = await tx.query(
      `SELECT 1 FROM monitoring_alerts WHERE case_id = $1::uuid AND holds AND status = 'open' AND case_version <= $2
        LIMIT 1`,
      [c.id, input.version],
    );
    if (!seenHolding.rows[0]) {
      const holdingSince = (await alertsSince(tx, c, input)).filter((a) => a.holds && a.status === "open");
      if (holdingSince.length) throw changedSince(holdingSince, "rejected");
      throw new DomainError("already_decided", "This case holds no withdrawal: the lead decides");
    }
    const { rows } = await tx.query(
      `UPDATE withdrawal_requests SET state = 'rejected', rejected_by = $2, rejected_at = now(), reject_reason = $3,
              version = version + 1
        WHERE id::text = $1 AND sub_uid = $4 AND state = 'requested' AND lower(requested_by) <> lower($2)
        RETURNING id`,
      [input.withdrawalId, session.email, `Compliance: ${input.reason}`, c.sub_uid],
    );
    if (!rows[0])
      throw invalidField(
        "withdrawalId",
        `No waiting withdrawal request ${input.withdrawalId} of sub-account ${c.sub_uid}`,
      );
    await tx.query(
      `INSERT INTO monitoring_case_records (case_id, record_kind, record_id, attached_by)
        VALUES ($1, 'withdrawal', $2, $3)
       ON CONFLICT DO NOTHING`,
      [c.id, input.withdrawalId, session.email],
    );
  });
  return getCase(db, id);
}
