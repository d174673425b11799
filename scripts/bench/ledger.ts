// Ledger benchmarks, `npm run bench -- --only ledger`: (a) the backfill of 10,000 sub-accounts'
// deposits against the simulator with its rate limits on, over a fixed time: calls/s, records/s, the ratio
// to the bound of the configured share (LEDGER_SYNC_SHARE × E1's 10 calls/s), HTTP 429s, peak RSS;
// (b) freshness with deposits arriving live: creation on the simulator → first seen in the ledger, p50/p99
// for active and dormant sub-accounts, against the physical bound (sub-accounts ÷ (share × 10)) s;
// (c) and (d) in ledger-queries.ts; (e) the time until the last three months are complete for every
// sub-account, and until every history is, against the physical bound (--ledger-parts recent, history); (f)
// and (g) in ledger-staff.ts ("check now", a staff export while the sync backfills), (h) in ledger-export-http.ts
// ((g) against a standalone simulator over HTTP). The sync is the app's own
// (pg-boss engine, budget, client), in this process with the simulator (ledger-sync-bed.ts); PostgreSQL with
// --ledger-pg, else PGlite. Reports, never asserts.
import { env } from "@/lib/env";
import { catalog } from "@/lib/platform/catalog";
import { sharePerSecond } from "@/server/ledger/budget";
import { DEPOSITS_JOB, WINDOW_MS } from "@/server/ledger/deposits/sync";
import { checkIntervals, scheduleCounts } from "@/server/ledger/deposits/schedule";
import { ledgerQueriesAndExport } from "./ledger-queries";
import { checkNow, exportWhileSyncing } from "./ledger-staff";
import { exportSyncOverHttp } from "./ledger-export-http";
import { withSync } from "./ledger-sync-bed";
import { DAY, ledgerFlags, log, results, round, rssPeak, sleep, table, type Figures } from "./support";

const share = env.ledger.share;
const e1Rate = catalog["deposits.list"].rateLimit?.count ?? 10;
const pct = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : NaN;

/** (a) The backfill's first `seconds` at 10,000 sub-accounts. */
async function backfill(): Promise<void> {
  const bound = sharePerSecond("deposits.list", share);
  log(
    `\nLedger (a): backfill of ${ledgerFlags.subs.toLocaleString("en-US")} sub-accounts for ` +
      `${ledgerFlags.seconds} s (share ${share} of E1's ${e1Rate} calls/s = ${bound} calls/s)`,
  );
  const row = await withSync(
    ledgerFlags.subs,
    {},
    async () => undefined,
    async (b, sim) => {
      sim.resetStats();
      const rss = rssPeak();
      const t0 = performance.now();
      await sleep(ledgerFlags.seconds * 1000);
      const secs = (performance.now() - t0) / 1000;
      const stats = sim.stats();
      const op = stats.operations["deposits.list"];
      const { rows } = await b.db.query<{ records: number; done: number; checked: number }>(
        `SELECT (SELECT count(*)::int FROM ledger_deposits) AS records,
           count(*) FILTER (WHERE backfill_done)::int AS done,
           count(*)::int AS checked FROM ledger_sync WHERE job = $1`,
        [DEPOSITS_JOB],
      );
      const r = rows[0]!;
      const calls = op?.accepted ?? 0;
      return {
        engine: b.engine,
        subaccounts: ledgerFlags.subs,
        seconds: round(secs, 1),
        calls,
        callsPerSec: round(calls / secs, 2),
        boundPerSec: bound,
        ratio: round(calls / secs / bound, 3),
        records: r.records,
        recordsPerSec: round(r.records / secs, 1),
        checked: r.checked,
        backfilled: r.done,
        http429: stats.http429,
        peakPerSecond: op?.peakPerSecond ?? 0,
        rssPeakMiB: rss.stop(),
      } satisfies Figures;
    },
  );
  log(`  ${JSON.stringify(row)}`);
  table("Ledger (a): backfill (target ratio >= 0.9, 0 x HTTP 429)", [row]);
  results.ledgerBackfill = row;
}

/** The calls a sub-account's deposits need, as the sync walks them: a page per 100 records, at least one a window. */
function callsOf(times: number[], now: number, whole: boolean): number {
  const pages = (lo: number, hi: number) => {
    const n = times.filter((t) => t >= lo && t < hi).length;
    return { n, calls: Math.max(1, Math.ceil(n / 100)) };
  };
  let calls = pages(now - WINDOW_MS, now + 1).calls;
  // The backfill's windows back from there, until two in a row are empty (server/ledger/deposits/sync.ts).
  for (let before = now - WINDOW_MS, empties = 0; whole && empties < 2; before -= WINDOW_MS) {
    const w = pages(before - WINDOW_MS, before);
    calls += w.calls;
    empties = w.n === 0 ? empties + 1 : 0;
  }
  return calls;
}

/**
 * (e) Time until the last three months are complete for every sub-account (each one's newest window walked,
 * as its coverage says), and with `--ledger-parts history` then until every history is (each one's backfill
 * done), each against the physical bound: the calls those windows need (callsOf) ÷ E1's whole rate (staff
 * idle: the sync may use it beyond its share). Stops at `seconds` × 10.
 */
async function recentWindows(history: boolean): Promise<void> {
  log(
    `\nLedger (e): the last three months${history ? ", then every history," : ""} of ` +
      `${ledgerFlags.subs.toLocaleString("en-US")} sub-accounts complete`,
  );
  const rows = await withSync(
    ledgerFlags.subs,
    {},
    async () => undefined,
    async (b, sim, uids) => {
      const now = Date.now();
      const times = uids.map((u) => sim.state.depositsOf(u).map((d) => Number(d.cTime)));
      const needed = {
        recent: times.reduce((n, t) => n + callsOf(t, now, false), 0),
        history: times.reduce((n, t) => n + callsOf(t, now, true), 0),
      };
      sim.resetStats();
      const t0 = performance.now();
      const limitMs = ledgerFlags.seconds * 10_000;
      const out: Figures[] = [];
      for (const part of history ? (["recent", "history"] as const) : (["recent"] as const)) {
        let complete = 0;
        let said = 0;
        while (performance.now() - t0 < limitMs) {
          const { rows } = await b.db.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM ledger_sync WHERE job = $1 AND ${
              part === "recent" ? "covered_to IS NOT NULL" : "backfill_done"
            }`,
            [DEPOSITS_JOB],
          );
          complete = rows[0]!.n;
          if (complete >= uids.length) break;
          // Progress every 30 s: where the time goes (a tail of a few deep histories shows here).
          const at = (performance.now() - t0) / 1000;
          if (at - said >= 30) {
            said = at;
            const made = sim.stats().operations["deposits.list"]?.accepted ?? 0;
            log(`    ${part} ${Math.round(at)} s: ${complete} of ${uids.length} complete, ${made} calls made`);
          }
          await sleep(500);
        }
        const secs = (performance.now() - t0) / 1000;
        const stats = sim.stats();
        const boundSecs = needed[part] / e1Rate;
        out.push({
          part,
          engine: b.engine,
          subaccounts: uids.length,
          complete,
          seconds: round(secs, 1),
          callsNeeded: needed[part],
          boundSeconds: round(boundSecs, 1),
          ratio: complete >= uids.length ? round(boundSecs / secs, 3) : NaN,
          callsMade: stats.operations["deposits.list"]?.accepted ?? 0,
          http429: stats.http429,
        } satisfies Figures);
        log(`  ${JSON.stringify(out.at(-1))}`);
      }
      return out;
    },
  );
  table("Ledger (e): last three months, and every history, complete for every sub-account (target ratio >= 0.9)", rows);
  results.ledgerRecentWindows = { runs: rows };
}

/** (b) Live deposits: creation → first seen in the ledger, after the history is in (steady state). */
async function freshness(): Promise<void> {
  const perSecond = sharePerSecond("deposits.list", share);
  const boundS = ledgerFlags.freshSubs / perSecond;
  log(
    `\nLedger (b): freshness, ${ledgerFlags.freshSubs} sub-accounts, live deposits 1/s, ` +
      `${ledgerFlags.freshSeconds} s (bound ${round(boundS, 1)} s)`,
  );
  const started = Date.now();
  const active = new Set<string>();
  const rows = await withSync(
    ledgerFlags.freshSubs,
    { depositRate: 1, depositSettleMs: 60_000 },
    async (b, sim, uids) => {
      // The history is already in: each sub-account's sync state says so, its next check spread over its
      // kind's interval as in a running system (every one due at once would measure a cold start instead).
      const newest = uids.map((u) => sim.state.depositsOf(u)[0]?.cTime ?? null);
      uids.forEach((u, i) => newest[i] !== null && started - Number(newest[i]) < 7 * DAY && active.add(u));
      const iv = checkIntervals({
        perSecond,
        registry: uids.length,
        active: active.size,
        activeSeconds: env.ledger.activeSeconds,
        activeShare: env.ledger.activeShare,
      });
      await b.db.query(
        `INSERT INTO ledger_sync (job, sub_uid, backfill_done, backfill_before, empty_windows, newest_ctime,
           verified_at, next_check_at)
         SELECT $1, u, true, $2, 2, n, now(), now() + make_interval(secs => random() * s)
           FROM unnest($3::text[], $4::bigint[], $5::float8[]) AS t(u, n, s)`,
        [
          DEPOSITS_JOB,
          started - 400 * DAY,
          uids,
          newest.map((n) => (n === null ? started - 400 * DAY : Number(n))),
          uids.map((u) => (active.has(u) ? iv.activeMs : iv.dormantMs) / 1000),
        ],
      );
    },
    async (b, sim, uids) => {
      await sleep(ledgerFlags.freshSeconds * 1000);
      const end = Date.now();
      // Deposits created early enough that a check within the bound could see them (later ones are censored).
      const cutoff = end - boundS * 1000 - 10_000;
      const live = uids.flatMap((u) =>
        sim.state
          .depositsOf(u)
          .filter((d) => d.cTime >= started && d.cTime <= cutoff)
          .map((d) => ({ id: d.orderId, uid: u, cTime: d.cTime })),
      );
      const { rows: seen } = await b.db.query<{ order_id: string; first: string }>(
        `SELECT order_id,
           (extract(epoch FROM first_seen_at) * 1000)::bigint::text AS first FROM ledger_deposits
           WHERE order_id = ANY($1::text[])`,
        [live.map((l) => l.id)],
      );
      const firstSeen = new Map(seen.map((s) => [s.order_id, Number(s.first)]));
      const out: Figures[] = [];
      // What the scheduler promises each kind (engine.ts, checkIntervals), beside the physical bound.
      const counts = await scheduleCounts(b.db, Date.now());
      const promised = checkIntervals({
        perSecond,
        ...counts,
        activeSeconds: env.ledger.activeSeconds,
        activeShare: env.ledger.activeShare,
      });
      for (const kind of ["active", "dormant"] as const) {
        const mine = live.filter((l) => active.has(l.uid) === (kind === "active"));
        // An unseen deposit counts with the time it has waited so far (a lower bound).
        const delays = mine.map((l) => ((firstSeen.get(l.id) ?? end) - l.cTime) / 1000).sort((a, z) => a - z);
        out.push({
          kind,
          subaccounts: uids.filter((u) => active.has(u) === (kind === "active")).length,
          deposits: mine.length,
          unseen: mine.filter((l) => !firstSeen.has(l.id)).length,
          p50s: round(pct(delays, 50), 1),
          p99s: round(pct(delays, 99), 1),
          maxS: round(delays.at(-1) ?? NaN, 1),
          boundS: round(boundS, 1),
          promisedS: round((kind === "active" ? promised.activeMs : promised.dormantMs) / 1000, 1),
          activeShare: env.ledger.activeShare,
          callsPerCheck: round(kind === "active" ? counts.cost.active : counts.cost.dormant, 2),
          http429: sim.stats().http429,
          engine: b.engine,
        });
      }
      return out;
    },
  );
  for (const r of rows) log(`  ${JSON.stringify(r)}`);
  table("Ledger (b): freshness, creation on the simulator -> first seen in the ledger", rows);
  results.ledgerFreshness = { runs: rows };
}

export async function ledgerBench(): Promise<void> {
  if (ledgerFlags.parts.has("backfill")) await backfill();
  if (ledgerFlags.parts.has("recent") || ledgerFlags.parts.has("history"))
    await recentWindows(ledgerFlags.parts.has("history"));
  if (ledgerFlags.parts.has("freshness")) await freshness();
  if (ledgerFlags.parts.has("checknow")) await checkNow();
  if (ledgerFlags.parts.has("exportsync")) await exportWhileSyncing();
  if (ledgerFlags.parts.has("exportsync-http")) await exportSyncOverHttp();
  if (ledgerFlags.parts.has("queries") || ledgerFlags.parts.has("export")) await ledgerQueriesAndExport();
}
