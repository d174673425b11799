// Monitoring benchmarks, `npm run bench -- --only monitoring` (flags shared with the ledger's:
// --ledger-pg <url>, --ledger-engines postgres,pglite, --ledger-subs 10000, --ledger-rows 1000000):
// (a) a full evaluation of every preset over the generated ledger, each its one compiled query
//     (target: seconds; at most 30 s each on PostgreSQL for 1,000,000 deposits);
// (b) incremental evaluation of one sync batch (every deposit preset, one sub-account, its last day):
//     p50/p95 over 50 batches (target p95 <= 200 ms);
// (c) the /alerts query (filters and exact count) over what (a) raised: p50/p95 over 50 reads (target p95 <= 100 ms).
import type { RuleSpec } from "@/lib/api/monitoring/rule-kinds";
import { listAlerts } from "@/server/monitoring/alert";
import { evaluateScope, evaluateVersion } from "@/server/monitoring/evaluate";
import { activeVersion } from "@/server/monitoring/testing";
import { benchDb, generateDeposits, seedSubaccounts, subUidOf } from "./ledger-store";
import { ledgerFlags, log, results, round, table, type Figures } from "./support";

const PRESETS: RuleSpec[] = [
  { kind: "large_deposit", params: { unit: "coin", coin: "USDT", minAmount: "100000" } },
  { kind: "first_deposit", params: { unit: "coin", coin: "USDT", minAmount: "50000" } },
  { kind: "structuring", params: { coin: "USDT", threshold: "10000", marginPct: 10, minCount: 3, windowHours: 24 } },
  { kind: "velocity", params: { source: "deposits", measure: "count", limit: "5", windowHours: 24 } },
  { kind: "dormant_active", params: { dormantDays: 90, unit: "coin", coin: "USDT", minAmount: "10000" } },
  { kind: "shared_address", params: { side: "deposit_source", minSubAccounts: 3, windowHours: 720 } },
  { kind: "pass_through", params: { pct: 90, windowHours: 48 } },
  { kind: "new_destination", params: { lookbackDays: 365 } },
  {
    kind: "aggregate",
    params: { source: "deposits", measure: "sum", coin: "USDT", op: ">=", threshold: "250000", windowHours: 168 },
  },
];

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;

export async function monitoringBench(): Promise<void> {
  const { subs, rows } = ledgerFlags;
  const full: Figures[] = [];
  const fast: Figures[] = [];
  const byKind: Figures[] = [];
  for (const engine of ledgerFlags.engines as ("postgres" | "pglite")[]) {
    if (engine === "postgres" && !ledgerFlags.pg) continue;
    const b = await benchDb(engine, ledgerFlags.pg);
    try {
      const now = Date.now();
      await seedSubaccounts(b.db, subs);
      await generateDeposits(b.db, rows, subs, now);
      // A withdrawal request for one deposit in a hundred, some to addresses several sub-accounts share.
      await b.db.query(
        `INSERT INTO withdrawal_requests (client_oid, sub_uid, coin, dest, address,
          amount, reason, requested_by, requested_at)
         SELECT 'bench' || d.order_id, d.sub_uid, d.coin, 'on_chain',
           'T' || (hashint8(d.ctime) & 1023), trim_scale(d.amount)::text,
                'bench', 'bench@brokerdesk', timestamptz 'epoch' + (d.ctime + 3600000) * interval '1 millisecond'
           FROM ledger_deposits d WHERE d.amount > 0 AND right(d.order_id, 2) = '00'`,
      );
      await b.db.query("VACUUM ANALYZE withdrawal_requests");
      const versions = [];
      for (const spec of PRESETS) versions.push(await activeVersion(b.db, spec));
      for (const v of versions) {
        const t0 = performance.now();
        const raised = (await evaluateVersion(b.db, v, { subUid: null, since: null })).length;
        full.push({ engine, rows, kind: v.spec.kind, seconds: round((performance.now() - t0) / 1000), raised });
        log(`  ${JSON.stringify(full.at(-1))}`);
      }
      const deposits = versions.filter((v) => !["pass_through", "new_destination"].includes(v.spec.kind));
      const batch: number[] = [];
      const perKind = new Map<string, number[]>();
      for (let i = 0; i < 50; i++) {
        const scope = { subUid: subUidOf((i * 7919) % subs), since: now - 86_400_000 };
        const t0 = performance.now();
        for (const v of deposits) {
          const k0 = performance.now();
          await evaluateVersion(b.db, v, scope);
          perKind.set(v.spec.kind, [...(perKind.get(v.spec.kind) ?? []), performance.now() - k0]);
        }
        await evaluateScope(b.db, scope, undefined, []);
        batch.push(performance.now() - t0);
      }
      for (const [kind, ms] of perKind)
        byKind.push({ engine, kind, batchP50ms: round(pct(ms, 0.5)), batchP95ms: round(pct(ms, 0.95)) });
      const reads: number[] = [];
      for (let i = 0; i < 50; i++) {
        const t0 = performance.now();
        await listAlerts(b.db, i % 2 ? { severity: "medium", status: "open" } : { subUid: subUidOf(i) });
        reads.push(performance.now() - t0);
      }
      const total = (await listAlerts(b.db, {})).total;
      fast.push({
        engine,
        alerts: total,
        batchP50ms: round(pct(batch, 0.5)),
        batchP95ms: round(pct(batch, 0.95)),
        alertsP50ms: round(pct(reads, 0.5)),
        alertsP95ms: round(pct(reads, 0.95)),
      });
    } finally {
      await b.dispose();
    }
  }
  table(`Monitoring (a): full evaluation of each preset over ${rows} deposits of ${subs} sub-accounts`, full);
  table("Monitoring (b, c): one sync batch (every deposit preset), and the /alerts query", fast);
  table("Monitoring (b): one sync batch, per preset", byKind);
  results.monitoring = { full, fast, byKind };
}
