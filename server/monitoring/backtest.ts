import "server-only";
// A version over the ledger's whole history without raising anything: how many alerts it would have raised
// per month (by the end of each alert's window, UTC), the sub-accounts it would have raised most for, and
// ten samples. The result is kept with the version, so the decision to activate it can be shown later. Over a
// partial ledger it counts only what the rule could judge (the compiled query's coverage test) and says how
// many sub-accounts it could not (./coverage.ts).
import { backtestSchema, type Backtest } from "@/lib/api/monitoring";
import type { RuleSpec } from "@/lib/api/monitoring/rule-kinds";
import type { Db } from "@/server/db";
import { notEvaluable } from "./coverage";
import { compileRule } from "./kinds";

export type { Backtest };

export async function backtestSpec(db: Db, spec: RuleSpec): Promise<Backtest> {
  const q = compileRule(spec);
  const { rows } = await db.query<{ result: unknown }>(
    `WITH q AS (${q.sql})
     SELECT json_build_object(
       'total', (SELECT count(*) FROM q),
       'months', (SELECT coalesce(json_agg(m ORDER BY m.month), '[]'::json) FROM (
          SELECT to_char(timestamptz 'epoch' + q.window_end * interval '1 millisecond', 'YYYY-MM') AS month,
            count(*) AS alerts
            FROM q GROUP BY 1) m),
       'top', (SELECT coalesce(json_agg(t ORDER BY t.alerts DESC, t."subUid"), '[]'::json) FROM (
          SELECT q.sub_uid AS "subUid", count(*) AS alerts FROM q GROUP BY q.sub_uid
            ORDER BY count(*) DESC, q.sub_uid LIMIT 10) t),
       'samples', (SELECT coalesce(json_agg(s), '[]'::json) FROM (
          SELECT q.sub_uid AS "subUid", q.occurrence, q.value, q.records FROM q
            ORDER BY q.window_end DESC, q.sub_uid, q.occurrence LIMIT 10) s)
     ) AS result`,
    [null, null, ...q.params],
  );
  return backtestSchema.parse({ ...(rows[0]!.result as object), notEvaluable: await notEvaluable(db, spec) });
}

/** Runs a version's backtest and keeps it with the version. */
export async function backtestVersion(db: Db, versionId: string): Promise<Backtest | null> {
  const { rows } = await db.query<{ kind: string; params: unknown; requested: Date | null }>(
    `SELECT kind, params, backtest_requested_at AS requested FROM monitoring_rule_versions WHERE id::text = $1`,
    [versionId],
  );
  if (!rows[0]) return null;
  const result = await backtestSpec(db, { kind: rows[0].kind, params: rows[0].params } as RuleSpec);
  // Done as of when it was asked for: a request made while it ran is run again.
  await db.query(
    `UPDATE monitoring_rule_versions SET backtest = $2, backtest_at = coalesce($3::timestamptz, now())
      WHERE id::text = $1`,
    [versionId, JSON.stringify(result), rows[0].requested ? new Date(rows[0].requested).toISOString() : null],
  );
  return result;
}

/** Asks for a backtest of a version (any state): the job engine runs it (jobs.ts). */
export async function requestBacktest(db: Db, versionId: string): Promise<boolean> {
  const { rows } = await db.query(
    `UPDATE monitoring_rule_versions SET backtest_requested_at = now() WHERE id::text = $1 RETURNING id`,
    [versionId],
  );
  return rows.length > 0;
}
