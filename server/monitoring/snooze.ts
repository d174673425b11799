import "server-only";
// A snooze silences one rule for one sub-account until a time: evaluation (evaluate.ts) raises nothing for
// that pair meanwhile. Alerts already raised stay as they are. A rule whose active version holds withdrawals is
// a control no one person switches off: its snooze is a request (monitoring_snooze_requests) that silences
// nothing until another person approves it, which writes the snooze in the same transaction. A rule that does
// not hold is snoozed by one person. Every decision checks the decider's standing; its route asks a fresh factor.
import { DomainError, invalidField } from "@/lib/api/errors";
import type { SnoozeRequestView } from "@/lib/api/monitoring/controls";
import type { StaffSession } from "@/server/auth/session";
import type { Db, Queryable } from "@/server/db";
import { refuseOnHold, refuseOwn } from "@/server/workflows/approval-gate";
import { refuseSystemRule } from "./system-rules";

type RequestRow = {
  id: string;
  rule_id: string;
  rule_name: string;
  sub_uid: string;
  until: Date;
  reason: string;
  requested_by: string;
  requested_at: Date;
  state: SnoozeRequestView["state"];
  decided_by: string | null;
  decided_at: Date | null;
};

const REQUEST_SELECT = `SELECT q.id::text, q.rule_id::text, r.name AS rule_name, q.sub_uid, q.until, q.reason,
  q.requested_by, q.requested_at, q.state, q.decided_by, q.decided_at
    FROM monitoring_snooze_requests q JOIN monitoring_rules r ON r.id = q.rule_id`;

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
const toView = (q: RequestRow): SnoozeRequestView => ({
  id: q.id,
  ruleId: q.rule_id,
  ruleName: q.rule_name,
  subUid: q.sub_uid,
  until: iso(q.until)!,
  reason: q.reason,
  requestedBy: q.requested_by,
  requestedAt: iso(q.requested_at)!,
  state: q.state,
  decidedBy: q.decided_by,
  decidedAt: iso(q.decided_at),
});

export async function snoozeRule(
  db: Db,
  session: StaffSession,
  input: { ruleId: string; subUid: string; until: string; reason: string },
  now = Date.now(),
): Promise<{ id: string; until: string; state: "active" | "requested" }> {
  refuseSystemRule(input.ruleId, "ruleId");
  await refuseOnHold(db, session);
  const until = Date.parse(input.until);
  if (!(until > now)) throw invalidField("until", "until must be in the future");
  const rule = await db.query<{ holds: boolean }>(
    `SELECT coalesce(bool_or(v.holds AND v.state = 'active'), false) AS holds
       FROM monitoring_rules r LEFT JOIN monitoring_rule_versions v ON v.rule_id = r.id
      WHERE r.id::text = $1 GROUP BY r.id`,
    [input.ruleId],
  );
  if (!rule.rows[0]) throw new DomainError("not_found", `No rule ${input.ruleId}`);
  const values = [input.ruleId, input.subUid, new Date(until).toISOString(), input.reason, session.email];
  if (rule.rows[0].holds) {
    const { rows } = await db.query<{ id: string; until: Date }>(
      `INSERT INTO monitoring_snooze_requests (rule_id, sub_uid, until, reason, requested_by)
        VALUES ($1, $2, $3, $4, $5) RETURNING id::text, until`,
      values,
    );
    return { id: rows[0]!.id, until: iso(rows[0]!.until)!, state: "requested" };
  }
  const { rows } = await db.query<{ id: string; until: Date }>(
    `INSERT INTO monitoring_snoozes (rule_id, sub_uid, until, reason, created_by) VALUES ($1, $2, $3, $4, $5)
     RETURNING id::text, until`,
    values,
  );
  return { id: rows[0]!.id, until: iso(rows[0]!.until)!, state: "active" };
}

/** The snooze requests still waiting for a second person (and not yet past their end), oldest first. */
export async function listSnoozeRequests(db: Queryable): Promise<{ items: SnoozeRequestView[] }> {
  const { rows } = await db.query<RequestRow>(
    `${REQUEST_SELECT} WHERE q.state = 'requested' AND q.until > now() ORDER BY q.requested_at, q.id LIMIT 500`,
  );
  return { items: rows.map(toView) };
}

async function getSnoozeRequest(db: Queryable, id: string): Promise<SnoozeRequestView> {
  const { rows } = await db.query<RequestRow>(`${REQUEST_SELECT} WHERE q.id::text = $1`, [id]);
  if (!rows[0]) throw new DomainError("not_found", `No snooze request ${id}`);
  return toView(rows[0]);
}

/** A second person approves another's snooze request: the snooze is written and silences the rule from now. */
export async function approveSnooze(db: Db, session: StaffSession, id: string): Promise<SnoozeRequestView> {
  await refuseOnHold(db, session);
  const q = await getSnoozeRequest(db, id);
  if (q.state !== "requested") throw new DomainError("already_decided", `This snooze request is ${q.state}`);
  refuseOwn(q.requestedBy, session, "You asked for this snooze, so another person must approve it");
  if (Date.parse(q.until) <= Date.now()) throw new DomainError("already_decided", "This snooze request has expired");
  await db.transaction(async (tx) => {
    const { rows } = await tx.query(
      `UPDATE monitoring_snooze_requests SET state = 'approved', decided_by = $2, decided_at = now()
        WHERE id::text = $1 AND state = 'requested' AND lower(requested_by) <> lower($2) RETURNING id`,
      [id, session.email],
    );
    if (!rows[0]) throw new DomainError("already_decided", "This snooze request was decided meanwhile");
    await tx.query(
      `WITH s AS (INSERT INTO monitoring_snoozes (rule_id, sub_uid, until, reason, created_by)
                  SELECT rule_id, sub_uid, until, reason, requested_by
                    FROM monitoring_snooze_requests WHERE id::text = $1 RETURNING id)
       UPDATE monitoring_snooze_requests SET snooze_id = (SELECT id FROM s) WHERE id::text = $1`,
      [id],
    );
  });
  return getSnoozeRequest(db, id);
}

/** Declining (or withdrawing) a request leaves the rule as it is: one person may. */
export async function declineSnooze(db: Db, session: StaffSession, id: string): Promise<SnoozeRequestView> {
  const { rows } = await db.query(
    `UPDATE monitoring_snooze_requests SET state = 'declined', decided_by = $2, decided_at = now()
      WHERE id::text = $1 AND state = 'requested' RETURNING id`,
    [id, session.email],
  );
  const q = await getSnoozeRequest(db, id);
  if (!rows[0]) throw new DomainError("already_decided", `This snooze request is ${q.state}`);
  return q;
}
