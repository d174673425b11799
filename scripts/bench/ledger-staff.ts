// Ledger benchmarks of staff beside the sync (scripts/bench/ledger.ts runs them):
// (f) "Check now" on a never-checked sub-account while the first backfill runs (--ledger-parts checknow): from
//     the click (what POST /api/ledger/sync/{uid} does: the ledger's prioritize) to its whole history complete
//     (its coverage back to the start), less the time its own calls take at E1's rate; target p95 ≤ 5 s.
// (g) A staff export walking E1 for desk01's 90 days with the platform 150 ms away (--ledger-parts exportsync):
//     the route's runExport through the client the sync uses, while the sync backfills, then the same export
//     with the sync stopped, in one run; records/s against E1's 10 × 100 = 1,000/s; target ≥ 0.95, 0 × 429.
//     Each run also prints the limiter's trace of the walk (server/platform/slot-trace.ts): slot-seconds the sync held
//     during it, sync calls in flight and holding slots when it began, slots left idle.
// In-process, with the simulator's rate limits on. Reports, never asserts.
import { catalog } from "@/lib/platform/catalog";
import { DEPOSITS_JOB } from "@/server/ledger/deposits/sync";
import { SlotTrace, summarizeWalk, walkEndOf } from "@/server/platform/slot-trace";
import { runExport } from "@/server/workflows/export-run";
import { boundOf } from "./exports";
import { withSync } from "./ledger-sync-bed";
import { DAY, exportScale, ledgerFlags, log, results, round, sleep, table, type Figures } from "./support";

const e1Rate = catalog["deposits.list"].rateLimit?.count ?? 10;
const pct = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : NaN;
/** Clicks measured in (f), one after the other. */
const CLICKS = 20;
/** How long the backfill runs before the first click / the first export. */
const WARM_MS = 20_000;

/** (f) "Check now" on never-checked sub-accounts during the first backfill. */
export async function checkNow(): Promise<void> {
  log(`\nLedger (f): "Check now" on a never-checked sub-account, ${ledgerFlags.subs} sub-accounts backfilling`);
  const row = await withSync(
    ledgerFlags.subs,
    {},
    async () => undefined,
    async (b, sim, uids, ledger) => {
      await sleep(WARM_MS);
      sim.resetStats();
      // The far end of the registry: the backfill reaches it last (it goes in UID order within a window).
      const candidates = [...uids].sort().slice(-Math.max(CLICKS * 4, Math.floor(uids.length / 4)));
      const totals: number[] = [];
      const beyond: number[] = [];
      const ownCalls: number[] = [];
      let skipped = 0;
      for (let i = 0; totals.length < CLICKS && i < candidates.length; i++) {
        const uid = candidates[Math.floor(Math.random() * candidates.length)]!;
        const seen = await b.db.query(`SELECT 1 FROM ledger_sync WHERE job = $1 AND sub_uid = $2`, [DEPOSITS_JOB, uid]);
        if (seen.rows.length) {
          skipped++;
          continue;
        }
        const t0 = performance.now();
        await ledger.prioritize(uid);
        // Complete when its coverage reaches the start of its history (written with the walk's last page).
        let secs = NaN;
        let calls = 0;
        for (;;) {
          const { rows } = await b.db.query<{ done: boolean; ended: boolean; calls: number }>(
            `SELECT (covered_to IS NOT NULL AND covered_from = 0) AS done, priority_at IS NULL AS ended, calls
               FROM ledger_sync WHERE job = $1 AND sub_uid = $2`,
            [DEPOSITS_JOB, uid],
          );
          if (rows[0]?.done && Number.isNaN(secs)) secs = (performance.now() - t0) / 1000;
          // Its calls are counted when its run ends, just after: read them then.
          if (rows[0]?.done && rows[0].ended) {
            calls = rows[0].calls;
            break;
          }
          await sleep(25);
        }
        totals.push(secs);
        ownCalls.push(calls);
        beyond.push(secs - calls / e1Rate);
      }
      const sorted = (a: number[]) => [...a].sort((x, z) => x - z);
      const stats = sim.stats();
      return {
        engine: b.engine,
        subaccounts: uids.length,
        clicks: totals.length,
        skippedAlreadyChecked: skipped,
        ownCallsMedian: pct(sorted(ownCalls), 50),
        ownCallsMax: Math.max(...ownCalls),
        p50s: round(pct(sorted(totals), 50), 2),
        p95s: round(pct(sorted(totals), 95), 2),
        beyondOwnCallsP50s: round(pct(sorted(beyond), 50), 2),
        beyondOwnCallsP95s: round(pct(sorted(beyond), 95), 2),
        maxS: round(Math.max(...totals), 2),
        http429: stats.http429,
      } satisfies Figures;
    },
  );
  log(`  ${JSON.stringify(row)}`);
  table('Ledger (f): "Check now" -> history complete (target p95 <= 5 s beyond its own calls at 10/s)', [row]);
  results.ledgerCheckNow = row;
}

/** (g) desk01's 90 days exported through E1 150 ms away: while the sync backfills, then with it stopped. */
export async function exportWhileSyncing(): Promise<void> {
  const bound = boundOf("deposits.list");
  log(
    `\nLedger (g): a staff export of desk01's 90 days (simulator scale ${exportScale}, ` +
      `its default sub-accounts), E1 150 ms away, with the sync backfilling and then stopped`,
  );
  // The simulator's own number of sub-accounts at that scale (10,000 of them at scale 20 would hold millions).
  const trace = new SlotTrace();
  const rows = await withSync(
    ledgerFlags.subs,
    { scale: exportScale, subaccounts: undefined },
    async () => undefined,
    async (b, sim, uids, ledger, client) => {
      const desk01 = sim.state
        .subaccountsOf(sim.keys.brokerMain.uid)
        .find((x) => x.subaccountName.startsWith("desk01@"))?.uid;
      if (!desk01) throw new Error("the simulator has no desk01");
      sim.faults.add({ path: "deposits.list", kind: "latency", latencyMs: 150, jitterMs: 20 });
      await sleep(WARM_MS);
      const out: Figures[] = [];
      for (const sync of ["backfilling", "stopped"] as const) {
        if (sync === "stopped") await ledger.stop();
        trace.clear();
        // A clean second: no export starts inside the rate window of the calls before it.
        await sleep(1_100);
        const end = Date.now();
        const params = { userId: desk01, startTime: String(end - 90 * DAY + 120_000), endTime: String(end) };
        sim.resetStats();
        const t0 = performance.now();
        let walkFrom = NaN;
        const r = await runExport({
          db: b.db,
          client,
          actor: { email: "bench@brokerdesk", role: "compliance" },
          operation: "deposits.list",
          params,
          // The walk is announced right after its start event (runExport).
          onEvent: (e) => void (e.type === "start" && (walkFrom = Date.now())),
        });
        const secs = (performance.now() - t0) / 1000;
        const stats = sim.stats();
        const op = stats.operations["deposits.list"];
        const { rows: progress } = await b.db.query<{ n: number; done: number }>(
          `SELECT count(*)::int AS n, count(*) FILTER (WHERE backfill_done)::int AS done FROM ledger_sync
            WHERE job = $1`,
          [DEPOSITS_JOB],
        );
        out.push({
          sync,
          state: r.state,
          records: r.records,
          seconds: round(secs, 1),
          recPerSec: Math.round(r.records / secs),
          bound,
          ratio: round(r.records / secs / bound, 3),
          e1Requests: op?.requests ?? 0,
          http429: stats.http429,
          peakPerSecond: op?.peakPerSecond ?? 0,
          subaccounts: uids.length,
          checked: progress[0]!.n,
          historyComplete: progress[0]!.done,
          engine: b.engine,
          ...summarizeWalk(trace.holds, {
            operation: "deposits.list",
            limit: e1Rate,
            from: walkFrom,
            to: walkEndOf(trace.holds, "deposits.list", walkFrom),
          }),
        });
        log(`  ${JSON.stringify(out.at(-1))}`);
      }
      return out;
    },
    { trace },
  );
  table("Ledger (g): staff export of E1 150 ms away, the sync on and off (target >= 0.95 both, 0 x 429)", rows);
  results.ledgerExportWhileSyncing = { runs: rows };
}
