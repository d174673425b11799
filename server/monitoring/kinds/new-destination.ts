import "server-only";
import type { RuleParams } from "@/lib/api/monitoring/rule-kinds";
import { DAY, paramList, recordJson, SINCE, SUB, WITHDRAWAL_ROWS, type Compiled } from "./sql";

/**
 * A withdrawal request to an address its sub-account has not sent to in the lookbackDays before it: only a
 * request actually sent (submitted or confirmed, sent before this one was requested) makes an address familiar;
 * one pending, rejected, cancelled, failed or of unknown outcome does not. Keyed by the request. Brokerdesk's own
 * withdrawal requests are always complete: nothing waits for the ledger's coverage.
 */
/** When a request was sent, in ms (the kinds' time). */
const SENT_MS = "(floor(extract(epoch FROM e.submitted_at) * 1000))::bigint";

export function compileNewDestination(r: RuleParams<"new_destination">): Compiled {
  const { params, p } = paramList();
  const back = `${p(r.lookbackDays * DAY)}::bigint`;
  const sql = `WITH x AS (${WITHDRAWAL_ROWS})
    SELECT x.sub_uid, 'w:' || x.id AS occurrence, x.ctime - ${back} AS window_start, x.ctime AS window_end,
      x.amount::text AS value, jsonb_build_array(${recordJson("withdrawal", "x.id")}) AS records
    FROM x
    WHERE (${SUB} IS NULL OR x.sub_uid = ${SUB}) AND (${SINCE} IS NULL OR x.ctime >= ${SINCE})
      AND NOT EXISTS (SELECT 1 FROM withdrawal_requests e WHERE e.address = x.address AND e.sub_uid = x.sub_uid
        AND e.state IN ('submitted', 'confirmed') AND e.id::text <> x.id
        AND e.requested_at <= timestamptz 'epoch' + x.ctime * interval '1 millisecond'
        AND ${SENT_MS} BETWEEN x.ctime - ${back} AND x.ctime)`;
  return { sql, params };
}
