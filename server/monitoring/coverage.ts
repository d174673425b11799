import "server-only";
// What a rule cannot judge yet: the sub-accounts whose deposits the ledger does not hold back far enough for what
// the rule's kind needs (coverageNeedOf), so some record of theirs, or the next one, waits for the backfill
// (the compiled queries raise nothing there: kinds/sql.ts `covers`). /alerts/rules says it per active version,
// a backtest says it with its result. A sub-account counts when its whole history is not complete and either
// the span it holds does not reach back the rule's need from now, or it holds a record within the need of the
// span's start (a stray a walk left, or the oldest records of the span, whose need lies before it). A rule
// over the whole history counts every sub-account whose history is not complete; a rule that needs nothing
// counts none. The sub-accounts are the registry's and those the sync keeps.
import { coverageNeedOf, type RuleSpec } from "@/lib/api/monitoring/rule-kinds";
import type { Queryable } from "@/server/db";

const SUBJECTS = `(SELECT sub_uid FROM subaccounts UNION SELECT sub_uid FROM ledger_sync WHERE job = 'deposits') u
  LEFT JOIN ledger_sync s ON s.job = 'deposits' AND s.sub_uid = u.sub_uid`;
const INCOMPLETE = `NOT COALESCE(s.covered_to IS NOT NULL AND s.covered_from = 0, false)`;

/** How many sub-accounts a rule of this kind and parameters cannot judge yet. */
export async function notEvaluable(db: Queryable, spec: RuleSpec, now = Date.now()): Promise<number> {
  const need = coverageNeedOf(spec);
  if (need.needs === "none") return 0;
  if (need.needs === "history") {
    const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${SUBJECTS} WHERE ${INCOMPLETE}`);
    return rows[0]!.n;
  }
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ${SUBJECTS}
      WHERE ${INCOMPLETE} AND (s.covered_to IS NULL OR s.covered_from > $1::bigint - $2::bigint
        OR EXISTS (SELECT 1 FROM ledger_deposits d WHERE d.sub_uid = u.sub_uid
                    AND d.ctime < s.covered_from + $2::bigint))`,
    [now, need.ms],
  );
  return rows[0]!.n;
}

/** Per version (by id), how many sub-accounts it cannot judge yet. */
export async function notEvaluableCounts(
  db: Queryable,
  versions: readonly { id: string; spec: RuleSpec }[],
  now = Date.now(),
): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const v of versions) out[v.id] = await notEvaluable(db, v.spec, now);
  return out;
}
