import "server-only";
// The e-mail channel over real SMTP (smtp-server in-process, parsed with mailparser): who gets which mail, what it
// says to each role (a matrix: no marker of compliance's work in a mail to a role without monitoring.read), links
// back to the page, digests, retries with backoff, and each delivery sent once however many fan-outs and senders
// run at once.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Queryable } from "@/server/db";
import { databaseTestBed, testEngines } from "@/server/db/testing";
import { addStaff, staffSession } from "@/server/testing";
import { activeVersion, clearMonitoring } from "@/server/monitoring/testing";
import { evaluateVersion } from "@/server/monitoring/evaluate";
import { deliverDue } from "./deliver";
import { fanOut } from "./fanout";
import { startMailSink, type MailSink } from "./mail-sink";
import { mailerFor } from "./mailer";

const BASE = "https://brokerdesk.example";
const RULE = "MARKER-mail-rule-5d1e";
const broker = staffSession("broker", "mbea");
const lead = staffSession("lead", "mlee");
const lead2 = staffSession("lead", "mlou");
const compliance = staffSession("compliance", "mcat");
const admin = staffSession("admin", "mada");
const everyone = [broker, lead, lead2, compliance, admin];

async function request(db: Queryable, by: string, amount = "950"): Promise<string> {
  const id = randomUUID();
  await db.query(
    `INSERT INTO withdrawal_requests (id, client_oid, sub_uid, coin, dest, address, amount, reason, requested_by,
       requested_at, state, policy_approvals)
     VALUES ($1, $2, '31', 'USDT', 'on_chain', 'TMailDestinationAddress0001', $3, 'test', $4, now(), 'requested',
       '[{"role":"lead","count":1}]')`,
    [id, `m${id.replaceAll("-", "").slice(0, 30)}`, amount, by],
  );
  return id;
}

describe.each(testEngines(process.env.TEST_DATABASE_URL))("[notifications][email] on $engine", (engine) => {
  const bed = databaseTestBed(engine);
  let sink: MailSink;
  beforeAll(async () => {
    sink = await startMailSink({ global: false });
  });
  afterAll(async () => {
    await sink?.stop();
  });
  const reset = async () => {
    await clearMonitoring(bed.db);
    await bed.db.query("TRUNCATE notification_deliveries, notification_events, notification_preferences CASCADE");
    await addStaff(bed.db, everyone);
    sink.mails.length = 0;
  };
  const run = async () => {
    await fanOut(bed.db);
    return deliverDue(bed.db, mailerFor(sink.url, "Brokerdesk <bd@test>"), { baseUrl: BASE });
  };
  const mailsTo = (who: { email: string }) => sink.mails.filter((m) => m.to.includes(who.email));

  it("[notifications][email] a request mails each lead once, with its link; nobody else; a held request says no more", async () => {
    await reset();
    await request(bed.db, broker.email, "1234.5");
    // Two fan-outs and two senders at once: each lead still gets one mail.
    await Promise.all([run(), run()]);
    await run();
    for (const who of [lead, lead2]) {
      const mails = mailsTo(who);
      expect(mails).toHaveLength(1);
      expect(mails[0]!.subject).toBe("Brokerdesk: A withdrawal waits for your approval");
      expect(mails[0]!.text).toContain("1234.5 USDT from sub-account 31");
      expect(mails[0]!.text).toContain(`Open: ${BASE}/withdrawals\n`);
      expect(mails[0]!.html).toContain(`href="${BASE}/withdrawals"`);
    }
    for (const who of [broker, compliance, admin]) expect(mailsTo(who)).toEqual([]);

    // A high holding rule fires: compliance and admin are mailed with the rule, the broker that it is held, the
    // leads nothing about it. No mail to a role without monitoring.read holds the marker.
    const v = await activeVersion(
      bed.db,
      { kind: "new_destination", params: { lookbackDays: 30 } },
      { name: RULE, severity: "high", holds: true },
    );
    expect(await evaluateVersion(bed.db, v, { subUid: "31", since: null })).toHaveLength(1);
    await run();
    expect(mailsTo(broker).map((m) => m.text.split("\n")[2])).toEqual(["Sub-account 31: held by compliance"]);
    for (const who of [compliance, admin]) expect(mailsTo(who).some((m) => m.text.includes(RULE))).toBe(true);
    expect(mailsTo(lead)).toHaveLength(1);
    for (const who of [broker, lead, lead2])
      for (const m of mailsTo(who)) expect(JSON.stringify(m)).not.toContain(RULE);
  });

  it("[notifications][email] choices: never sends nothing; a digest gathers the day's into one mail at its time", async () => {
    await reset();
    await bed.db.query(
      `INSERT INTO notification_preferences (email, type, channel, mode) VALUES
         ($1, 'withdrawal.awaiting_approval', 'email', 'never'),
         ($2, 'withdrawal.awaiting_approval', 'email', 'digest')`,
      [lead.email, lead2.email],
    );
    await bed.db.query(
      `INSERT INTO notification_settings (email, digest_at, time_zone) VALUES ($1, '07:30', 'Europe/Berlin')
       ON CONFLICT (email) DO UPDATE SET digest_at = '07:30', time_zone = 'Europe/Berlin'`,
      [lead2.email],
    );
    for (const amount of ["1", "2", "3"]) await request(bed.db, broker.email, amount);
    await run();
    expect(sink.mails).toEqual([]);
    const due = await bed.db.query<{ due_at: Date }>(
      `SELECT DISTINCT due_at FROM notification_deliveries WHERE recipient = $1`,
      [lead2.email],
    );
    expect(due.rows).toHaveLength(1);
    const at = new Date(due.rows[0]!.due_at);
    const berlin = new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Berlin", hour: "2-digit", minute: "2-digit" });
    expect(berlin.format(at)).toBe("07:30");
    expect(at.getTime()).toBeGreaterThan(Date.now());
    expect(at.getTime() - Date.now()).toBeLessThanOrEqual(86_400_000);
    expect(
      await bed.db.query(`SELECT 1 FROM notification_deliveries WHERE recipient = $1`, [lead.email]),
    ).toMatchObject({ rows: [] });
    // Its time comes: one mail with the three.
    await bed.db.query(`UPDATE notification_deliveries SET due_at = now() WHERE recipient = $1`, [lead2.email]);
    await run();
    const mails = mailsTo(lead2);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe("Brokerdesk: your digest, 3 notifications");
    for (const amount of ["1", "2", "3"]) expect(mails[0]!.text).toContain(`${amount} USDT from sub-account 31`);
  });

  it("[notifications][email] a server that refuses: retried with backoff, then sent once; a role changed meanwhile is not told", async () => {
    await reset();
    await request(bed.db, broker.email);
    await fanOut(bed.db);
    const down = await startMailSink({ global: false });
    const url = down.url;
    await down.stop();
    const failed = await deliverDue(bed.db, mailerFor(url, "bd@test"), { baseUrl: BASE });
    expect(failed).toMatchObject({ claimed: 2, sent: 0, failed: 2 });
    const { rows } = await bed.db.query<{ state: string; attempts: number; late: boolean; last_error: string }>(
      `SELECT state, attempts, due_at > now() + interval '50 seconds' AS late, last_error FROM notification_deliveries`,
    );
    expect(rows).toHaveLength(2);
    for (const r of rows) expect(r).toMatchObject({ state: "queued", attempts: 1, late: true });
    // Not yet due: nothing is sent.
    expect((await run()).claimed).toBe(0);
    // Lee is moved to broker before the retry: the mail about an approval is no longer Lee's to read.
    await addStaff(bed.db, [{ ...lead, role: "broker" }]);
    await bed.db.query(`UPDATE notification_deliveries SET due_at = now()`);
    expect(await run()).toMatchObject({ claimed: 2, sent: 1 });
    expect(mailsTo(lead2)).toHaveLength(1);
    expect(mailsTo(lead)).toEqual([]);
    const after = await bed.db.query<{ recipient: string; state: string; attempts: number; last_error: string | null }>(
      `SELECT recipient, state, attempts, last_error FROM notification_deliveries ORDER BY recipient`,
    );
    expect(after.rows.map((r) => [r.recipient, r.state, r.attempts])).toEqual([
      [lead.email, "sent", 2],
      [lead2.email, "sent", 2],
    ]);
    expect(after.rows[0]!.last_error).toMatch(/withheld/);
    await addStaff(bed.db, [lead]);
  });
});
