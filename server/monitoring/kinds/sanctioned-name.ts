import "server-only";
import { nameMatchesSql } from "@/server/screening/names";
import { paramList, SINCE, SUB, WITHDRAWAL_MS, type Compiled } from "./sql";

/**
 * An open withdrawal request (requested or approved, not yet sent) one of whose Travel Rule names (originator,
 * beneficiary, beneficiary's VASP) is a party name of the active version of any screening list, exactly or by its
 * key (server/screening/names.ts, the statement the withdrawal's page reads too). Keyed by the request: a request
 * matched again by a later version raises nothing new. The record names each match (role, name, party, list,
 * version, exact or normalised). Brokerdesk's own system rule is the only version of this kind.
 */
export function compileSanctionedName(): Compiled {
  const { params } = paramList();
  const requests = `SELECT id, sub_uid, ${WITHDRAWAL_MS} AS ctime, amount::numeric AS amount FROM withdrawal_requests
      WHERE state IN ('requested', 'approved') AND (${SUB} IS NULL OR sub_uid = ${SUB})
        AND (${SINCE} IS NULL OR ${WITHDRAWAL_MS} >= ${SINCE})`;
  const sql = `WITH m AS (${nameMatchesSql(requests)}),
    r AS (SELECT id, sub_uid, ${WITHDRAWAL_MS} AS ctime, amount::numeric AS amount FROM withdrawal_requests)
    SELECT r.sub_uid, 'n:' || r.id::text AS occurrence, r.ctime AS window_start, r.ctime AS window_end,
      r.amount::text AS value,
      jsonb_build_array(jsonb_build_object('kind', 'withdrawal', 'id', r.id::text,
        'names', jsonb_agg(jsonb_build_object('role', m.role, 'name', m.name, 'party', m.party_name, 'list', m.list,
          'versionId', m.version_id, 'match', CASE WHEN m.exact THEN 'exact' ELSE 'normalised' END)
          ORDER BY m.ordinal, m.list, m.party_name))) AS records
    FROM m JOIN r ON r.id = m.request_id
    GROUP BY r.sub_uid, r.id, r.ctime, r.amount`;
  return { sql, params };
}
