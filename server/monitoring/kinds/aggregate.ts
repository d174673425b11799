import "server-only";
import type { RuleParams } from "@/lib/api/monitoring/rule-kinds";
import { HOUR, paramList, rollingQuery, type Compiled } from "./sql";

/** The generic kind: a count or sum of filtered deposits or withdrawal requests per sub-account over a window. */
export function compileAggregate(r: RuleParams<"aggregate">): Compiled {
  const { params, p } = paramList();
  const filters: string[] = [];
  if (r.coin !== undefined) filters.push(`r.coin = ${p(r.coin)}::text`);
  if (r.subUid !== undefined) filters.push(`r.sub_uid = ${p(r.subUid)}::text`);
  if (r.statuses !== undefined) filters.push(`r.status = ANY(${p(r.statuses)}::text[])`);
  if (r.minAmount !== undefined) filters.push(`r.amount >= ${p(r.minAmount)}::numeric`);
  if (r.maxAmount !== undefined) filters.push(`r.amount <= ${p(r.maxAmount)}::numeric`);
  const sql = rollingQuery({
    source: r.source,
    measure: r.measure,
    filters,
    op: r.op,
    thresholdParam: p(r.threshold),
    windowParam: p(r.windowHours * HOUR),
  });
  return { sql, params };
}

/** Velocity is the aggregate kind with no filter but the coin, above (strictly) its limit. */
export function compileVelocity(r: RuleParams<"velocity">): Compiled {
  return compileAggregate({
    source: r.source,
    measure: r.measure,
    coin: r.coin,
    op: ">",
    threshold: r.limit,
    windowHours: r.windowHours,
  });
}
