import "server-only";
// A case's alerts are read a keyset page at a time (its page asks /alerts with caseId): the pages walk every
// alert of that case once, newest first, each with the exact count of the case's alerts, and none of another
// case; the case itself says its count and whether it holds, without reading them all.
import { describe, expect, it } from "vitest";
import { databaseTestBed } from "@/server/db/testing";
import { listAlerts } from "./alert";
import { getCase } from "./case";
import { evaluateScope } from "./evaluate";
import { activeVersion, clearMonitoring, writeLedger, type TestDeposit } from "./testing";

const T = Date.UTC(2026, 2, 10, 12);
const dep = (i: number, subUid: string): TestDeposit => ({
  orderId: `p${String(i).padStart(3, "0")}`,
  subUid,
  coin: "BTC",
  amount: "2",
  status: "success",
  fromAddress: "",
  ctime: T + i * 60_000,
});

describe("[monitoring][case-alerts]", () => {
  const bed = databaseTestBed();

  it("[monitoring][case-alerts] a case's alerts page by keyset with the exact count, only its own", async () => {
    await clearMonitoring(bed.db);
    await writeLedger(bed.db, {
      deposits: [...[1, 2, 3, 4, 5].map((i) => dep(i, "1")), dep(6, "2")],
      withdrawals: [],
      prices: [],
    });
    const v = await activeVersion(
      bed.db,
      { kind: "large_deposit", params: { unit: "coin", coin: "BTC", minAmount: "1" } },
      { holds: true },
    );
    await evaluateScope(bed.db, { subUid: null, since: null }, undefined, [v]);
    const { rows } = await bed.db.query<{ id: string; sub_uid: string }>(
      `SELECT id::text, sub_uid FROM monitoring_cases ORDER BY sub_uid`,
    );
    const caseId = rows.find((r) => r.sub_uid === "1")!.id;

    const c = await getCase(bed.db, caseId);
    expect(c).toMatchObject({ alertCount: 5, holding: true });
    expect("alerts" in c).toBe(false);

    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 5; page++) {
      const p = await listAlerts(bed.db, { caseId, limit: 2, cursor });
      expect(p.total).toBe(5);
      expect(p.items.every((a) => a.caseId === caseId && a.subUid === "1")).toBe(true);
      seen.push(...p.items.map((a) => a.occurrence));
      if (!p.nextCursor) break;
      cursor = p.nextCursor;
    }
    expect(seen).toHaveLength(5);
    expect(new Set(seen).size).toBe(5);
    const all = await listAlerts(bed.db, { caseId, limit: 50 });
    expect(all.items.map((a) => a.occurrence)).toEqual(seen);
  });
});
