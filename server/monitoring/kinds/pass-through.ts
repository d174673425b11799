import "server-only";
import type { RuleParams } from "@/lib/api/monitoring/rule-kinds";
import { covers, HOUR, paramList, recordJson, SINCE, SUB, WITHDRAWAL_ROWS, type Compiled } from "./sql";

/**
 * A withdrawal request of at least pct % of what its sub-account deposited of the same coin in the
 * windowHours before it (and nothing deposited, nothing passed through). Keyed by the request. Judged only
 * once the ledger holds the sub-account's deposits over that window (a deposit missing would shrink the sum).
 */
export function compilePassThrough(r: RuleParams<"pass_through">): Compiled {
  const { params, p } = paramList();
  const w = `${p(r.windowHours * HOUR)}::bigint`;
  const coin = p(r.coin ?? null);
  const pct = p(r.pct);
  const sql = `SELECT x.sub_uid, 'w:' || x.id AS occurrence, x.ctime - ${w} AS window_start, x.ctime AS window_end,
      dep.total::text AS value,
      jsonb_build_array(${recordJson("withdrawal", "x.id")}) || dep.records AS records
    FROM (${WITHDRAWAL_ROWS}) x
    CROSS JOIN LATERAL (
      SELECT sum(d.amount) AS total,
        coalesce(jsonb_agg(${recordJson("deposit", "d.order_id")} ORDER BY d.ctime, d.order_id),
        '[]'::jsonb) AS records
        FROM ledger_deposits d
       WHERE d.sub_uid = x.sub_uid AND d.coin = x.coin AND d.ctime BETWEEN x.ctime - ${w} AND x.ctime
    ) dep
    WHERE (${SUB} IS NULL OR x.sub_uid = ${SUB}) AND (${SINCE} IS NULL OR x.ctime >= ${SINCE})
      AND (${coin}::text IS NULL OR x.coin = ${coin}::text)
      AND dep.total > 0 AND x.amount * 100 >= dep.total * ${pct}::numeric
      AND ${covers("x.sub_uid", `x.ctime - ${w}`, "x.ctime")}`;
  return { sql, params };
}
