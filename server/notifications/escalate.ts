import "server-only";
// Escalation of an approval nobody acted on: a withdrawal still waiting for approval NOTIFY_ESCALATE_AFTER_MINUTES
// after its last action (its request, or the last approval it was given) is raised once to every lead (and any
// other role its policy asks) as `withdrawal.escalated`, and at twice that to admin, who approves nothing but can
// find who will. Each level is one event, written here in the outbox (notification_events) under a unique index
// on (type, subject): the periodic job on several instances, run as often as it likes, raises each once. The
// clock is a parameter (tests move it).
import { env } from "@/lib/env";
import type { Queryable } from "@/server/db";

/** Raises the escalations due at `now`; answers how many events it wrote. */
export async function raiseEscalations(
  db: Queryable,
  opts: { now?: Date; afterMinutes?: number } = {},
): Promise<number> {
  const after = opts.afterMinutes ?? env.notify.escalateAfterMinutes;
  if (after <= 0) return 0;
  const now = (opts.now ?? new Date()).toISOString();
  const { rows } = await db.query(
    `WITH waiting AS (
       SELECT w.id, w.sub_uid, w.coin, w.amount, w.requested_by, w.policy_approvals,
              greatest(w.requested_at, (SELECT max(a.approved_at) FROM withdrawal_approvals a
                                         WHERE a.withdrawal_id = w.id)) AS last_action
         FROM withdrawal_requests w
        WHERE w.state = 'requested' AND w.requested_at <= $1::timestamptz - $2 * interval '1 minute'),
     levels AS (
       SELECT w.*, l.lvl, l.minutes FROM waiting w,
              (VALUES ('lead', $2::int), ('admin', 2 * $2::int)) AS l(lvl, minutes)
        WHERE w.last_action <= $1::timestamptz - l.minutes * interval '1 minute')
     INSERT INTO notification_events (type, payload, audience, subject)
     SELECT 'withdrawal.escalated',
            jsonb_build_object('withdrawalId', id::text, 'subUid', sub_uid, 'coin', coin, 'amount', amount::text,
                               'requestedBy', requested_by, 'to', lvl, 'waitingMinutes', minutes),
            CASE WHEN lvl = 'lead' THEN
              jsonb_build_object('permission', 'withdrawals.approve', 'except', requested_by,
                'roles', coalesce(jsonb_path_query_array(coalesce(policy_approvals, '[]'::jsonb), '$[*].role'),
                                  '[]'::jsonb) || '["lead"]'::jsonb)
            ELSE jsonb_build_object('permission', 'withdrawals.read', 'roles', '["admin"]'::jsonb) END,
            'withdrawal:' || id || ':' || lvl
       FROM levels
     ON CONFLICT (type, subject) WHERE type = 'withdrawal.escalated' DO NOTHING
     RETURNING id`,
    [now, after],
  );
  return rows.length;
}
