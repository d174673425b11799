import "server-only";
// kill -9 mid-delivery: a child instance (webhook-crash-child.ts) sends the due webhooks one at a time and is killed
// with SIGKILL after the receiver answered its second message and before that delivery's row was marked. A new
// instance, once the lease has run out, sends that one again with the same webhook-id (the receiver de-duplicates
// on it) and the rest once: none lost, none handled twice; the only repeat on the wire is the message whose mark
// the kill cut, byte for byte the same id. PGlite on a data folder always; PostgreSQL with TEST_DATABASE_URL.
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { crashDatabase, crashEngines, startChildInstance, stopChild, until } from "@/server/child-instance";
import { addStaff, staffSession } from "@/server/testing";
import type { WebhookCrashConfig, WebhookCrashProgress } from "./webhook-crash-child";
import { deliverWebhooks, fanOutWebhooks } from "./webhook-deliver";
import { approveWebhook, createWebhook } from "./webhook-endpoints";

const CHILD = path.join(process.cwd(), "server/notifications/webhook-crash-child.ts");
const admin = staffSession("admin", "kada");
const admin2 = staffSession("admin", "kadb");
const broker = staffSession("broker", "kbea");

describe.each(crashEngines(process.env.TEST_DATABASE_URL))("[notifications][webhooks][crash] on $label", (engine) => {
  const { config, withDb } = crashDatabase(engine, "bd-hcrash-");
  const ids: string[] = [];
  const server = createServer((req, res) => {
    ids.push(String(req.headers["webhook-id"]));
    req.resume();
    req.on("end", () => res.writeHead(204).end());
  });
  let origin = "";
  beforeAll(async () => {
    await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((ok) => server.close(() => ok())));

  it("[notifications][webhooks][crash] killed between the receiver's answer and the mark: none lost, none twice", async () => {
    await withDb(async (db) => {
      await addStaff(db, [admin, admin2, broker]);
      const { endpoint } = await createWebhook(
        db,
        admin,
        { url: `${origin}/k`, format: "standard", audienceRole: "lead", events: ["withdrawal.awaiting_approval"] },
        "simulator",
      );
      await approveWebhook(db, admin2, endpoint.id);
      for (const amount of ["1", "2", "3"]) {
        const id = randomUUID();
        await db.query(
          `INSERT INTO withdrawal_requests (id, client_oid, sub_uid, coin, dest, address, amount, reason,
             requested_by, requested_at, state, policy_approvals)
           VALUES ($1, $2, '31', 'USDT', 'on_chain', 'TCrashAddress000000000001', $3, 'test', $4, now(),
             'requested', '[{"role":"lead","count":1}]')`,
          [id, `k${id.replaceAll("-", "").slice(0, 30)}`, amount, broker.email],
        );
      }
      expect(await fanOutWebhooks(db)).toBe(3);
    });

    const cfg: WebhookCrashConfig = { db: config() };
    const instance = await startChildInstance<WebhookCrashProgress>(CHILD, cfg, 60_000);
    try {
      await until(
        "the instance stops at its second mark",
        60_000,
        () => instance.last()?.stopped === true,
        () => instance.last(),
      );
    } finally {
      await stopChild(instance.child, "SIGKILL");
    }
    expect(ids).toHaveLength(2);

    await withDb(async (db) => {
      // Within the dead instance's lease nothing is taken over; after it, the rest is sent.
      expect((await deliverWebhooks(db)).claimed).toBe(1);
      const later = new Date(Date.now() + 61_000);
      expect(await deliverWebhooks(db, { now: later })).toMatchObject({ claimed: 1, sent: 1 });
      const { rows } = await db.query<{ message_id: string; state: string; attempts: number }>(
        `SELECT message_id, state, attempts FROM webhook_deliveries ORDER BY id`,
      );
      expect(rows.map((r) => r.state)).toEqual(["sent", "sent", "sent"]);
      const all = rows.map((r) => r.message_id);
      // Received: every message (none lost); de-duplicated by webhook-id, each once.
      expect([...new Set(ids)].sort()).toEqual([...all].sort());
      // The one repeat is the message whose mark the kill cut (the second), with the same webhook-id.
      expect(ids.filter((i) => i === all[1])).toHaveLength(2);
      expect(ids).toHaveLength(4);
    });
    // A child instance's start and its work, on a loaded machine (the waits inside allow 60 s each).
  }, 180_000);
});
