import "server-only";
// kill -9 mid-evaluation: a child process (the app reduced to monitoring's evaluation, crash-child.ts) evaluates
// rule versions over the whole history, or a sync batch per sub-account, and is killed with SIGKILL once one
// statement has raised alerts and the next is about to, its evaluation unfinished. What a new instance then
// runs (the sweep's versions still without a history run, the batches again from their watermarks) raises
// exactly what the reference computes: none lost, none twice, each in its sub-account's one open case. The ledger's records were first
// seen an hour before, so a watermark moved before its batch was evaluated would lose them for good.
// PGlite on a data folder always (its files must survive the kill too); PostgreSQL with TEST_DATABASE_URL.
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  crashDatabase,
  crashEngines,
  startChildInstance,
  stopChild,
  until,
  type ChildInstance,
} from "@/server/child-instance";
import { coverageNeedOf, type RuleSpec } from "@/lib/api/monitoring/rule-kinds";
import type { Db } from "@/server/db";
import type { MonitoringCrashConfig, MonitoringCrashProgress } from "./crash-child";
import type { EvaluableVersion } from "./evaluate";
import { evaluateBatch, evaluateHistory, historyDue } from "./jobs";
import { sourceOf } from "./kinds";
import { activeVersion, alertKeys, clearMonitoring, referenceKeys, writeLedger, type TestLedger } from "./testing";

const H = 3_600_000;
const T0 = Date.UTC(2026, 0, 1);
const SUBS = ["101", "102", "103", "104"];
let n = 0;
const dep = (subUid: string, coin: string, amount: string, h: number, fromAddress = "") => ({
  orderId: `c${String(++n).padStart(3, "0")}`,
  subUid,
  coin,
  amount,
  status: "success",
  fromAddress,
  ctime: T0 + h * H,
});
const LEDGER: TestLedger = {
  deposits: [
    dep("101", "BTC", "2", 0),
    dep("101", "BTC", "0.5", 1),
    dep("101", "USDT", "9.5", 2),
    dep("101", "USDT", "9.6", 3),
    dep("101", "USDT", "9.9", 4),
    dep("102", "BTC", "1", 5, "addrA"),
    dep("102", "ETH", "3", 30, "addrA"),
    dep("103", "USDT", "100", 0, "addrA"),
    dep("103", "USDT", "100", 240),
    dep("104", "USDT", "5", 0),
  ],
  withdrawals: [
    {
      id: "00000000-0000-4000-8000-000000000001",
      subUid: "101",
      coin: "BTC",
      amount: "2",
      address: "x",
      ms: T0 + 6 * H,
    },
    { id: "00000000-0000-4000-8000-000000000002", subUid: "103", coin: "USDT", amount: "90", address: "y", ms: T0 + H },
  ].map((w) => ({ ...w, state: "requested" as const })),
  prices: [],
};
const SPECS: RuleSpec[] = [
  { kind: "large_deposit", params: { unit: "coin", coin: "BTC", minAmount: "1" } },
  { kind: "velocity", params: { source: "deposits", measure: "count", limit: "1", windowHours: 24 } },
  { kind: "structuring", params: { coin: "USDT", threshold: "10", marginPct: 10, minCount: 3, windowHours: 24 } },
  { kind: "shared_address", params: { side: "deposit_source", minSubAccounts: 2, windowHours: 720 } },
  { kind: "dormant_active", params: { dormantDays: 5, unit: "coin", coin: "USDT", minAmount: "50" } },
  { kind: "pass_through", params: { pct: 50, windowHours: 48 } },
  { kind: "new_destination", params: { lookbackDays: 30 } },
  {
    kind: "aggregate",
    params: { source: "deposits", measure: "sum", coin: "USDT", op: ">=", threshold: "20", windowHours: 24 },
  },
];

/**
 * What every sub-account's batch raises: the rules that read its deposits (pass-through too) over its whole history
 * (no watermark yet, and its coverage new to monitoring).
 */
function batchReference(v: EvaluableVersion): string[] {
  if (sourceOf(v.spec) !== "deposits" && coverageNeedOf(v.spec).needs === "none") return [];
  const keys = SUBS.flatMap((s) => referenceKeys(LEDGER, v.spec, { subUid: s, since: null }));
  return [...new Set(keys)].sort();
}

const CHILD = path.join(process.cwd(), "server/monitoring/crash-child.ts");
type Instance = ChildInstance<MonitoringCrashProgress>;

async function count(db: Db, sql: string): Promise<number> {
  const { rows } = await db.query<{ n: string }>(sql);
  return Number(rows[0]!.n);
}

/** Every alert in a case, one open case per sub-account, and each version's alerts exactly as expected. */
async function expectExact(db: Db, versions: EvaluableVersion[], expected: (v: EvaluableVersion) => string[]) {
  for (const v of versions) expect(await alertKeys(db, v.id), v.spec.kind).toEqual(expected(v));
  expect(await count(db, `SELECT count(*) AS n FROM monitoring_alerts WHERE case_id IS NULL`)).toBe(0);
  expect(
    await count(
      db,
      `SELECT count(*) AS n FROM (SELECT sub_uid FROM monitoring_cases GROUP BY sub_uid HAVING count(*) > 1) x`,
    ),
  ).toBe(0);
}

describe.each(crashEngines(process.env.TEST_DATABASE_URL))(
  "[monitoring][crash] kill -9 mid-evaluation on $label",
  (engine) => {
    const { config, withDb } = crashDatabase(engine, "bd-mcrash-");

    /** Starts an instance on `work`, waits until it has stopped mid-evaluation, and kills it with SIGKILL. */
    async function killMidEvaluation(work: MonitoringCrashConfig["work"]): Promise<number> {
      const cfg: MonitoringCrashConfig = { db: config(), work, subUids: SUBS };
      const instance: Instance = await startChildInstance<MonitoringCrashProgress>(CHILD, cfg, 60_000);
      try {
        await until(
          "the instance raised alerts",
          60_000,
          () => Boolean(instance.last()?.stopped || instance.last()?.finished),
          instance.last,
        );
        expect(instance.last(), "stopped mid-evaluation, not finished").toMatchObject({ stopped: true });
        return instance.last()!.raised;
      } finally {
        await stopChild(instance.child, "SIGKILL");
      }
    }

    it("[monitoring][crash] a history run and a sync batch killed mid-evaluation resume without loss or duplicate", async () => {
      // Every rule fires on the ledger: a version lost at the kill is missed by the exact comparison.
      for (const spec of SPECS) expect(referenceKeys(LEDGER, spec).length, spec.kind).toBeGreaterThan(0);
      // 1. A history run of every version, killed as the second version's alerts are about to be raised.
      const versions = await withDb(async (db) => {
        await clearMonitoring(db);
        await writeLedger(db, LEDGER);
        const vs: EvaluableVersion[] = [];
        for (const spec of SPECS) vs.push(await activeVersion(db, spec));
        // Brokerdesk's own screening rules (always active) are not this test's: their history run, first by id,
        // raises nothing here (or something, when an earlier test left a list active), and the kill would fall
        // between them and the first version that raises: nothing raised at the kill (CI failed on it once).
        await db.query(
          `UPDATE monitoring_rule_versions SET history_evaluated_at = now() WHERE NOT (id::text = ANY($1::text[]))`,
          [vs.map((v) => v.id)],
        );
        return vs;
      });
      const raisedAtKill = await killMidEvaluation("history");
      const batchVersions = await withDb(async (db) => {
        const all = versions.flatMap((v) => referenceKeys(LEDGER, v.spec)).length;
        expect(await count(db, `SELECT count(*) AS n FROM monitoring_alerts`)).toBe(raisedAtKill);
        expect(raisedAtKill).toBeLessThan(all);
        expect(raisedAtKill).toBeGreaterThan(0);
        // 2. A new instance: the sweep's versions still without a history run, each run again.
        for (const id of await historyDue(db)) await evaluateHistory(db, id);
        await expectExact(db, versions, (v) => referenceKeys(LEDGER, v.spec));
        expect(await count(db, `SELECT count(*) AS n FROM monitoring_alerts`)).toBe(all);
        expect(await historyDue(db)).toEqual([]);

        // 3. Sync batches of every sub-account, killed as the first one's second rule is about to raise alerts.
        await clearMonitoring(db);
        await db.query(`DELETE FROM monitoring_watermarks`);
        await writeLedger(db, LEDGER);
        await db.query(`UPDATE ledger_deposits SET first_seen_at = now() - interval '1 hour'`);
        const vs: EvaluableVersion[] = [];
        for (const spec of SPECS) vs.push(await activeVersion(db, spec));
        await db.query(`UPDATE monitoring_rule_versions SET history_evaluated_at = now()`);
        return vs;
      });
      const batchRaisedAtKill = await killMidEvaluation("batches");
      await withDb(async (db) => {
        expect(await count(db, `SELECT count(*) AS n FROM monitoring_alerts`)).toBe(batchRaisedAtKill);
        // 4. A new instance: the killed batch retried, and every sub-account's batch from its watermark.
        for (const s of SUBS) await evaluateBatch(db, s);
        await expectExact(db, batchVersions, batchReference);
        expect(batchVersions.reduce((k, v) => k + batchReference(v).length, 0)).toBeGreaterThan(batchRaisedAtKill);
        // Run again, nothing more.
        for (const s of SUBS) expect(await evaluateBatch(db, s)).toBe(0);
      });
    }, 180_000);
  },
);
