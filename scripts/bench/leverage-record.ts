// The leverage record's lookup for a plan's preview: currentLeverage over 10,000 accounts at once (one query
// joining the accounts as a set over the primary key's leading columns), p50/p95 over 25 runs after two warm-ups,
// on a record of 30,000 rows (10,000 accounts × 3 symbols; target p95 ≤ 1 s for the whole preview), and one
// filtered page of the record.
// Run on its own:
//   node --conditions=react-server --import tsx scripts/bench/leverage-record.ts [--ledger-pg <postgres-url>]
// (PGlite, and PostgreSQL when --ledger-pg gives a URL, as the ledger's benchmarks take it.)
import { currentLeverage, leverageRecordRows } from "@/server/leverage/record";
import { benchDb } from "./ledger-store";
import { ledgerFlags, log } from "./support";

const ACCOUNTS = 10_000;
const SYMBOLS = ["BTCUSDT", "ETHUSDT", "XRPUSDT"];
const RUNS = 25;
const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function timed(fn: () => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  const times: number[] = [];
  for (let i = 0; i < RUNS + 2; i++) {
    const t0 = performance.now();
    await fn();
    if (i >= 2) times.push(performance.now() - t0);
  }
  times.sort((a, z) => a - z);
  return { p50: Math.round(pct(times, 50) * 10) / 10, p95: Math.round(pct(times, 95) * 10) / 10 };
}

export async function leverageRecordBench(pgUrl?: string): Promise<void> {
  for (const engine of pgUrl ? (["postgres", "pglite"] as const) : (["pglite"] as const)) {
    const b = await benchDb(engine, pgUrl);
    try {
      const accounts = Array.from({ length: ACCOUNTS }, (_, i) => `sub${8_000_000_000 + i}`);
      const now = Date.now();
      for (const symbol of SYMBOLS) {
        await b.db.query(
          `INSERT INTO leverage_record (account, sub_uid, product_type, symbol, margin_coin, margin_mode, long_leverage,
             short_leverage, cross_leverage, requested, set_by, set_at, reason)
           SELECT a, substr(a, 4), 'USDT-FUTURES', $2, 'USDT', 'crossed', '20', '20', (1 + n % 50)::text,
             (1 + n % 50)::text, 'bench@brokerdesk', to_timestamp(($3::bigint - n * 1000) / 1000.0), 'bench'
           FROM unnest($1::text[]) WITH ORDINALITY AS t(a, n)`,
          [accounts, symbol, now],
        );
      }
      let found = 0;
      const lookup = await timed(async () => {
        found = (await currentLeverage(b.db, accounts, "USDT-FUTURES", "BTCUSDT")).size;
      });
      const page = await timed(() =>
        leverageRecordRows(b.db, { symbol: "BTCUSDT", productType: "USDT-FUTURES", above: 10, limit: 50 }),
      );
      log(
        `${engine}: currentLeverage(${ACCOUNTS.toLocaleString("en-US")} accounts) found ${found}: ` +
          `p50 ${lookup.p50} ms, p95 ${lookup.p95} ms; a filtered record page: p50 ${page.p50} ms, p95 ${page.p95} ms`,
      );
    } finally {
      await b.dispose();
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await leverageRecordBench(ledgerFlags.pg);
}
