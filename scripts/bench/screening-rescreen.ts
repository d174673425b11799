// The rescreen benchmark, part of `npm run bench -- --only screening` (--screening-parts rescreen; PostgreSQL only,
// --ledger-pg <url>): in a schema of its own, --ledger-rows deposits (1,000,000) over --ledger-subs sub-accounts,
// one in a thousand from an address that a list of --screening-addresses entries (1,000,000) names, 1,000
// address-book entries and 1,000 open requests (one in a hundred to a listed address), all written in SQL; then
// (a) the rescreen as the job runs it (server/screening/rescreen.ts), its phases and whole (target on PostgreSQL:
//     the whole at most 60 s), (b) the same rescreen again (nothing new: what a retried job costs), and (c) side by
//     side, the deposits' part as the plain SQL an analyst would type (./monitoring-sql.ts ANALYST_SQL
//     .sanctioned_address), with the check that both find the same (sub-account, deposit) pairs.
import { createTestDatabase } from "@/server/db/testing";
import type { Db } from "@/server/db";
import { queueRescreen, runRescreen, type RescreenReport } from "@/server/screening";
import { ANALYST_SQL } from "./monitoring-sql";
import { ledgerFlags, log, round, screeningAddresses, type Figures } from "./support";

const SIDE = 1_000;

async function generate(db: Db, deposits: number, subs: number, listed: number): Promise<void> {
  const t0 = performance.now();
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO screening_list_versions (list, format, sha256, counts, address_count, imported_by, activated_at)
     VALUES ('bench', 'csv', repeat('0', 64), jsonb_build_object('TRX', $1::int), $1, 'bench', now() - interval '1 s')
     RETURNING id`,
    [listed],
  );
  const version = rows[0]!.id;
  await db.query(
    `INSERT INTO screening_list_entries (version_id, address, ordinal, asset, listed_as, reason)
     SELECT $1, 'T' || md5('l' || i), i, 'TRX', 'T' || md5('l' || i), 'bench' FROM generate_series(1, $2) i`,
    [version, listed],
  );
  // One deposit in a thousand from a listed address (the first `listed` addresses in turn), the rest from others.
  await db.query(
    `INSERT INTO ledger_deposits (order_id, sub_uid, coin, amount, status, type, dest, chain, from_address, ctime)
     SELECT 'b' || i, (8000000000 + i % $2)::text, 'USDT', (i % 997)::numeric + 0.5, 'success', 'deposit', 'on_chain',
            'TRC20', CASE WHEN i % 1000 = 0 THEN 'T' || md5('l' || ((i / 1000) % $3 + 1)) ELSE 'T' || md5('d' || i) END,
            1600000000000 + i * 1000
       FROM generate_series(1, $1) i`,
    [deposits, subs, listed],
  );
  await db.query(
    `INSERT INTO withdrawal_destinations (sub_uid, dest, chain, address, label, requested_by)
     SELECT (8000000000 + i)::text, 'on_chain', 'TRC20',
            CASE WHEN i % 100 = 0 THEN 'T' || md5('l' || i) ELSE 'T' || md5('b' || i) END, 'bench ' || i, 'bench'
       FROM generate_series(1, $1) i`,
    [SIDE],
  );
  await db.query(
    `INSERT INTO withdrawal_requests (id, client_oid, sub_uid, coin, dest, address, amount, reason, requested_by,
                                      requested_at, state)
     SELECT gen_random_uuid(), 'bench' || i, (8000000000 + i)::text, 'USDT', 'on_chain',
            CASE WHEN i % 100 = 0 THEN 'T' || md5('l' || i) ELSE 'T' || md5('w' || i) END, 10, 'bench', 'bench',
            now() - interval '1 hour', 'requested'
       FROM generate_series(1, $1) i`,
    [SIDE],
  );
  await db.query(`ANALYZE`);
  log(
    `screening rescreen: generated ${deposits} deposits, ${listed} listed addresses, ${SIDE} entries and ` +
      `${SIDE} requests in ${round((performance.now() - t0) / 1000)} s`,
  );
}

async function rescreen(db: Db): Promise<RescreenReport> {
  return (await runRescreen(db, await queueRescreen(db, null, "bench")))!;
}

export async function rescreenBench(): Promise<Figures | null> {
  if (!ledgerFlags.pg) {
    log("screening rescreen: no --ledger-pg, skipped (PostgreSQL only)");
    return null;
  }
  const tdb = await createTestDatabase({ engine: "postgres", url: ledgerFlags.pg });
  try {
    const db = await tdb.open();
    await generate(db, ledgerFlags.rows, ledgerFlags.subs, screeningAddresses);
    const first = await rescreen(db);
    log(`  first rescreen: ${JSON.stringify({ ...first, newMatches: first.newMatches.length, gone: [] })}`);
    const again = await rescreen(db);
    // The analyst's query: the deposits from a listed address, as (sub-account, key) pairs.
    const t0 = performance.now();
    const analyst = await db.query<{ sub_uid: string; k: string }>(ANALYST_SQL.sanctioned_address);
    const analystMs = performance.now() - t0;
    const platform = await db.query<{ sub_uid: string; k: string }>(
      `SELECT sub_uid, occurrence AS k FROM monitoring_alerts WHERE rule_id = '5ac70000-0000-4000-8000-000000000001'`,
    );
    const key = (r: { sub_uid: string; k: string }) => `${r.sub_uid} ${r.k}`;
    const a = new Set(analyst.rows.map(key));
    const same = a.size === platform.rows.length && platform.rows.every((r) => a.has(key(r)));
    return {
      engine: "postgres",
      deposits: ledgerFlags.rows,
      listedAddresses: screeningAddresses,
      depositMatches: first.deposits.matched,
      rescreenS: round(first.durationMs / 1000),
      depositsPhaseS: round(first.phasesMs.deposits / 1000),
      destinationsS: round(first.phasesMs.destinations / 1000),
      requestsS: round(first.phasesMs.requests / 1000),
      releaseS: round(first.phasesMs.release / 1000),
      againS: round(again.durationMs / 1000),
      againNew: again.newMatches.length + again.released,
      analystSqlS: round(analystMs / 1000),
      analystRows: analyst.rows.length,
      sameAsAnalyst: same ? "yes" : "NO",
      rescreenTarget: first.durationMs <= 60_000 ? "met" : "MISSED",
    };
  } finally {
    await tdb.dispose();
  }
}
