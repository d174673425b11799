import "server-only";
// The periodic events, each raised once per occurrence however often the check runs (the clock moved, nothing
// timed): a case past its review deadline, to its assignee (compliance) and nobody without monitoring.read; an
// audit chain whose head does not verify (a row changed behind the log's back), once per broken row.
import { afterEach, describe, expect, it } from "vitest";
import { env } from "@/lib/env";
import type { Db } from "@/server/db";
import { appendAudit } from "@/server/audit/audit-log";
import { createTestDatabase, testEngines, type TestDatabase } from "@/server/db/testing";
import { addStaff, staffSession } from "@/server/testing";
import { inbox } from "./inbox";
import { raiseAuditChainBroken, raiseOverdueCases } from "./periodic";

const compliance = staffSession("compliance", "pcat");
const broker = staffSession("broker", "pbea");
const admin = staffSession("admin", "pada");
const DAY = 86_400_000;

describe.each(testEngines(process.env.TEST_DATABASE_URL))("[notifications][periodic] on $engine", (engine) => {
  let tdb: TestDatabase | undefined;
  let db: Db;
  afterEach(async () => {
    await tdb?.dispose();
    tdb = undefined;
  });
  const open = async () => {
    tdb = await createTestDatabase(engine);
    db = await tdb.open();
    await addStaff(db, [compliance, broker, admin]);
  };

  it("[notifications][periodic] a case past its review deadline: raised once, to its assignee", async () => {
    await open();
    const opened = new Date(Date.now() - 2 * DAY);
    const { rows } = await db.query<{ id: string }>(
      `INSERT INTO monitoring_cases (sub_uid, assignee, opened_at) VALUES ('41', $1, $2), ('42', NULL, $2)
       RETURNING id::text`,
      [compliance.email, opened.toISOString()],
    );
    // No alert: the low severity's days (MONITORING_REVIEW_DAYS).
    const dueAt = opened.getTime() + env.monitoringReviewDays.low * DAY;
    expect(await raiseOverdueCases(db, new Date(dueAt - 60_000))).toBe(0);
    const [a, b, c] = await Promise.all([
      raiseOverdueCases(db, new Date(dueAt + 60_000)),
      raiseOverdueCases(db, new Date(dueAt + 60_000)),
      raiseOverdueCases(db, new Date(dueAt + DAY)),
    ]);
    expect(a + b + c).toBe(2);
    expect(await raiseOverdueCases(db, new Date(dueAt + 7 * DAY))).toBe(0);
    const subjects = await db.query<{ subject: string }>(
      `SELECT subject FROM notification_events WHERE type = 'case.overdue' ORDER BY subject`,
    );
    expect(subjects.rows.map((r) => r.subject)).toEqual(rows.map((r) => `case:${r.id}`).sort());
    const overdue = async (who: typeof compliance) =>
      (await inbox(db, who)).items.filter((i) => i.type === "case.overdue").map((i) => i.text);
    expect((await overdue(compliance)).sort()).toEqual(["The case of sub-account 41", "The case of sub-account 42"]);
    expect(await overdue(broker)).toEqual([]);
  });

  it("[notifications][periodic] an audit chain that does not verify: raised once per broken row", async () => {
    await open();
    for (let i = 0; i < 5; i++)
      await appendAudit(db, { actor: "lead@test", action: "users.create", outcome: "intent", target: `user:${i}` });
    expect(await raiseAuditChainBroken(db, { force: true })).toBe(0);
    await db.transaction(async (tx) => {
      await tx.query("ALTER TABLE audit_log DISABLE TRIGGER ALL");
      await tx.query("UPDATE audit_log SET target = 'user:someone-else' WHERE id = 3");
      await tx.query("ALTER TABLE audit_log ENABLE TRIGGER ALL");
    });
    expect(await raiseAuditChainBroken(db, { force: true })).toBe(1);
    expect(await raiseAuditChainBroken(db, { force: true })).toBe(0);
    expect((await inbox(db, admin)).items.map((i) => i.type)).toContain("audit.chain_broken");
    expect((await inbox(db, broker)).items).toEqual([]);
  });
});
