import "server-only";
// Releasing a sanctions list match takes two people. One person (monitoring.write) proposes the release of one
// open sanctions alert with a reason; another (not the proposer, in good standing, with a fresh factor: the
// route's) confirms it, which clears the alert with both names in its clear reason; the proposal can be withdrawn
// meanwhile. The decision is about one alert, named by its ID (the unit its reviewers read: the listed address and
// the lists), within its case; the confirmation also names whose proposal it confirms, so a proposal withdrawn and
// made again by someone else is not confirmed unread. Clearing, closing and bulk closing never release one
// (case.ts, bulk.ts); a migration CHECK keeps the confirmer from being the proposer.
import { DomainError, invalidField } from "@/lib/api/errors";
import type { SanctionsAlertView } from "@/lib/api/monitoring";
import type { StaffSession } from "@/server/auth/session";
import type { Db, Queryable } from "@/server/db";
import { refuseOnHold, refuseOwn } from "@/server/workflows/approval-gate";
import { IS_SANCTIONS_ALERT } from "./system-rules";

type Row = {
  id: string;
  sub_uid: string;
  status: SanctionsAlertView["status"];
  occurrence: string;
  records: { kind?: string; id?: string; address?: string; listed?: { list: string; versionId: number }[] }[];
  raised_at: Date;
  release_requested_by: string | null;
  release_requested_at: Date | null;
  release_reason: string | null;
  cleared_by: string | null;
  cleared_at: Date | null;
  clear_reason: string | null;
};

const SELECT = `SELECT a.id::text, a.sub_uid, a.status, a.occurrence, a.records, a.raised_at, a.release_requested_by,
  a.release_requested_at, a.release_reason, a.cleared_by, a.cleared_at, a.clear_reason FROM monitoring_alerts a`;

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
const viewOf = (r: Row): SanctionsAlertView => {
  const record = r.records[0] ?? {};
  return {
    alertId: r.id,
    status: r.status,
    side: r.occurrence.startsWith("d:") ? "deposit_source" : "withdrawal_destination",
    recordId: String(record.id ?? r.occurrence.slice(2)),
    address: String(record.address ?? ""),
    listed: (record.listed ?? []).map((l) => ({ list: String(l.list), versionId: Number(l.versionId) })),
    raisedAt: iso(r.raised_at)!,
    releaseRequestedBy: r.release_requested_by,
    releaseRequestedAt: iso(r.release_requested_at),
    releaseReason: r.release_reason,
    clearedBy: r.cleared_by,
    clearedAt: iso(r.cleared_at),
    clearReason: r.clear_reason,
  };
};

/** The case's sanctions alerts (open first, then the newest), at most 100: what its page shows and decides. */
export async function sanctionsOfCase(db: Queryable, caseId: string): Promise<SanctionsAlertView[]> {
  const { rows } = await db.query<Row>(
    `${SELECT} WHERE a.case_id::text = $1 AND ${IS_SANCTIONS_ALERT("a")}
      ORDER BY a.status = 'open' DESC, a.raised_at DESC, a.id DESC LIMIT 100`,
    [caseId],
  );
  return rows.map(viewOf);
}

const ALERT_ID = /^\d{1,18}$/;

/** The case's sanctions alert, locked for the decision; refused when it is not one, or no longer open. */
async function lockOpen(tx: Queryable, caseId: string, alertId: string): Promise<Row> {
  if (!ALERT_ID.test(alertId)) throw invalidField("alertId", "alertId is an alert's ID (digits)");
  const { rows } = await tx.query<Row>(
    `${SELECT} WHERE a.id = $2::bigint AND a.case_id::text = $1 AND ${IS_SANCTIONS_ALERT("a")} FOR UPDATE`,
    [caseId, alertId],
  );
  const a = rows[0];
  if (!a) throw new DomainError("not_found", `No sanctions alert ${alertId} in case ${caseId}`);
  if (a.status !== "open") throw new DomainError("already_decided", `This sanctions alert is ${a.status}`);
  return a;
}

/** The first step: one person proposes releasing the match, with a reason. It still holds. */
export async function proposeRelease(
  db: Db,
  session: StaffSession,
  caseId: string,
  alertId: string,
  input: { reason: string },
): Promise<void> {
  await refuseOnHold(db, session);
  await db.transaction(async (tx) => {
    const a = await lockOpen(tx, caseId, alertId);
    if (a.release_requested_by)
      throw new DomainError("already_decided", `${a.release_requested_by} already proposed releasing this match`);
    await tx.query(
      `UPDATE monitoring_alerts SET release_requested_by = $2, release_requested_at = now(), release_reason = $3
        WHERE id = $1::bigint`,
      [a.id, session.email, input.reason],
    );
  });
}

/** Withdraws a proposed release: the match holds on, and no one can confirm it. */
export async function withdrawRelease(db: Db, session: StaffSession, caseId: string, alertId: string): Promise<void> {
  await refuseOnHold(db, session);
  await db.transaction(async (tx) => {
    const a = await lockOpen(tx, caseId, alertId);
    if (!a.release_requested_by) throw new DomainError("already_decided", "No release of this match is waiting");
    await tx.query(
      `UPDATE monitoring_alerts SET release_requested_by = NULL, release_requested_at = NULL, release_reason = NULL
        WHERE id = $1::bigint`,
      [a.id],
    );
  });
}

/**
 * The second step: another person confirms the release proposed by `proposedBy` (as they read it). The alert is
 * cleared, by the confirmer, its reason naming both; the sub-account's withdrawals are held no more by it.
 */
export async function confirmRelease(
  db: Db,
  session: StaffSession,
  caseId: string,
  alertId: string,
  input: { proposedBy: string },
): Promise<void> {
  await refuseOnHold(db, session);
  await db.transaction(async (tx) => {
    const a = await lockOpen(tx, caseId, alertId);
    const by = a.release_requested_by;
    if (!by)
      throw new DomainError(
        "two_person_rule",
        "Releasing a sanctions match takes two people: one proposes the release, another confirms it",
      );
    refuseOwn(by, session, "You proposed this release, so another person must confirm it");
    if (by.toLowerCase() !== input.proposedBy.toLowerCase())
      throw invalidField(
        "proposedBy",
        `The release waiting was proposed by ${by}, not ${input.proposedBy}: read it again`,
      );
    const reason =
      `Sanctions match released by two people: proposed by ${by} ("${a.release_reason}"), ` +
      `confirmed by ${session.email}`;
    await tx.query(
      `UPDATE monitoring_alerts SET status = 'cleared', cleared_by = $2, cleared_at = now(), clear_reason = $3
        WHERE id = $1::bigint AND status = 'open' AND lower(release_requested_by) <> lower($2)`,
      [a.id, session.email, reason],
    );
  });
}
