// The ledger benchmarks' databases and generated data: a fresh PostgreSQL schema (dropped after)
// or an in-memory PGlite, a registry of N sub-accounts, and N deposits made in SQL (insert … select
// generate_series), so a million rows take seconds, not the hours a backfill would.
import type { Db } from "@/server/db";
import { createTestDatabase, type TestDatabase } from "@/server/db/testing";

export type BenchDb = { db: Db; engine: "postgres" | "pglite"; dispose: () => Promise<void> };

export async function benchDb(engine: "postgres" | "pglite", pgUrl?: string): Promise<BenchDb> {
  if (engine === "postgres" && !pgUrl) throw new Error("--ledger-pg <url> is needed for PostgreSQL");
  const tdb: TestDatabase = await createTestDatabase(
    engine === "postgres" ? { engine, url: pgUrl! } : { engine: "pglite" },
  );
  return { db: await tdb.open(), engine, dispose: () => tdb.dispose() };
}

export const subUidOf = (i: number) => String(8_000_000_000 + i);

/** n sub-accounts in the registry, UIDs subUidOf(0 … n-1), unless `uids` names them. */
export async function seedSubaccounts(db: Db, n: number, uids?: readonly string[]): Promise<void> {
  const list = uids ?? Array.from({ length: n }, (_, i) => subUidOf(i));
  for (let i = 0; i < list.length; i += 5_000) {
    const part = list.slice(i, i + 5_000);
    await db.query(
      `INSERT INTO subaccounts (sub_uid, subaccount_name, status, perm_list, source, created_by)
       SELECT u, 'bench' || u || '@virtual', 'normal', '{}', 'simulator-seed',
         'system' FROM unnest($1::text[]) AS u ON CONFLICT DO NOTHING`,
      [part],
    );
  }
}

/**
 * `rows` deposits over `subs` sub-accounts and the two years before `now`: coins weighted as a broker's
 * (USDT most), amounts spread over six orders of magnitude (log-uniform), 90% success.
 */
export async function generateDeposits(db: Db, rows: number, subs: number, now: number): Promise<void> {
  const step = 250_000;
  for (let from = 1; from <= rows; from += step) {
    const to = Math.min(rows, from + step - 1);
    await db.query(
      `INSERT INTO ledger_deposits (order_id, sub_uid, coin, amount, status, type, dest, chain, from_address,
         to_address, tx_id, fee, confirm, ctime, utime)
       SELECT (1000000000000000 + g)::text,
              (8000000000 + (hashint4(g) & 2147483647) % $3)::text,
              (ARRAY['USDT','USDT','USDT','BTC','ETH','USDC','SOL','TRX'])[1 + (hashint4(g + 1) & 2147483647) % 8],
              round(exp(((hashint4(g + 2) & 2147483647) % 1000000) / 1000000.0 * 14 - 2)::numeric, 6),
              CASE WHEN (hashint4(g + 3) & 2147483647) % 20 = 0 THEN 'pending'
                WHEN (hashint4(g + 3) & 2147483647) % 20 = 1 THEN 'fail' ELSE 'success' END,
              'deposit', 'on_chain', 'TRC20', 'T' || md5(g::text), 'T' || md5((g + 7)::text),
                '0x' || md5((g + 13)::text), '0', '12',
              $4::bigint - floor((hashint4(g + 4) & 2147483647) / 2147483648.0 * 730 * 86400000)::bigint,
              $4::bigint
         FROM generate_series($1::int, $2::int) AS g`,
      [from, to, subs, now],
    );
  }
  // What autovacuum does on its own after a bulk load; index-only scans need its visibility map.
  await db.query("VACUUM ANALYZE ledger_deposits");
  await db.query("VACUUM ANALYZE subaccounts");
}
