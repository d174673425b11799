import "server-only";
// Events as data: written by the database in the transaction of what caused them (none after a rollback), read
// back by each person as their role may read them now. A held request says "held by compliance" and nothing of
// the rule to a broker or a lead; a high alert, with its rule's name, reaches only monitoring roles.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { databaseTestBed, testEngines } from "@/server/db/testing";
import { staffSession } from "@/server/testing";
import { activeVersion, clearMonitoring } from "@/server/monitoring/testing";
import { evaluateVersion } from "@/server/monitoring/evaluate";
import { inbox, markRead, unreadCount } from "./inbox";

// Recent: a high alert is announced for the last day's activity only (migration 0130).
const T = Date.now() - 60_000;
const RULE = "MARKER-notify-rule-91c2";
const broker = staffSession("broker", "bea");
const lead = staffSession("lead", "lee");
const otherLead = staffSession("lead", "lou");
const compliance = staffSession("compliance", "cat");
const admin = staffSession("admin", "ada");

async function request(db: import("@/server/db").Queryable, by: string, amount = "950"): Promise<string> {
  const id = randomUUID();
  await db.query(
    `INSERT INTO withdrawal_requests (id, client_oid, sub_uid, coin, dest, address, amount, reason, requested_by,
       requested_at, state, policy_approvals)
     VALUES ($1, $2, '21', 'USDT', 'on_chain', 'TNotifyDestinationAddress1', $3, 'test', $4,
       timestamptz 'epoch' + $5 * interval '1 ms', 'requested', '[{"role":"lead","count":1}]')`,
    [id, `n${id.replaceAll("-", "").slice(0, 30)}`, amount, by, T],
  );
  return id;
}

describe.each(testEngines(process.env.TEST_DATABASE_URL))("[notifications][inbox] on $engine", (engine) => {
  const bed = databaseTestBed(engine);

  it("[notifications] a request reaches the approvers it waits for, never its requester; a rollback emits nothing", async () => {
    await clearMonitoring(bed.db);
    await bed.db.query("TRUNCATE notification_events, notification_reads CASCADE");
    await expect(
      bed.db.transaction(async (tx) => {
        await request(tx, lead.email);
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect((await inbox(bed.db, otherLead)).items).toEqual([]);

    const id = await request(bed.db, lead.email, "1234.5");
    const seen = await inbox(bed.db, otherLead);
    expect(seen.unread).toBe(1);
    expect(seen.items[0]).toMatchObject({
      type: "withdrawal.awaiting_approval",
      title: "A withdrawal waits for your approval",
      href: "/withdrawals",
      read: false,
    });
    expect(seen.items[0]!.text).toContain("1234.5 USDT");
    // Its requester, brokers, and compliance (the policy asks a lead) are not asked.
    for (const who of [lead, broker, compliance, admin]) expect((await inbox(bed.db, who)).items).toEqual([]);

    // Decided: its requester hears of it, the other lead does not.
    await bed.db.query(
      `UPDATE withdrawal_requests SET state = 'rejected', rejected_by = $2, rejected_at = now(), reject_reason = 'no',
         version = version + 1 WHERE id = $1`,
      [id, otherLead.email],
    );
    const mine = await inbox(bed.db, lead);
    expect(mine.items.map((n) => [n.type, n.text])).toEqual([
      ["withdrawal.decided", "1234.5 USDT from sub-account 21: rejected"],
    ]);
    expect((await inbox(bed.db, otherLead)).items.map((n) => n.type)).toEqual(["withdrawal.awaiting_approval"]);
  });

  it("[notifications] a holding alert: the requester reads 'held by compliance'; only monitoring roles read the rule", async () => {
    await clearMonitoring(bed.db);
    await bed.db.query("TRUNCATE notification_events, notification_reads CASCADE");
    const id = await request(bed.db, broker.email);
    const v = await activeVersion(
      bed.db,
      { kind: "new_destination", params: { lookbackDays: 30 } },
      { name: RULE, severity: "high", holds: true },
    );
    expect(await evaluateVersion(bed.db, v, { subUid: "21", since: null })).toHaveLength(1);
    // A second evaluation raises nothing, and says nothing again.
    await evaluateVersion(bed.db, v, { subUid: "21", since: null });

    const said = await inbox(bed.db, broker);
    expect(said.items.map((n) => [n.type, n.text, n.href])).toEqual([
      ["withdrawal.held", "Sub-account 21: held by compliance", `/withdrawals/${id}`],
    ]);
    for (const who of [broker, lead]) expect(JSON.stringify(await inbox(bed.db, who))).not.toContain(RULE);
    for (const who of [compliance, admin]) {
      const items = (await inbox(bed.db, who)).items;
      expect(items.map((n) => n.type)).toEqual(["alert.high"]);
      expect(items[0]!.text).toContain(RULE);
    }
    // A lead is asked to approve, and never told why it is held.
    expect((await inbox(bed.db, lead)).items.map((n) => n.type)).toEqual(["withdrawal.awaiting_approval"]);
  });

  // Two connections: PGlite has one, so nothing can be between one transaction's insert and its commit there.
  it.skipIf(engine.engine === "pglite")(
    "[notifications] two holding alerts inserted at once say 'held' to the requester once",
    async () => {
      await clearMonitoring(bed.db);
      await bed.db.query("TRUNCATE notification_events, notification_reads CASCADE");
      const id = await request(bed.db, broker.email);
      const v = await activeVersion(
        bed.db,
        { kind: "new_destination", params: { lookbackDays: 30 } },
        { name: RULE, severity: "low", holds: true },
      );
      const [a, b] = [await bed.open(), await bed.open()];
      const alert = (tx: import("@/server/db").Queryable, occurrence: string) =>
        tx.query(
          `INSERT INTO monitoring_alerts (rule_version_id, rule_id, sub_uid, occurrence, window_start, window_end,
             severity, holds, value) VALUES ($1, $2, '21', $3, 0, 0, 'low', true, '1')`,
          [v.id, v.ruleId, occurrence],
        );
      // Both inserted before either commits: each saw no notice yet.
      let commitFirst!: () => void;
      const first = new Promise<void>((r) => (commitFirst = r));
      let insertedFirst!: () => void;
      const insertedYet = new Promise<void>((r) => (insertedFirst = r));
      const one = a.transaction(async (tx) => {
        await alert(tx, "d:one");
        insertedFirst();
        await first;
      });
      await insertedYet;
      const two = b.transaction((tx) => alert(tx, "d:two"));
      await new Promise((r) => setTimeout(r, 300));
      commitFirst();
      await Promise.all([one, two]);
      const { rows } = await bed.db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM notification_events WHERE type = 'withdrawal.held' AND subject = $1",
        [`withdrawal:${id}`],
      );
      expect(rows[0]!.n).toBe(1);
      expect((await bed.db.query("SELECT 1 FROM monitoring_alerts WHERE sub_uid = '21'")).rows).toHaveLength(2);
    },
  );

  it("[notifications] read marks: one at a time, then everything up to a number", async () => {
    await clearMonitoring(bed.db);
    await bed.db.query("TRUNCATE notification_events, notification_reads CASCADE");
    for (let i = 0; i < 3; i++) await request(bed.db, broker.email, `${i + 1}`);
    const all = await inbox(bed.db, lead);
    expect(all.unread).toBe(3);
    const [newest, middle, oldest] = all.items;
    expect(await markRead(bed.db, lead, { id: middle!.id })).toEqual({ unread: 2 });
    expect((await inbox(bed.db, lead)).items.map((n) => n.read)).toEqual([false, true, false]);
    expect(await markRead(bed.db, lead, { through: oldest!.id })).toEqual({ unread: 1 });
    expect(await markRead(bed.db, lead, { through: newest!.id })).toEqual({ unread: 0 });
    // Marks are the reader's own.
    expect(await unreadCount(bed.db, otherLead)).toBe(3);
  });
});
