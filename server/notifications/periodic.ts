import "server-only";
// The catalog's periodic events that a check raises. Once per occurrence (migration 0130's unique index on (type,
// subject) for them): a case past its review deadline (once per case, to its assignee, or to whoever works cases
// while nobody is assigned), and an audit chain whose head does not verify (once per broken row); the audit check
// reads the last 500 rows, so it runs at most every 10 minutes per process. Once per episode (migration 0180): the
// ledger's sync behind its schedule, and the platform failing: the check that finds the condition opens an episode
// and raises it in one statement (of several instances checking at once, one opens it), the check that finds it over
// closes it, and only a new episode raises again. All run by the notification worker's tick.
import type { Db, Queryable } from "@/server/db";
import { checkAuditHead } from "@/server/audit/chain-check";
import { env } from "@/lib/env";
import { caseDueSql } from "@/server/monitoring/review";
import { platformHealth, type PlatformHealth } from "@/server/platform/health";

const PERIODIC = `('case.overdue', 'sync.behind', 'platform.down', 'audit.chain_broken')`;
const AUDIT_EVERY_MS = 10 * 60_000;

/** Raises case.overdue for each case not closed and past its review deadline at `now`; answers how many. */
export async function raiseOverdueCases(db: Queryable, now = new Date()): Promise<number> {
  const { rows } = await db.query(
    `INSERT INTO notification_events (type, payload, audience, subject)
     SELECT 'case.overdue',
            jsonb_build_object('caseId', c.id::text, 'subUid', c.sub_uid,
                               'dueAt', to_char(${caseDueSql("c")} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')),
            CASE WHEN c.assignee IS NOT NULL
              THEN jsonb_build_object('email', c.assignee, 'permission', 'monitoring.read')
              ELSE jsonb_build_object('permission', 'monitoring.write') END,
            'case:' || c.id
       FROM monitoring_cases c
      WHERE c.status <> 'closed' AND ${caseDueSql("c")} < $1::timestamptz
     ON CONFLICT (type, subject) WHERE type IN ${PERIODIC} DO NOTHING
     RETURNING id`,
    [now.toISOString()],
  );
  return rows.length;
}

let lastAuditCheck = 0;

/** Raises audit.chain_broken when the audit log's head does not verify (once per broken row); 1 when it did. */
export async function raiseAuditChainBroken(db: Db, opts: { force?: boolean } = {}): Promise<number> {
  if (!opts.force && Date.now() - lastAuditCheck < AUDIT_EVERY_MS) return 0;
  lastAuditCheck = Date.now();
  const check = await checkAuditHead(db);
  if (check.ok) return 0;
  const { rows } = await db.query(
    `INSERT INTO notification_events (type, payload, audience, subject)
     VALUES ('audit.chain_broken', jsonb_build_object('at', $1::text), '{"permission": "audit.read"}'::jsonb, $2)
     ON CONFLICT (type, subject) WHERE type IN ${PERIODIC} DO NOTHING RETURNING id`,
    [check.at, `audit:${check.brokenAt ?? check.headId}`],
  );
  return rows.length;
}

type Episodic = "sync.behind" | "platform.down";
const AUDIT_READERS = JSON.stringify({ permission: "audit.read" });

/**
 * One check of a lasting condition: holding, it opens the kind's episode and raises the event with it (1), unless
 * one is open already (0); over, it closes the episode (0); null (nothing to judge by), it changes nothing.
 */
async function episode(db: Queryable, kind: Episodic, holds: boolean | null, payload: object): Promise<number> {
  if (holds === null) return 0;
  if (!holds) {
    await db.query(`DELETE FROM notification_episodes WHERE kind = $1`, [kind]);
    return 0;
  }
  const { rows } = await db.query(
    `WITH opened AS (
       INSERT INTO notification_episodes (kind) VALUES ($1) ON CONFLICT (kind) DO NOTHING RETURNING episode)
     INSERT INTO notification_events (type, payload, audience, subject)
     SELECT $1, $2::jsonb, $3::jsonb, 'episode:' || episode FROM opened
     ON CONFLICT (type, subject) WHERE type IN ${PERIODIC} DO NOTHING RETURNING id`,
    [kind, JSON.stringify(payload), AUDIT_READERS],
  );
  return rows.length;
}

/**
 * sync.behind: the ledger's sync is behind its schedule when a sub-account (or key and symbol) that has had a
 * success was due for its next check more than `minutes` ago (NOTIFY_SYNC_BEHIND_MINUTES; 0 = off); a failing check
 * leaves it due, so a sync that fails falls behind as one that stopped does. The payload: how far behind the stalest
 * is, and since when it was due. Raised once per episode; answers 1 when it raised.
 */
export async function raiseSyncBehind(db: Queryable, opts: { now?: Date; minutes?: number } = {}): Promise<number> {
  const minutes = opts.minutes ?? env.notify.syncBehindMinutes;
  if (minutes <= 0) return 0;
  const now = opts.now ?? new Date();
  const { rows } = await db.query<{ due: Date | string | null }>(
    `SELECT min(next_check_at) AS due
       FROM (SELECT next_check_at, last_success_at FROM ledger_sync
             UNION ALL SELECT next_check_at, last_success_at FROM ledger_key_sync) s
      WHERE last_success_at IS NOT NULL`,
  );
  const due = rows[0]?.due ? new Date(rows[0].due) : null;
  const behindMs = due ? now.getTime() - due.getTime() : 0;
  const holds = due !== null && behindMs > minutes * 60_000;
  return episode(db, "sync.behind", holds, {
    minutes: Math.floor(behindMs / 60_000),
    since: due?.toISOString() ?? now.toISOString(),
  });
}

/**
 * platform.down: of the calls this process made to the platform in the last `minutes` (NOTIFY_PLATFORM_DOWN_MINUTES;
 * 0 = off), at least 5, and half or more failed: no answer, or HTTP 5xx (server/platform/health.ts). Over when the
 * window's calls no longer meet the rule; a process that made too few calls to judge changes nothing. The payload:
 * the commonest failure (a kind or an HTTP status), the counts, and the first failure's time; nothing the platform
 * said. Raised once per episode; answers 1 when it raised.
 */
export async function raisePlatformDown(
  db: Queryable,
  health: PlatformHealth = platformHealth(),
  opts: { now?: Date; minutes?: number } = {},
): Promise<number> {
  const minutes = opts.minutes ?? env.notify.platformDownMinutes;
  if (minutes <= 0) return 0;
  const verdict = health.judge(minutes * 60_000, (opts.now ?? new Date()).getTime());
  if (!verdict?.down) return episode(db, "platform.down", verdict ? false : null, {});
  return episode(db, "platform.down", true, {
    code: verdict.code,
    message: `${verdict.failed} of ${verdict.calls} platform calls in the last ${minutes} minutes failed`,
    since: verdict.since,
  });
}
