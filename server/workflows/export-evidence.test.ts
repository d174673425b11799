// Every export is whole or refused, and none goes out whole without its seal (PGlite, and PostgreSQL with
// TEST_DATABASE_URL):
// - over its cap, each export (alerts, audit, withdrawals, deposits) is refused before a row is read, with
//   export_too_large naming the count, the cap and how to narrow it, and one audit entry saying so; narrowed
//   under the cap, the same export is whole;
// - a set that grows past the cap after it was counted fails the file (the body errors), never cuts it short;
// - a seal the database refuses to write (a trigger raising on the export's success row: a real fault of the
//   database, as a full disk or a lost connection would be) is no file: a small export is an error answer,
//   a large one's body errors before its end, and the audit log says the export failed.
import { afterEach, describe, expect, it } from "vitest";
import type { AuditFiltersValues } from "@/lib/api/audit";
import { ALERT_CSV_COLUMNS } from "@/lib/api/monitoring";
import { WITHDRAWAL_CSV_COLUMNS } from "@/lib/api/withdrawals";
import { appendAudit, sealOf } from "@/server/audit";
import type { Db } from "@/server/db";
import { databaseTestBed, testEngines } from "@/server/db/testing";
import { csvBody, csvResponse } from "@/server/http/csv";
import { depositsForExport } from "@/server/ledger/deposits/export";
import { alertsForExport } from "@/server/monitoring/alert";
import { evaluateHistory } from "@/server/monitoring/jobs";
import { activeVersion, writeLedger } from "@/server/monitoring/testing";
import { domainRefusal, staffSession } from "@/server/testing";
import { auditForExport } from "./audit-queries";
import { withdrawalsForExport } from "./withdrawal-ledger";

const alice = staffSession("compliance", "alice");
const ctx = { requestId: "req-evidence", ip: "127.0.0.1" };
const WITHDRAWALS = 6_000;

/** Withdrawal requests in one statement: `n` of sub-account 21, then 2 of sub-account 22. */
async function withdrawals(db: Db, n: number, from = 0) {
  await db.query(
    `INSERT INTO withdrawal_requests (id, client_oid, sub_uid, coin, dest, address, amount, reason, requested_by,
       requested_at, state)
     SELECT id, 't' || replace(id::text, '-', ''), CASE WHEN g > $2 THEN '22' ELSE '21' END, 'USDT', 'on_chain',
       'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE', (g % 900 + 1)::text || '.25', 'payout to the client, as agreed', 'broker@test',
       timestamptz '2026-03-01' + g * interval '1 minute', 'requested'
     FROM (SELECT g, gen_random_uuid() AS id FROM generate_series($1::int + 1, $1::int + $2::int + 2) g) s`,
    [from, n],
  );
}

async function auditRows(db: Db, action: string) {
  const { rows } = await db.query<{ id: string; outcome: string; params: unknown; detail: Record<string, unknown> }>(
    "SELECT id::text, outcome, params, detail FROM audit_log a WHERE action = $1 ORDER BY a.id",
    [action],
  );
  return rows;
}

/** The database refuses to write the success row (the seal) of `action`'s exports, until `heal`. */
async function refuseSeals(db: Db, action: string) {
  await db.query(`CREATE OR REPLACE FUNCTION test_refuse_seal() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.action = '${action}' AND NEW.outcome = 'success' THEN
        RAISE EXCEPTION 'could not extend file: No space left on device';
      END IF;
      RETURN NEW;
    END $$`);
  await db.query(
    "CREATE TRIGGER test_refuse_seal BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION test_refuse_seal()",
  );
}
const heal = (db: Db) => db.query("DROP TRIGGER IF EXISTS test_refuse_seal ON audit_log");

describe.each(testEngines(process.env.TEST_DATABASE_URL))("[export][evidence] on $engine", (engine) => {
  const bed = databaseTestBed(engine, {
    prepare: async (db) => {
      await withdrawals(db, WITHDRAWALS);
      const v = await activeVersion(db, {
        kind: "large_deposit",
        params: { unit: "coin", coin: "BTC", minAmount: "10" },
      });
      const T = Date.UTC(2026, 2, 10, 12);
      await writeLedger(db, {
        deposits: ["31", "32", "33"].map((sub, i) => ({
          orderId: `d${i}`,
          subUid: sub,
          coin: "BTC",
          amount: "20",
          status: "success",
          fromAddress: "",
          ctime: T + i * 60_000,
        })),
        withdrawals: [],
        prices: [],
      });
      await evaluateHistory(db, v.id);
      for (let i = 0; i < 5; i++)
        await appendAudit(db, { actor: "x@test", action: "users.create", outcome: "intent", target: `t${i}` });
      await appendAudit(db, { actor: "only@test", action: "users.create", outcome: "intent", target: "t" });
    },
  });
  afterEach(async () => {
    await heal(bed.db);
  });

  it("[export][cap] each export over its cap is refused before a row is read, with the count, the cap and how to narrow it; one audit entry says so", async () => {
    const { db } = bed;
    const cases = [
      {
        action: "export.run",
        run: (maxRows: number, f = {}) => withdrawalsForExport(db, f, alice, ctx, { maxRows }),
        narrowed: { subUid: "22" },
      },
      {
        action: "monitoring.alerts-export",
        run: (maxRows: number, f = {}) => alertsForExport(db, f, alice, ctx, { maxRows }),
        narrowed: { subUid: "31" },
      },
      {
        action: "audit.export",
        run: (maxRows: number, f = {}) => auditForExport(db, f as AuditFiltersValues, alice, ctx, { maxRows }),
        narrowed: { actor: "only@test" },
      },
      {
        action: "ledger.deposits-export",
        run: (maxRows: number, f = {}) => depositsForExport(db, f, alice, ctx, { maxRows }),
        narrowed: { subUid: "32" },
      },
    ];
    for (const c of cases) {
      const before = (await auditRows(db, c.action)).length;
      const count = c.action === "export.run" ? WITHDRAWALS + 2 : c.action === "audit.export" ? null : 3;
      const e = await domainRefusal(c.run(2));
      expect(e.code, c.action).toBe("export_too_large");
      expect(e.status).toBe(413);
      expect(e.message).toMatch(/one export holds at most 2, so nothing was exported\. Narrow it with the filters/);
      if (count !== null) expect(e.message).toContain(`would hold ${count.toLocaleString("en-US")} rows`);
      // One entry, under the export's own action: refused, with the count and the cap; no intent of a file.
      const after = (await auditRows(db, c.action)).slice(before);
      expect(
        after.map((r) => r.outcome),
        c.action,
      ).toEqual(["refused"]);
      expect(after[0]!.detail).toMatchObject({ code: "export_too_large", cap: 2 });
      expect(after[0]!.detail.rows).toBeGreaterThan(2);

      // Narrowed under the cap, the same export is whole and sealed.
      const res = await csvResponse(csvBody("x.csv", ["a"], await c.run(2, c.narrowed)));
      const text = await res.text();
      const sealed = (await auditRows(db, c.action)).at(-1)!;
      expect(sealed.outcome).toBe("success");
      expect(sealed.detail).toMatchObject({ sha256: sealOf(text).sha256 });
      expect(sealed.detail.rows).toBeLessThanOrEqual(2);
    }
  });

  it("[export][cap] a set that grows past the cap after it was counted fails the file instead of cutting it short", async () => {
    const { db } = bed;
    const total = Number(
      (await db.query<{ n: string }>("SELECT count(*)::text AS n FROM withdrawal_requests")).rows[0]!.n,
    );
    const rows = await withdrawalsForExport(db, {}, alice, ctx, { maxRows: total });
    // One more request arrives before the walk reaches its end.
    await withdrawals(db, 0, 100_000);
    const res = await csvResponse(csvBody("w.csv", WITHDRAWAL_CSV_COLUMNS, rows));
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow(/grew past/);
    const last = (await auditRows(db, "export.run")).at(-1)!;
    expect(last.outcome).toBe("failure");
    expect(JSON.stringify(last.detail)).toContain("export_too_large");
  });

  it("[export][seal] a seal the database cannot write is no file: a small export answers an error, a large one's body breaks before its end", async () => {
    const { db } = bed;
    // The same exports without the fault: whole, sealed (the test can tell a file from no file).
    const whole = await (
      await csvResponse(csvBody("w.csv", WITHDRAWAL_CSV_COLUMNS, await withdrawalsForExport(db, {}, alice, ctx)))
    ).text();
    expect(whole.split("\r\n").length).toBeGreaterThan(WITHDRAWALS);
    expect(whole.length).toBeGreaterThan(300 * 1024);
    expect((await auditRows(db, "export.run")).at(-1)!.detail).toMatchObject({ sha256: sealOf(whole).sha256 });

    await refuseSeals(db, "monitoring.alerts-export");
    const before = (await auditRows(db, "monitoring.alerts-export")).length;
    // Small: the whole file fits the first chunk, read before the answer starts: the answer is an error.
    await expect(
      csvResponse(csvBody("alerts.csv", ALERT_CSV_COLUMNS, await alertsForExport(db, {}, alice, ctx))),
    ).rejects.toThrow(/No space left on device/);
    const small = (await auditRows(db, "monitoring.alerts-export")).slice(before);
    expect(small.map((r) => r.outcome)).toEqual(["intent", "failure"]);
    expect(JSON.stringify(small[1]!.detail)).toContain("No space left on device");

    // Large: the answer has started; its body errors, and what was received is not the whole file.
    await heal(db);
    await refuseSeals(db, "export.run");
    const res = await csvResponse(
      csvBody("w.csv", WITHDRAWAL_CSV_COLUMNS, await withdrawalsForExport(db, {}, alice, ctx)),
    );
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let received = "";
    const read = async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        received += decoder.decode(value, { stream: true });
      }
    };
    await expect(read()).rejects.toThrow(/No space left on device/);
    expect(received.length).toBeGreaterThan(0);
    expect(received.length).toBeLessThan(whole.length);
    const large = (await auditRows(db, "export.run")).at(-1)!;
    expect(large.outcome).toBe("failure");
    expect(large.detail.sha256).toBeUndefined();
  });
});
