// Monitoring benchmarks, `npm run bench -- --only monitoring` (flags shared with the ledger's:
// --ledger-pg <url>, --ledger-engines postgres,pglite, --ledger-subs 10000, --ledger-rows 1000000). The ledger is
// generated in SQL (generate_series: random deposits, then the patterns of ./monitoring-sql.ts), never through the
// platform. On each engine:
// (a) a full evaluation of every preset (lib/api/monitoring/presets.ts) over the whole ledger, each its one
//     compiled query, beside the same rule as an analyst's plain SQL; the two must find the same alerts
//     (target: seconds, at most 30 s each on PostgreSQL for 1,000,000 deposits);
// (b) incremental evaluation of one sync batch (every deposit preset, one sub-account, its last day): p50/p95;
// (c) a deposit's arrival in the ledger (stored as the sync stores a page) to its alert read back by the /alerts
//     query, through the sync batch's own job function: p50/p95 (target p95 <= 5 s);
// (d) the /alerts query (filters and exact count) with 100,000 alerts: p50/p95 (target p95 <= 100 ms);
// (e) a backtest of each preset over the whole ledger (target <= 30 s).
import { depositRecordSchema } from "@/lib/platform/catalog/deposits";
import { PRESET_RULES } from "@/lib/api/monitoring/presets";
import type { Db } from "@/server/db";
import { storeDeposits } from "@/server/ledger/deposits/sync";
import { listAlerts } from "@/server/monitoring/alert";
import { backtestSpec } from "@/server/monitoring/backtest";
import { evaluateScope, evaluateVersion, type EvaluableVersion } from "@/server/monitoring/evaluate";
import { evaluateBatch } from "@/server/monitoring/jobs";
import { activeVersion } from "@/server/monitoring/testing";
import { benchDb, generateDeposits, seedSubaccounts, subUidOf } from "./ledger-store";
import { ANALYST_SQL, generatePatterns } from "./monitoring-sql";
import { ledgerFlags, log, results, round, table, type Figures } from "./support";

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
const since = (t0: number) => performance.now() - t0;
const keysOf = (rows: { sub_uid: string; k: string }[]) => [...new Set(rows.map((r) => `${r.sub_uid}|${r.k}`))].sort();

/** (a): the platform's evaluation and the analyst's query, timed, and the same alerts asserted. */
async function fullEvaluation(db: Db, engine: string, versions: EvaluableVersion[]): Promise<Figures[]> {
  const out: Figures[] = [];
  for (const v of versions) {
    const t0 = performance.now();
    const raised = (await evaluateVersion(db, v, { subUid: null, since: null })).length;
    const platformS = since(t0) / 1000;
    const t1 = performance.now();
    const analyst = keysOf((await db.query<{ sub_uid: string; k: string }>(ANALYST_SQL[v.spec.kind])).rows);
    const analystS = since(t1) / 1000;
    const mine = keysOf(
      (
        await db.query<{ sub_uid: string; k: string }>(
          "SELECT sub_uid, occurrence AS k FROM monitoring_alerts WHERE rule_version_id = $1",
          [v.id],
        )
      ).rows,
    );
    const same = mine.length === analyst.length && mine.every((k, i) => k === analyst[i]);
    if (!same) {
      const only = (a: string[], b: string[]) =>
        a
          .filter((k) => !b.includes(k))
          .slice(0, 10)
          .join(", ") || "none";
      throw new Error(
        `${v.spec.kind}: ${mine.length} alerts, the analyst's query ${analyst.length}; ` +
          `the platform's alone: ${only(mine, analyst)}; the analyst's alone: ${only(analyst, mine)}`,
      );
    }
    out.push({ engine, kind: v.spec.kind, platformS: round(platformS), analystS: round(analystS), raised, same });
    log(`  ${JSON.stringify(out.at(-1))}`);
  }
  return out;
}

/** (c): a 2,000,000 USDT deposit stored as the sync stores it, the batch job, then the /alerts query finds it. */
async function arrivalToAlert(db: Db, subs: number, now: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < 30; i++) {
    const subUid = subUidOf((i * 4099 + 11) % subs);
    await evaluateBatch(db, subUid); // its watermark as the sync keeps it, so only the arrival is new
    const orderId = String(9_000_000_000_000_000 + i);
    const record = depositRecordSchema.parse({
      ...{ orderId, txId: `0x${orderId}`, coin: "USDT", type: "deposit", dest: "on_chain", amount: "2000000" },
      ...{ status: "success", fromAddress: `Tarrive${i}`, toAddress: "Tto", fee: "0", chain: "TRC20", confirm: "12" },
      ...{ tag: "", userId: subUid, cTime: String(now + i), uTime: String(now + i) },
    });
    const t0 = performance.now();
    await storeDeposits(db, subUid, [record]);
    await evaluateBatch(db, subUid);
    const page = await listAlerts(db, { subUid });
    if (!page.items.some((a) => a.occurrence === `d:${orderId}`)) throw new Error(`no alert for deposit ${orderId}`);
    times.push(since(t0));
  }
  return times;
}

/** Alerts of one filler version up to `target` in all, spread over a year, as many sub-accounts as there are. */
async function fillAlerts(db: Db, target: number, subs: number): Promise<void> {
  const v = await activeVersion(db, PRESET_RULES[0]!.spec, { name: "bench filler" });
  await db.query(
    `INSERT INTO monitoring_alerts (rule_version_id, rule_id, sub_uid, occurrence, window_start, window_end,
       severity, holds, value, records, status, cleared_by, clear_reason, raised_at)
     SELECT $1, $2, (8000000000 + g % $4)::text, 'f:' || g, 0, 0, (ARRAY['low','medium','high'])[1 + g % 3],
            g % 7 = 0, '1', '[]', (ARRAY['open','open','cleared','closed'])[1 + g % 4],
            CASE WHEN g % 4 = 2 THEN 'bench@brokerdesk' END, CASE WHEN g % 4 = 2 THEN 'bench' END,
            now() - (g * 317 % 31536000) * interval '1 second'
       FROM generate_series(1, greatest(0, $3 - (SELECT count(*) FROM monitoring_alerts))) g`,
    [v.id, v.ruleId, target, subs],
  );
  await db.query("VACUUM ANALYZE monitoring_alerts");
}

export async function monitoringBench(): Promise<void> {
  const { subs, rows } = ledgerFlags;
  const full: Figures[] = [];
  const fast: Figures[] = [];
  const backtests: Figures[] = [];
  const byView: Figures[] = [];
  for (const engine of ledgerFlags.engines as ("postgres" | "pglite")[]) {
    if (engine === "postgres" && !ledgerFlags.pg) continue;
    const b = await benchDb(engine, ledgerFlags.pg);
    try {
      const now = Date.now();
      let t0 = performance.now();
      await seedSubaccounts(b.db, subs);
      await generateDeposits(b.db, rows, subs, now);
      await generatePatterns(b.db, subs, now);
      // The generated ledger is every sub-account's whole history, up to now: its coverage says so.
      await b.db.query(
        `INSERT INTO ledger_sync (job, sub_uid, covered_from, covered_to, backfill_done)
         SELECT 'deposits', sub_uid, 0, $1, true FROM subaccounts
         ON CONFLICT (job, sub_uid) DO UPDATE SET covered_from = 0, covered_to = $1, backfill_done = true`,
        [now],
      );
      const { rows: n } = await b.db.query<{ d: string; w: string }>(
        `SELECT (SELECT count(*) FROM ledger_deposits)::text AS d,
           (SELECT count(*) FROM withdrawal_requests)::text AS w`,
      );
      log(`  ${engine}: ${n[0]!.d} deposits, ${n[0]!.w} withdrawal requests generated in ${round(since(t0) / 1000)} s`);
      const versions: EvaluableVersion[] = [];
      for (const p of PRESET_RULES) versions.push(await activeVersion(b.db, p.spec, { name: p.name }));
      full.push(...(await fullEvaluation(b.db, engine, versions)));
      t0 = performance.now();
      for (const v of versions) {
        const k0 = performance.now();
        const r = await backtestSpec(b.db, v.spec);
        backtests.push({ engine, kind: v.spec.kind, seconds: round(since(k0) / 1000), wouldRaise: r.total });
      }
      backtests.push({ engine, kind: "all", seconds: round(since(t0) / 1000), wouldRaise: "" });

      const deposits = versions.filter((v) => !["pass_through", "new_destination", "aggregate"].includes(v.spec.kind));
      const batch: number[] = [];
      for (let i = 0; i < 50; i++) {
        const scope = { subUid: subUidOf((i * 7919) % subs), since: now - 86_400_000 };
        const k0 = performance.now();
        for (const v of deposits) await evaluateVersion(b.db, v, scope);
        await evaluateScope(b.db, scope, undefined, []);
        batch.push(since(k0));
      }
      const arrival = await arrivalToAlert(b.db, subs, now);
      await fillAlerts(b.db, 100_000, subs);
      const reads: number[] = [];
      const views = {
        status: () => ({ severity: "medium" as const, status: "open" as const }),
        sub: (i: number) => ({ subUid: subUidOf(i) }),
        rule: (i: number) => ({ ruleId: versions[i % versions.length]!.ruleId }),
        all: () => ({}),
      };
      for (const [view, filters] of Object.entries(views)) {
        const mine: number[] = [];
        for (let i = 0; i < 25; i++) {
          const k0 = performance.now();
          await listAlerts(b.db, filters(i));
          mine.push(since(k0));
        }
        reads.push(...mine);
        byView.push({ engine, view, p50ms: round(pct(mine, 0.5)), p95ms: round(pct(mine, 0.95)) });
      }
      fast.push({
        engine,
        alerts: (await listAlerts(b.db, {})).total,
        batchP50ms: round(pct(batch, 0.5)),
        batchP95ms: round(pct(batch, 0.95)),
        arrivalP50ms: round(pct(arrival, 0.5)),
        arrivalP95ms: round(pct(arrival, 0.95)),
        alertsP50ms: round(pct(reads, 0.5)),
        alertsP95ms: round(pct(reads, 0.95)),
      });
      log(`  ${JSON.stringify(fast.at(-1))}`);
    } finally {
      await b.dispose();
    }
  }
  table(`Monitoring (a): every preset over ${rows} deposits of ${subs} sub-accounts, and as plain SQL`, full);
  table("Monitoring (e): backtest of each preset over the whole ledger", backtests);
  table("Monitoring (b, c, d): one sync batch, a deposit's arrival to its alert, /alerts with 100,000 alerts", fast);
  table("Monitoring (d): the /alerts query by its filters (status and severity, sub-account, rule, none)", byView);
  results.monitoring = { full, backtests, fast, byView };
}
