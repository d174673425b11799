// The alert export holds exactly the page's alerts (listAlerts, every page) for every filter the page has, in
// the page's order, and its audit intent records each filter it applied: a filter the export dropped (caseId
// once was: 18 rows from 15 cases for a one-alert case, with empty filters in its entry) makes the two differ.
// The data is made so that each filter alone selects a part of the alerts, neither none nor all.
import { describe, expect, it } from "vitest";
import type { AlertFilters } from "@/lib/api/monitoring";
import { databaseTestBed } from "@/server/db/testing";
import { staffSession } from "@/server/testing";
import { alertsForExport, listAlerts } from "./alert";
import { evaluateHistory } from "./jobs";
import { activeVersion, writeLedger } from "./testing";

const alice = staffSession("compliance", "alice");
const T = Date.UTC(2026, 2, 10, 12);
const H = 3_600_000;

async function listed(db: Parameters<typeof listAlerts>[0], f: AlertFilters): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await listAlerts(db, { ...f, cursor, limit: 2 });
    ids.push(...page.items.map((a) => a.id));
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return ids;
}

describe("[monitoring][export] the alert export is the page", () => {
  const bed = databaseTestBed();

  it("[monitoring][export] for every filter, the export's rows are the page's rows, and its intent records the filters", async () => {
    const { db } = bed;
    const big = await activeVersion(
      db,
      { kind: "large_deposit", params: { unit: "coin", coin: "BTC", minAmount: "10" } },
      { severity: "high" },
    );
    const any = await activeVersion(
      db,
      { kind: "large_deposit", params: { unit: "coin", coin: "BTC", minAmount: "1" } },
      { severity: "low" },
    );
    // Sub-accounts 41..45: 41 and 42 with two large deposits each, the others one small one.
    const deposits = [
      ["41", "20", 0],
      ["41", "30", 1],
      ["42", "25", 2],
      ["42", "40", 3],
      ["43", "5", 4],
      ["44", "6", 5],
      ["45", "7", 6],
    ] as const;
    await writeLedger(db, {
      deposits: deposits.map(([subUid, amount, i]) => ({
        orderId: `o${i}`,
        subUid,
        coin: "BTC",
        amount,
        status: "success",
        fromAddress: "",
        ctime: T + i * H,
      })),
      withdrawals: [],
      prices: [],
    });
    await evaluateHistory(db, big.id);
    await evaluateHistory(db, any.id);
    const all = await listed(db, {});
    expect(all.length).toBe(11);
    // One alert cleared; sub-account 43's alert raised three days ago; sub-account 44's case long overdue.
    const one = (sql: string) => db.query<{ id: string }>(sql).then((r) => r.rows[0]!.id);
    await db.query(
      "UPDATE monitoring_alerts SET status = 'cleared', cleared_by = 'bob@test', clear_reason = 'reviewed' WHERE sub_uid = '42' AND value = '40' AND rule_id = $1",
      [big.ruleId],
    );
    await db.query("UPDATE monitoring_alerts SET raised_at = now() - interval '72 hours' WHERE sub_uid = '43'");
    await db.query(
      "UPDATE monitoring_cases SET opened_at = now() - interval '90 days' WHERE id = (SELECT case_id FROM monitoring_alerts WHERE sub_uid = '44')",
    );
    const case45 = await one("SELECT case_id::text AS id FROM monitoring_alerts WHERE sub_uid = '45'");
    const case41 = await one("SELECT case_id::text AS id FROM monitoring_alerts WHERE sub_uid = '41' LIMIT 1");

    const filterSets: AlertFilters[] = [
      { ruleId: big.ruleId },
      { subUid: "41" },
      { severity: "high" },
      { status: "cleared" },
      { status: "open" },
      { olderThanHours: 24 },
      { overdue: "true" },
      { caseId: case45 },
      { caseId: case41 },
      { caseId: case41, severity: "low" },
      { ruleId: any.ruleId, subUid: "42", status: "open" },
    ];
    for (const f of [{}, ...filterSets]) {
      const page = await listed(db, f);
      if (Object.keys(f).length) {
        // The filter narrows: dropping it would give more rows than the page.
        expect(page.length, JSON.stringify(f)).toBeGreaterThan(0);
        expect(page.length, JSON.stringify(f)).toBeLessThan(all.length);
      }
      const exported = await alertsForExport(db, { ...f, cursor: "ignored-by-an-export", limit: 1 }, alice);
      if (!("batches" in exported)) throw new Error("the alerts' export is read in batches");
      const ids: string[] = [];
      for await (const batch of exported.batches) ids.push(...batch.map((r) => String(r[1])));
      expect(ids, JSON.stringify(f)).toEqual(page);
      const intent = await db.query<{ params: Record<string, unknown> }>(
        "SELECT params FROM audit_log WHERE action = 'monitoring.alerts-export' AND outcome = 'intent' ORDER BY id DESC LIMIT 1",
      );
      expect(intent.rows[0]!.params, JSON.stringify(f)).toEqual(f);
    }
    expect(await listed(db, { caseId: case45 })).toHaveLength(1);
  });
});
