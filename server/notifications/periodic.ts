import "server-only";
// The catalog's periodic events that a check raises, each once per occurrence (migration 0130's unique index on
// (type, subject) for them): a case past its review deadline (once per case, to its assignee, or to whoever works
// cases while nobody is assigned), and an audit chain whose head does not verify (once per broken row). Run by the
// notification worker's tick; the audit check reads the last 500 rows, so it runs at most every 10 minutes per
// process. Sync behind and platform failing are not raised yet.
import type { Db, Queryable } from "@/server/db";
import { checkAuditHead } from "@/server/audit/chain-check";
import { caseDueSql } from "@/server/monitoring/review";

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
