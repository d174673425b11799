import "server-only";
// Escalation with the clock moved forward (an injected clock, nothing timed): a withdrawal nobody approved is
// raised once to every lead after the configured time and once to admin at twice it, however often and on however
// many instances the periodic job runs; an approval restarts the wait; a decided request is never escalated.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Queryable } from "@/server/db";
import { databaseTestBed, testEngines } from "@/server/db/testing";
import { addStaff, staffSession } from "@/server/testing";
import { raiseEscalations } from "./escalate";
import { inbox } from "./inbox";

const broker = staffSession("broker", "ebea");
const lead = staffSession("lead", "elee");
const lead2 = staffSession("lead", "elou");
const admin = staffSession("admin", "eada");
const compliance = staffSession("compliance", "ecat");
const MIN = 60_000;

async function request(db: Queryable, at: Date, amount: string): Promise<string> {
  const id = randomUUID();
  await db.query(
    `INSERT INTO withdrawal_requests (id, client_oid, sub_uid, coin, dest, address, amount, reason, requested_by,
       requested_at, state, policy_approvals)
     VALUES ($1, $2, '31', 'USDT', 'on_chain', 'TEscalationAddress00000001', $3, 'test', $4, $5, 'requested',
       '[{"role":"lead","count":2}]')`,
    [id, `e${id.replaceAll("-", "").slice(0, 30)}`, amount, broker.email, at.toISOString()],
  );
  return id;
}

describe.each(testEngines(process.env.TEST_DATABASE_URL))("[notifications][escalation] on $engine", (engine) => {
  const bed = databaseTestBed(engine);

  it("[notifications][escalation] an approval nobody acted on: once to every lead, then once to admin", async () => {
    await bed.db.query("TRUNCATE notification_events CASCADE");
    await addStaff(bed.db, [broker, lead, lead2, admin, compliance]);
    const t0 = new Date(Date.now() - 1000);
    const idle = await request(bed.db, t0, "4321");
    const approvedOnce = await request(bed.db, t0, "20");
    const decided = await request(bed.db, t0, "30");
    await bed.db.query(
      `UPDATE withdrawal_requests SET state = 'rejected', version = version + 1, rejected_by = $2, rejected_at = now(), reject_reason = 'no'
       WHERE id = $1`,
      [decided, lead.email],
    );
    await bed.db.query(
      `INSERT INTO withdrawal_approvals (withdrawal_id, approver, role, approved_at) VALUES ($1, $2, 'lead', $3)`,
      [approvedOnce, lead.email, new Date(t0.getTime() + 20 * MIN).toISOString()],
    );
    const raise = (minutes: number) =>
      raiseEscalations(bed.db, { now: new Date(t0.getTime() + minutes * MIN), afterMinutes: 30 });
    const escalations = async () =>
      (
        await bed.db.query<{ subject: string }>(
          `SELECT subject FROM notification_events WHERE type = 'withdrawal.escalated' ORDER BY id`,
        )
      ).rows.map((r) => r.subject);

    expect(await raise(29)).toBe(0);
    expect(await raise(31)).toBe(1);
    expect(await raise(32)).toBe(0);
    expect(await escalations()).toEqual([`withdrawal:${idle}:lead`]);
    // Two instances' jobs at once, and again: each level is raised once.
    const counts = await Promise.all([raise(61), raise(61), raise(62)]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(2);
    expect((await escalations()).sort()).toEqual(
      [`withdrawal:${idle}:lead`, `withdrawal:${approvedOnce}:lead`, `withdrawal:${idle}:admin`].sort(),
    );
    await raise(24 * 60);
    expect((await escalations()).filter((s) => s.startsWith(`withdrawal:${idle}`))).toHaveLength(2);
    expect((await escalations()).some((s) => s.includes(decided))).toBe(false);

    // Who hears of it: every lead, then admin; never the requester; compliance is not asked by this policy.
    const said = async (who: typeof lead) =>
      (await inbox(bed.db, who)).items.filter((i) => i.type === "withdrawal.escalated").map((i) => i.text);
    const idleText = "4321 USDT from sub-account 31, requested by ebea@brokerdesk.test, has waited 30 minutes";
    for (const who of [lead, lead2]) expect((await said(who)).some((t) => t.startsWith(idleText))).toBe(true);
    expect(await said(admin)).toEqual(
      expect.arrayContaining([expect.stringContaining("4321 USDT from sub-account 31, requested by")]),
    );
    expect((await said(admin)).some((t) => t.includes("has waited 60 minutes"))).toBe(true);
    expect(await said(broker)).toEqual([]);
    expect(await said(compliance)).toEqual([]);
  });

  it("[notifications][escalation] NOTIFY_ESCALATE_AFTER_MINUTES=0 turns it off", async () => {
    await bed.db.query("TRUNCATE notification_events CASCADE");
    await request(bed.db, new Date(Date.now() - 86_400_000), "1");
    expect(await raiseEscalations(bed.db, { afterMinutes: 0 })).toBe(0);
  });
});
