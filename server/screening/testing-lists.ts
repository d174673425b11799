import "server-only";
// Test support for what screens against the lists: a version listing given addresses, written as an import
// writes one (active from its commit's time), and Brokerdesk's own sanctions rules put back after a test
// emptied the monitoring tables (server/monitoring/testing.ts clearMonitoring).
import { createHash } from "node:crypto";
import { normaliseAddress } from "@/lib/screening-address";
import type { Queryable } from "@/server/db";
import { SANCTIONS_RULES } from "@/server/monitoring/system-rules";

let versions = 0;

/** A new version of `list` listing `addresses` (USDT, party "Test Party"), active at once; answers its ID. */
export async function listAddresses(db: Queryable, addresses: readonly string[], list = "test-list"): Promise<number> {
  const sha = createHash("sha256")
    .update(`${list}:${++versions}:${addresses.join(",")}`)
    .digest("hex");
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO screening_list_versions (list, format, sha256, file_name, published_at, counts, address_count,
                                          imported_by, activated_at)
     VALUES ($1, 'csv', $2, 'test.csv', '2026-11-30T00:00:00Z', $3::jsonb, $4, 'importer@test', clock_timestamp())
     RETURNING id`,
    [list, sha, JSON.stringify({ USDT: addresses.length }), addresses.length],
  );
  const id = Number(rows[0]!.id);
  for (const [i, a] of addresses.entries())
    await db.query(
      `INSERT INTO screening_list_entries (version_id, address, ordinal, asset, listed_as, party_name, reason)
       VALUES ($1, $2, $3, 'USDT', $4, 'Test Party', 'test listing')`,
      [id, normaliseAddress(a), i, a],
    );
  return id;
}

/** Brokerdesk's two sanctions rules (migration 0110), back if a test emptied the rule tables. */
export async function restoreSanctionsRules(db: Queryable): Promise<void> {
  for (const [side, r] of Object.entries(SANCTIONS_RULES)) {
    await db.query(
      `INSERT INTO monitoring_rules (id, name, created_by) VALUES ($1, $2, 'brokerdesk') ON CONFLICT DO NOTHING`,
      [r.ruleId, `Sanctions list: ${side === "deposit_source" ? "deposit from" : "withdrawal to"} a listed address`],
    );
    await db.query(
      `INSERT INTO monitoring_rule_versions
         (id, rule_id, version, kind, params, severity, holds, state, author, activated_by, activated_at)
       VALUES ($1, $2, 1, 'sanctioned_address', $3::jsonb, 'high', true, 'active', 'brokerdesk',
               'brokerdesk:migration', now())
       ON CONFLICT DO NOTHING`,
      [r.versionId, r.ruleId, JSON.stringify({ side })],
    );
  }
}
