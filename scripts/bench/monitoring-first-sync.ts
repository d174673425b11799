// The first-sync check, `npm run bench -- --only monitoring-first-sync --ledger-pg <url> --ledger-subs 600`: a
// fresh database, the app's own sync of a simulator's sub-accounts (./ledger-sync-bed.ts, its rate limits on), and
// two rules made active before the sync starts, so before the backfill passes the newest window: "first deposit
// of at least 10,000 USDT" and "dormant 120 days, then at least 10,000 USDT". The monitoring jobs run as the app
// runs them (a batch after each sync run, the version's history evaluation from the sweep). Every 5 s it notes
// how many histories are complete and how many sub-accounts each rule cannot judge yet (server/monitoring/
// coverage.ts). Once every history is complete and every batch has run under it, each alert is compared with the
// reference over the complete ledger, an analyst's plain SQL (window functions, the parameters as literals): the
// false alerts (raised, not in the reference) and the missed ones (in the reference, not raised). Target: 0 and 0.
import type { RuleSpec } from "@/lib/api/monitoring/rule-kinds";
import { notEvaluable } from "@/server/monitoring/coverage";
import { activeVersion } from "@/server/monitoring/testing";
import type { EvaluableVersion } from "@/server/monitoring/evaluate";
import { withSync } from "./ledger-sync-bed";
import { PRICED, VALUE } from "./monitoring-sql";
import { DAY, ledgerFlags, log, results, round, sleep, table, type Figures } from "./support";

const RULES: { name: string; spec: RuleSpec; reference: string }[] = [
  {
    name: "first deposit of at least 10,000 USDT",
    spec: { kind: "first_deposit", params: { unit: "usdt", minAmount: "10000" } },
    reference: `SELECT sub_uid, 'd:' || order_id AS k FROM (
        SELECT DISTINCT ON (d.sub_uid) d.sub_uid, d.order_id, ${VALUE} AS v FROM ${PRICED}
         ORDER BY d.sub_uid, d.ctime, d.order_id COLLATE "C") f WHERE v >= 10000`,
  },
  {
    name: "dormant 120 days, then at least 10,000 USDT",
    spec: { kind: "dormant_active", params: { dormantDays: 120, unit: "usdt", minAmount: "10000" } },
    reference: `SELECT sub_uid, 'd:' || order_id AS k FROM (
        SELECT d.sub_uid, d.order_id, d.ctime, ${VALUE} AS v,
               lag(d.ctime) OVER (PARTITION BY d.sub_uid ORDER BY d.ctime, d.order_id COLLATE "C") AS prev
          FROM ${PRICED}) x WHERE prev <= ctime - ${120 * DAY} AND v >= 10000`,
  },
];

export async function monitoringFirstSyncBench(): Promise<void> {
  const subs = ledgerFlags.subs;
  log(`\nMonitoring, the first-sync check: ${subs.toLocaleString("en-US")} sub-accounts, rules active before the sync`);
  const versions: EvaluableVersion[] = [];
  const out = await withSync(
    subs,
    {},
    async (b) => {
      for (const r of RULES) versions.push(await activeVersion(b.db, r.spec, { name: r.name }));
    },
    async (b, _sim, uids) => {
      const t0 = performance.now();
      const limitMs = ledgerFlags.seconds * 30_000;
      const waiting: Figures[] = [];
      let said = -Infinity;
      let historiesAt: number | null = null;
      for (;;) {
        const at = (performance.now() - t0) / 1000;
        const { rows } = await b.db.query<{ complete: number; judged: number; raised: number }>(
          `SELECT (SELECT count(*)::int FROM ledger_sync WHERE job = 'deposits' AND covered_from = 0
                     AND covered_to IS NOT NULL) AS complete,
                  (SELECT count(*)::int FROM monitoring_watermarks WHERE covered_from = 0) AS judged,
                  (SELECT count(*)::int FROM monitoring_alerts) AS raised`,
        );
        const r = rows[0]!;
        const sample: Figures = {
          seconds: Math.round(at),
          historiesComplete: r.complete,
          evaluatedComplete: r.judged,
          alerts: r.raised,
        };
        for (const [i, v] of versions.entries())
          sample[`waiting ${RULES[i]!.spec.kind}`] = await notEvaluable(b.db, v.spec);
        if (historiesAt === null && r.complete >= uids.length) historiesAt = Math.round(at);
        if (at - said >= 30) {
          said = at;
          waiting.push(sample);
          log(`    ${JSON.stringify(sample)}`);
        }
        // Done once every history is complete and every sub-account's batch has run under it.
        if (r.complete >= uids.length && r.judged >= uids.length) {
          waiting.push(sample);
          break;
        }
        if (performance.now() - t0 > limitMs)
          throw new Error(`not complete in ${limitMs / 1000} s: ${JSON.stringify(sample)}`);
        await sleep(5_000);
      }
      const secs = (performance.now() - t0) / 1000;
      await sleep(3_000); // a batch queued by the last sync runs
      const compared: Figures[] = [];
      for (const [i, v] of versions.entries()) {
        const mine = new Set(
          (
            await b.db.query<{ k: string }>(
              `SELECT sub_uid || '|' || occurrence AS k FROM monitoring_alerts WHERE rule_version_id = $1`,
              [v.id],
            )
          ).rows.map((x) => x.k),
        );
        const reference = new Set(
          (await b.db.query<{ k: string }>(`SELECT sub_uid || '|' || k AS k FROM (${RULES[i]!.reference}) q`)).rows.map(
            (x) => x.k,
          ),
        );
        compared.push({
          rule: RULES[i]!.name,
          engine: b.engine,
          subaccounts: uids.length,
          raised: mine.size,
          reference: reference.size,
          falseAlerts: [...mine].filter((k) => !reference.has(k)).length,
          missed: [...reference].filter((k) => !mine.has(k)).length,
          everyHistoryCompleteS: historiesAt,
          everyOneEvaluatedS: round(secs, 1),
        });
        log(`  ${JSON.stringify(compared.at(-1))}`);
      }
      return { compared, waiting };
    },
  );
  table(
    "Monitoring, the first-sync check: alerts against the reference over the complete ledger (target 0 and 0)",
    out.compared,
  );
  table("Monitoring, the first-sync check: sub-accounts waiting for history over time", out.waiting);
  results.monitoringFirstSync = out;
}
