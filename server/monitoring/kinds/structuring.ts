import "server-only";
import type { RuleParams } from "@/lib/api/monitoring/rule-kinds";
import { HOUR, paramList, rollingQuery, type Compiled } from "./sql";

/** minCount or more deposits of the coin inside windowHours, each at least marginPct % under threshold and below it. */
export function compileStructuring(r: RuleParams<"structuring">): Compiled {
  const { params, p } = paramList();
  const coin = p(r.coin);
  const threshold = p(r.threshold);
  const margin = p(r.marginPct);
  const sql = rollingQuery({
    source: "deposits",
    measure: "count",
    filters: [
      `r.coin = ${coin}::text`,
      `r.amount < ${threshold}::numeric`,
      `r.amount >= ${threshold}::numeric * (100 - ${margin}::numeric) / 100`,
    ],
    op: ">=",
    thresholdParam: p(r.minCount),
    windowParam: p(r.windowHours * HOUR),
  });
  return { sql, params };
}
