// The audit chain's head checked at start (PGlite, and PostgreSQL with TEST_DATABASE_URL): it matches on an
// intact log; an edited recent row, a deleted last row, or a head moved on its own, does not, and that is
// said on /metrics (brokerdesk_audit_chain_head_ok 0) and in the banner /audit shows its readers. The check reads
// only the last entries: an edit older than them is left to the full walk (npm run audit:verify).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "@/server/db";
import { createTestDatabase, testEngines, type TestDatabase } from "@/server/db/testing";
import { metrics } from "@/server/metrics";
import { appendAudit } from "./audit-log";
import { auditHeadAtStart, chainHeadWarning, checkAuditHead, forgetAuditHeadCheck } from "./chain-check";

const gauge = async () =>
  /^brokerdesk_audit_chain_head_ok (-?\d+)$/m.exec(await metrics().registry.metrics())?.[1] ?? "absent";

describe.each(testEngines(process.env.TEST_DATABASE_URL))(
  "[audit][head] the chain head at start on $engine",
  (engine) => {
    let tdb: TestDatabase | undefined;
    let db: Db;
    beforeEach(() => forgetAuditHeadCheck());
    afterEach(async () => {
      forgetAuditHeadCheck();
      await tdb?.dispose();
      tdb = undefined;
    });
    const open = async (rows: number) => {
      tdb = await createTestDatabase(engine);
      db = await tdb.open();
      for (let i = 0; i < rows; i++)
        await appendAudit(db, { actor: "lead@test", action: "users.create", outcome: "intent", target: `user:${i}` });
    };
    const tamper = (sql: string) =>
      db.transaction(async (tx) => {
        await tx.query("ALTER TABLE audit_log DISABLE TRIGGER ALL");
        await tx.query("ALTER TABLE audit_head DISABLE TRIGGER ALL");
        await tx.query(sql);
        await tx.query("ALTER TABLE audit_log ENABLE TRIGGER ALL");
        await tx.query("ALTER TABLE audit_head ENABLE TRIGGER ALL");
      });

    it("[audit][head] an intact log matches: the gauge says 1 and /audit says nothing", async () => {
      await open(30);
      expect(await gauge()).toBe("-1");
      const c = await auditHeadAtStart(db);
      expect(c).toMatchObject({ ok: true, headId: 30, checked: 30 });
      expect(await gauge()).toBe("1");
      expect(chainHeadWarning(c)).toBeNull();
      // Only the last entries are read: the first link of the run is the row before them.
      expect(await checkAuditHead(db, 10)).toMatchObject({ ok: true, headId: 30, checked: 10 });
      // An empty log matches too.
      await tdb?.dispose();
      await open(0);
      expect(await checkAuditHead(db)).toMatchObject({ ok: true, headId: 0, checked: 0 });
    });

    it("[audit][head] an edited recent row, a deleted last row and a head moved alone do not match, on /metrics and /audit", async () => {
      await open(30);
      await tamper("UPDATE audit_log SET target = 'user:someone-else' WHERE id = 27");
      const edited = await auditHeadAtStart(db);
      expect(edited).toMatchObject({
        ok: false,
        headId: 30,
        brokenAt: 27,
        reason: expect.stringMatching(/row edited/),
      });
      expect(await gauge()).toBe("0");
      expect(chainHeadWarning(edited)).toMatch(
        /^The audit chain does not verify: when Brokerdesk started \(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\), the stored head \(row 30\) did not match its last entries: content does not match its hash \(row edited\) \(at row 27\)\..*npm run audit:verify/,
      );
      // Older than the rows the start reads: left to the full walk.
      expect(await checkAuditHead(db, 3)).toMatchObject({ ok: true });

      await tamper("UPDATE audit_log SET target = 'user:26' WHERE id = 27");
      await tamper("DELETE FROM audit_log WHERE id = 30");
      expect(await checkAuditHead(db)).toMatchObject({
        ok: false,
        brokenAt: 30,
        reason: expect.stringMatching(/missing/),
      });

      await tamper("UPDATE audit_head SET last_id = 29, last_hash = repeat('a', 64) WHERE id = 1");
      expect(await checkAuditHead(db)).toMatchObject({
        ok: false,
        brokenAt: 29,
        reason: "the last row's hash differs from the chain head's",
      });
    });
  },
);
