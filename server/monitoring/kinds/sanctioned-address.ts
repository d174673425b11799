import "server-only";
import type { RuleParams } from "@/lib/api/monitoring/rule-kinds";
import { paramList, SINCE, SUB, WITHDRAWAL_MS, type Compiled } from "./sql";

/**
 * The active version of every screening list at the statement's time (server/screening/screen.ts answers the same
 * for one address): the newest version of each list activated by now.
 */
export const ACTIVE_LIST_VERSIONS = `SELECT DISTINCT ON (v.list) v.id, v.list FROM screening_list_versions v
  WHERE v.activated_at <= now() ORDER BY v.list, v.activated_at DESC, v.id DESC`;

/**
 * A deposit whose source address, or an open withdrawal request (requested or approved, not yet sent) whose
 * destination, is listed by the active version of any screening list, compared on the lookup key
 * (screening_address, migration 0110, the same as lib/screening-address.ts). Keyed by the record: a record listed
 * again by a later version raises nothing new. The record names the address and the lists that list it. A record
 * is its own evidence: nothing waits for the ledger's coverage. Brokerdesk's own system rules (one per side) are the
 * only versions of this kind.
 */
export function compileSanctionedAddress(r: RuleParams<"sanctioned_address">): Compiled {
  const { params } = paramList();
  const deposits = r.side === "deposit_source";
  const rows = deposits
    ? `SELECT order_id AS id, sub_uid, ctime, amount, from_address AS address FROM ledger_deposits
        WHERE from_address <> ''`
    : `SELECT id::text AS id, sub_uid, ${WITHDRAWAL_MS} AS ctime, amount::numeric AS amount, address
         FROM withdrawal_requests WHERE state IN ('requested', 'approved')`;
  const sql = `WITH x AS (${rows}), lists AS (${ACTIVE_LIST_VERSIONS})
    SELECT x.sub_uid, '${deposits ? "d" : "w"}:' || x.id AS occurrence, x.ctime AS window_start,
      x.ctime AS window_end, x.amount::text AS value,
      jsonb_build_array(jsonb_build_object('kind', '${deposits ? "deposit" : "withdrawal"}', 'id', x.id,
        'address', x.address,
        'listed', jsonb_agg(DISTINCT jsonb_build_object('list', l.list, 'versionId', l.id)))) AS records
    FROM x
    JOIN screening_list_entries e ON e.address = screening_address(x.address)
    JOIN lists l ON l.id = e.version_id
    WHERE (${SUB} IS NULL OR x.sub_uid = ${SUB}) AND (${SINCE} IS NULL OR x.ctime >= ${SINCE})
    GROUP BY x.sub_uid, x.id, x.ctime, x.amount, x.address`;
  return { sql, params };
}
