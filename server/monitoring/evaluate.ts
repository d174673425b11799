import "server-only";
// Evaluating active rule versions: each version's one compiled query, wrapped in an INSERT that raises what
// it finds. The alert's identity (version, sub-account, occurrence) is a unique key and the insert does
// nothing on a conflict, so evaluating again, a retried job or a second instance never raise an alert twice.
// A snoozed (rule, sub-account) raises nothing until the snooze ends. New alerts then gather into their
// sub-account's open case (one is opened when none is). Each alert records the coverage it was raised under:
// what its kind needs (coverageNeedOf) and the sub-account's covered deposits in the same statement's view.
import { coverageNeedOf, type RuleSpec, type Severity } from "@/lib/api/monitoring/rule-kinds";
import type { Db, Queryable } from "@/server/db";
import { compileRule, sourceOf } from "./kinds";

export type EvaluableVersion = {
  id: string;
  ruleId: string;
  spec: RuleSpec;
  severity: Severity;
  holds: boolean;
};

/** One sub-account (or every one) and the earliest record time that may fire (or the whole history). */
export type Scope = { subUid: string | null; since: number | null };

type VersionRow = { id: string; rule_id: string; kind: string; params: unknown; severity: Severity; holds: boolean };

export const versionOf = (r: VersionRow): EvaluableVersion => ({
  id: r.id,
  ruleId: r.rule_id,
  spec: { kind: r.kind, params: r.params } as RuleSpec,
  severity: r.severity,
  holds: r.holds,
});

/** The active versions, all or those a kind of record can fire. */
export async function activeVersions(db: Queryable, source?: "deposits" | "withdrawals"): Promise<EvaluableVersion[]> {
  const { rows } = await db.query<VersionRow>(
    `SELECT id, rule_id, kind, params, severity, holds FROM monitoring_rule_versions
      WHERE state = 'active' ORDER BY id`,
  );
  const versions = rows.map(versionOf);
  return source ? versions.filter((v) => sourceOf(v.spec) === source) : versions;
}

/** Raises what one version finds in the scope; answers the new alerts (none on a rerun). */
export async function evaluateVersion(
  db: Queryable,
  v: EvaluableVersion,
  scope: Scope,
): Promise<{ id: string; subUid: string }[]> {
  const q = compileRule(v.spec);
  const need = coverageNeedOf(v.spec);
  const n = q.params.length + 2;
  const { rows } = await db.query<{ id: string; sub_uid: string }>(
    `INSERT INTO monitoring_alerts
       (rule_version_id, rule_id, sub_uid, occurrence, window_start, window_end, severity, holds, value, records,
        coverage)
     SELECT $${n + 1}::uuid, $${n + 2}::uuid, q.sub_uid, q.occurrence, q.window_start, q.window_end,
            $${n + 3}::text, $${n + 4}::boolean, q.value, q.records,
            $${n + 5}::jsonb || jsonb_build_object('from', cs.covered_from, 'to', cs.covered_to)
       FROM (${q.sql}) q
       LEFT JOIN ledger_sync cs ON cs.job = 'deposits' AND cs.sub_uid = q.sub_uid
      WHERE NOT EXISTS (SELECT 1 FROM monitoring_snoozes s
                         WHERE s.rule_id = $${n + 2}::uuid AND s.sub_uid = q.sub_uid AND s.until > now())
     ON CONFLICT (rule_version_id, sub_uid, occurrence) DO NOTHING
     RETURNING id::text, sub_uid`,
    [scope.subUid, scope.since, ...q.params, v.id, v.ruleId, v.severity, v.holds, JSON.stringify(need)],
  );
  return rows.map((r) => ({ id: r.id, subUid: r.sub_uid }));
}

/**
 * Alerts not yet in a case join their sub-account's open case; a sub-account without one gets one. Safe to
 * repeat and to race: the one-open-case index decides which insert wins, and the update only fills blanks.
 */
export async function gatherIntoCases(db: Queryable): Promise<number> {
  await db.query(
    `INSERT INTO monitoring_cases (sub_uid)
     SELECT DISTINCT sub_uid FROM monitoring_alerts WHERE case_id IS NULL
     ON CONFLICT (sub_uid) WHERE status <> 'closed' DO NOTHING`,
  );
  const { rows } = await db.query<{ id: string }>(
    `UPDATE monitoring_alerts a SET case_id = c.id FROM monitoring_cases c
      WHERE a.case_id IS NULL AND c.sub_uid = a.sub_uid AND c.status <> 'closed' RETURNING a.id::text`,
  );
  return rows.length;
}

/** Every active version that the scope's kind of record can fire, then the gathering into cases. */
export async function evaluateScope(
  db: Db,
  scope: Scope,
  source?: "deposits" | "withdrawals",
  versions?: EvaluableVersion[],
): Promise<number> {
  let raised = 0;
  for (const v of versions ?? (await activeVersions(db, source)))
    raised += (await evaluateVersion(db, v, scope)).length;
  // Always, not only after a raise: alerts of a run that died between its insert and here are gathered now.
  await gatherIntoCases(db);
  return raised;
}
