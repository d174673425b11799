import "server-only";
import type { RuleParams } from "@/lib/api/monitoring/rule-kinds";
import { bucketOf, DEPOSIT_ROWS, HOUR, paramList, SINCE, SUB, WITHDRAWAL_ROWS, type Compiled } from "./sql";

/**
 * One deposit source address on chain (or withdrawal destination) used by minSubAccounts or more sub-accounts inside
 * windowHours: each record t of the address whose window [t - window, t] holds that many raises an alert for
 * every sub-account in it, one per sub-account and fixed window. Scoped to a sub-account, the triggers are
 * the records of the addresses it used. On the deposit side a trigger counts once the ledger holds every
 * sub-account it counts over its window (a sub-account's deposits missing there could hide nothing it counts,
 * but its alert's count and records would be short); Brokerdesk's own withdrawal requests are always complete.
 */
export function compileSharedAddress(r: RuleParams<"shared_address">): Compiled {
  const { params, p } = paramList();
  const w = `${p(r.windowHours * HOUR)}::bigint`;
  const k = p(r.minSubAccounts);
  // A deposit's source is an address on chain: an internal transfer names the sending account instead (often
  // the broker's own main account, which funds every sub-account), so it is no one's shared address.
  const rows =
    r.side === "deposit_source"
      ? `${DEPOSIT_ROWS} WHERE from_address <> '' AND dest <> 'internal_transfer'`
      : WITHDRAWAL_ROWS;
  const kind = r.side === "deposit_source" ? "deposit" : "withdrawal";
  const covered =
    r.side === "deposit_source" ? `LEFT JOIN ledger_sync cs ON cs.job = 'deposits' AND cs.sub_uid = o.sub_uid` : "";
  const allCovered =
    r.side === "deposit_source"
      ? ` AND bool_and(coalesce(cs.covered_to >= t.ctime AND (cs.covered_from = 0 OR cs.covered_from <= t.ctime - ${w}),
          false))`
      : "";
  // The source rows are written out at each use rather than as one CTE: a CTE used three times is
  // materialised whole, and a batch's lookups by address would then scan the whole ledger.
  const sql = `WITH t AS (
      SELECT a.* FROM (${rows}) a WHERE (${SINCE} IS NULL OR a.ctime >= ${SINCE})
        AND (${SUB} IS NULL OR a.address IN (SELECT a1.address FROM (${rows}) a1 WHERE a1.sub_uid = ${SUB}))
    ),
    g AS (
      SELECT t.id, t.ctime, array_agg(DISTINCT o.sub_uid) AS subs
        FROM t JOIN (${rows}) o ON o.address = t.address AND o.ctime BETWEEN t.ctime - ${w} AND t.ctime
        ${covered}
       GROUP BY t.id, t.ctime
      HAVING count(DISTINCT o.sub_uid) >= ${k}::integer${allCovered}
    ),
    hit AS (SELECT s.sub_uid, g.id, g.ctime, cardinality(g.subs) AS n, ${bucketOf("g.ctime", w)} AS bucket
      FROM g CROSS JOIN LATERAL unnest(g.subs) AS s(sub_uid))
    SELECT sub_uid, bucket::text AS occurrence, bucket AS window_start, bucket + ${w} AS window_end,
           max(n)::text AS value, jsonb_agg(jsonb_build_object('kind', '${kind}', 'id', id) ORDER BY ctime, id)
             AS records
      FROM hit GROUP BY sub_uid, bucket`;
  return { sql, params };
}
