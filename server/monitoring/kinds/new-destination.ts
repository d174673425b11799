import "server-only";
import type { RuleParams } from "@/lib/api/monitoring/rule-kinds";
import { DAY, paramList, recordJson, SINCE, SUB, WITHDRAWAL_ROWS, type Compiled } from "./sql";

/**
 * A withdrawal request to an address its sub-account did not ask to send to (cancelled requests aside) in
 * the lookbackDays before it. Keyed by the request.
 */
export function compileNewDestination(r: RuleParams<"new_destination">): Compiled {
  const { params, p } = paramList();
  const back = `${p(r.lookbackDays * DAY)}::bigint`;
  const sql = `WITH x AS (${WITHDRAWAL_ROWS})
    SELECT x.sub_uid, 'w:' || x.id AS occurrence, x.ctime - ${back} AS window_start, x.ctime AS window_end,
      x.amount::text AS value, jsonb_build_array(${recordJson("withdrawal", "x.id")}) AS records
    FROM x
    WHERE (${SUB} IS NULL OR x.sub_uid = ${SUB}) AND (${SINCE} IS NULL OR x.ctime >= ${SINCE})
      AND NOT EXISTS (SELECT 1 FROM x e WHERE e.sub_uid = x.sub_uid AND e.address = x.address
        AND e.ctime >= x.ctime - ${back}
        AND (e.ctime < x.ctime OR (e.ctime = x.ctime AND e.id COLLATE "C" < x.id COLLATE "C")))`;
  return { sql, params };
}
