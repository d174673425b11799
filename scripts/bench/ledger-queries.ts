// Ledger benchmarks (c) and (d): the compliance query on a million stored deposits over
// 10,000 sub-accounts (first page, exact count, totals per coin, the per-day series: /deposits' one call,
// searchDeposits), p50/p95 over 20+ runs, on PostgreSQL (target p95 ≤ 100 ms) and PGlite; and the streamed
// CSV export of the whole ledger (target ≥ 50,000 rows/s), with this process's peak RSS.
import { ledgerDepositFiltersSchema, LEDGER_DEPOSIT_CSV_COLUMNS } from "@/lib/api/ledger";
import type { StaffSession } from "@/server/auth/session";
import { csvBody, csvResponse } from "@/server/http/csv";
import { depositsForExport } from "@/server/ledger/deposits/export";
import type { Db } from "@/server/db";
import { searchDeposits } from "@/server/ledger/deposits/queries";
import { benchDb, generateDeposits, seedSubaccounts } from "./ledger-store";
import { DAY, ledgerFlags, log, results, round, rssPeak, table, type Figures } from "./support";

const RUNS = 25;
const compliance: StaffSession = {
  userId: "bench",
  email: "compliance@bench.brokerdesk",
  name: "bench",
  role: "compliance",
};
const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

export async function ledgerQueriesAndExport(): Promise<void> {
  const engines = (["postgres", "pglite"] as const).filter(
    (e) => ledgerFlags.engines.includes(e) && (e === "pglite" || ledgerFlags.pg),
  );
  const queryRows: Figures[] = [];
  const exportRows: Figures[] = [];
  const searchRows: Figures[] = [];
  for (const engine of engines) {
    const t0 = performance.now();
    const b = await benchDb(engine, ledgerFlags.pg);
    try {
      const now = Date.now();
      await seedSubaccounts(b.db, ledgerFlags.subs);
      await generateDeposits(b.db, ledgerFlags.rows, ledgerFlags.subs, now);
      const genSeconds = round((performance.now() - t0) / 1000, 1);
      log(
        `  ${engine}: ${ledgerFlags.rows.toLocaleString("en-US")} deposits over ` +
          `${ledgerFlags.subs.toLocaleString("en-US")} sub-accounts generated in ${genSeconds} s`,
      );

      if (ledgerFlags.parts.has("queries")) {
        const f = ledgerDepositFiltersSchema.parse({
          from: String(now - 90 * DAY),
          coin: "USDT",
          minAmount: "10000",
          status: "success",
        });
        const times: number[] = [];
        let total = 0;
        for (let i = 0; i < RUNS + 2; i++) {
          const q0 = performance.now();
          const page = await searchDeposits(b.db, f);
          const ms = performance.now() - q0;
          total = page.total;
          if (i >= 2) times.push(ms); // two warm-ups: the first run reads from disk into the cache
        }
        times.sort((a, z) => a - z);
        queryRows.push({
          engine,
          rows: ledgerFlags.rows,
          matching: total,
          runs: RUNS,
          p50ms: round(pct(times, 50), 1),
          p95ms: round(pct(times, 95), 1),
          maxMs: round(times.at(-1)!, 1),
        });
        log(`  ${JSON.stringify(queryRows.at(-1))}`);
        searchRows.push(...(await addressSearch(b.db, engine)));
      }

      if (ledgerFlags.parts.has("export")) {
        const rss = rssPeak();
        const before = Math.round(process.memoryUsage().rss / 2 ** 20);
        const e0 = performance.now();
        const body = await depositsForExport(b.db, ledgerDepositFiltersSchema.parse({}), compliance, {
          requestId: "bench-export",
          ip: null,
        });
        const res = await csvResponse(csvBody("deposits-ledger", LEDGER_DEPOSIT_CSV_COLUMNS, body));
        let lines = 0;
        let bytes = 0;
        // Resident memory at each quarter of the rows: flat if it does not grow with the rows written.
        const quarters: number[] = [];
        for await (const chunk of res.body!) {
          bytes += chunk.length;
          for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) lines++;
          if (lines >= ((quarters.length + 1) * ledgerFlags.rows) / 4)
            quarters.push(Math.round(process.memoryUsage().rss / 2 ** 20));
        }
        const secs = (performance.now() - e0) / 1000;
        const rows = lines - 1;
        exportRows.push({
          engine,
          rows,
          MiB: round(bytes / 2 ** 20, 1),
          seconds: round(secs, 1),
          rowsPerSec: Math.round(rows / secs),
          rssBeforeMiB: before,
          rssAtQuartersMiB: quarters.join("/"),
          rssPeakMiB: rss.stop(),
        });
        log(`  ${JSON.stringify(exportRows.at(-1))}`);
      }
    } finally {
      await b.dispose();
    }
  }
  if (queryRows.length)
    table(
      "Ledger (c): last 90 d, USDT, amount >= 10,000, success, every sub-account: page + count + totals + " +
        "per-day (target p95 <= 100 ms on PostgreSQL)",
      queryRows,
    );
  if (searchRows.length)
    table(
      "Ledger (c2): one deposit by its address or transaction ID (the search box), every sub-account: with " +
        "migration 0016's indexes and without them, in one run",
      searchRows,
    );
  if (exportRows.length)
    table("Ledger (d): streamed CSV export of the whole ledger (target >= 50,000 rows/s, memory flat)", exportRows);
  results.ledgerQueries = { runs: queryRows, search: searchRows, export: exportRows };
}

const SEARCH_INDEXES = ["ledger_deposits_tx_any_case", "ledger_deposits_from_any_case", "ledger_deposits_to_any_case"];

/**
 * The search box's query (searchDeposits with q: the page, the count, the totals), for a receiving address
 * (base58, exact) and a transaction hash typed upper-case (hex, any case): p50/p95 with the lower() indexes,
 * then the same with them dropped (as before migration 0016, when an address was found by reading every row).
 */
async function addressSearch(db: Db, engine: string): Promise<Figures[]> {
  // Row g of generateDeposits: to_address 'T' || md5(g + 7), tx_id '0x' || md5(g + 13).
  const { rows } = await db.query<{ to_address: string; tx_id: string }>(
    "SELECT to_address, tx_id FROM ledger_deposits WHERE order_id = '1000000000000777'",
  );
  const one = rows[0]!;
  const cases = [
    ["receiving address (base58)", one.to_address],
    ["transaction hash, upper-case", `0x${one.tx_id.slice(2).toUpperCase()}`],
  ] as const;
  const measure = async (q: string) => {
    const f = ledgerDepositFiltersSchema.parse({ q });
    const times: number[] = [];
    let total = 0;
    for (let i = 0; i < 12; i++) {
      const q0 = performance.now();
      total = (await searchDeposits(db, f)).total;
      if (i >= 2) times.push(performance.now() - q0);
    }
    times.sort((a, z) => a - z);
    return { total, p50: round(pct(times, 50), 1), p95: round(pct(times, 95), 1) };
  };
  const withIndexes: Awaited<ReturnType<typeof measure>>[] = [];
  for (const [, q] of cases) withIndexes.push(await measure(q));
  // Nothing after this in the run searches by q (the export reads the whole ledger).
  for (const name of SEARCH_INDEXES) await db.query(`DROP INDEX ${name}`);
  const without: Awaited<ReturnType<typeof measure>>[] = [];
  for (const [, q] of cases) without.push(await measure(q));
  const out = cases.map(([what], i) => ({
    engine,
    rows: ledgerFlags.rows,
    search: what,
    matching: withIndexes[i]!.total,
    p50ms: withIndexes[i]!.p50,
    p95ms: withIndexes[i]!.p95,
    withoutP50ms: without[i]!.p50,
    withoutP95ms: without[i]!.p95,
  }));
  for (const r of out) log(`  ${JSON.stringify(r)}`);
  return out;
}
