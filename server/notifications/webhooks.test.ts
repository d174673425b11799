import "server-only";
// Webhooks over real HTTP on loopback and a real database: a receiver verifies each message with the Standard
// Webhooks algorithm (written here again, apart from the signer), checked first against the spec's published test
// vector. A second admin confirms an endpoint before anything is sent; each (event, endpoint) is delivered once
// however many fan-outs and senders run; a failing endpoint is retried with backoff (the clock moved, nothing timed)
// for 24 hours and marked failed; "send again" delivers the same webhook-id; an endpoint of a role without
// monitoring.read never receives compliance's words (a marker in a rule's name); live mode refuses http.
import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CreateWebhookInput } from "@/lib/api/notifications/webhooks";
import type { Queryable } from "@/server/db";
import { databaseTestBed, testEngines } from "@/server/db/testing";
import { evaluateVersion } from "@/server/monitoring/evaluate";
import { activeVersion, clearMonitoring } from "@/server/monitoring/testing";
import { addStaff, domainRefusal, staffSession } from "@/server/testing";
import { deliverWebhooks, fanOutWebhooks } from "./webhook-deliver";
import {
  approveWebhook,
  createWebhook,
  listWebhookDeliveries,
  resendWebhookDelivery,
  setWebhookEvents,
} from "./webhook-endpoints";
import { openWebhookSecret, signatureOf } from "./webhook-sign";

const BASE = "https://brokerdesk.example";
const RULE = "MARKER-hook-rule-8c2f";
const admin = staffSession("admin", "hada");
const admin2 = staffSession("admin", "hadb");
const broker = staffSession("broker", "hbea");
const lead = staffSession("lead", "hlee");
const compliance = staffSession("compliance", "hcat");

/** Standard Webhooks verification, as the spec says it (independent of ./webhook-sign.ts). */
function verify(secret: string, headers: Record<string, string | undefined>, body: string, nowSec: number): boolean {
  const id = headers["webhook-id"];
  const ts = headers["webhook-timestamp"];
  const sigs = headers["webhook-signature"];
  if (!id || !ts || !sigs || Math.abs(nowSec - Number(ts)) > 300) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = createHmac("sha256", key).update(`${id}.${ts}.${body}`).digest();
  return sigs.split(" ").some((s) => {
    const [v, b64] = s.split(",");
    const got = Buffer.from(b64 ?? "", "base64");
    return v === "v1" && got.length === expected.length && timingSafeEqual(got, expected);
  });
}

type Received = { path: string; headers: Record<string, string>; body: string };

function receiver() {
  const got: Received[] = [];
  const status = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      got.push({
        path: req.url ?? "",
        headers: req.headers as Record<string, string>,
        body: Buffer.concat(chunks).toString(),
      });
      res.statusCode = status.get(req.url ?? "") ?? 204;
      res.end();
    });
  });
  return {
    got,
    status,
    start: () =>
      new Promise<string>((ok) =>
        server.listen(0, "127.0.0.1", () => ok(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
      ),
    stop: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

async function request(db: Queryable, by: string, amount = "950"): Promise<string> {
  const id = randomUUID();
  await db.query(
    `INSERT INTO withdrawal_requests (id, client_oid, sub_uid, coin, dest, address, amount, reason, requested_by,
       requested_at, state, policy_approvals)
     VALUES ($1, $2, '31', 'USDT', 'on_chain', 'THookDestinationAddress0001', $3, 'test', $4, now(), 'requested',
       '[{"role":"lead","count":1}]')`,
    [id, `h${id.replaceAll("-", "").slice(0, 30)}`, amount, by],
  );
  return id;
}

describe("[notifications][webhooks] signing", () => {
  it("[notifications][webhooks] matches the Standard Webhooks test vector", () => {
    const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    const sig = signatureOf(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, '{"test": 2432232314}');
    expect(sig).toBe("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
    const headers = {
      "webhook-id": "msg_p5jXN8AQM9LWM0D4loKWxJek",
      "webhook-timestamp": "1614265330",
      "webhook-signature": sig,
    };
    expect(verify(secret, headers, '{"test": 2432232314}', 1614265330)).toBe(true);
    expect(verify(secret, headers, '{"test": 2432232315}', 1614265330)).toBe(false);
  });
});

describe.each(testEngines(process.env.TEST_DATABASE_URL))("[notifications][webhooks] on $engine", (engine) => {
  const bed = databaseTestBed(engine);
  const rx = receiver();
  let origin = "";
  beforeAll(async () => {
    origin = await rx.start();
  });
  afterAll(async () => {
    await rx.stop();
  });
  const reset = async () => {
    await clearMonitoring(bed.db);
    await bed.db.query("TRUNCATE webhook_deliveries, webhook_endpoints, notification_events CASCADE");
    await addStaff(bed.db, [admin, admin2, broker, lead, compliance]);
    rx.got.length = 0;
    rx.status.clear();
  };
  const add = async (path: string, over: Partial<CreateWebhookInput> = {}) => {
    const made = await createWebhook(
      bed.db,
      admin,
      {
        url: `${origin}${path}`,
        format: "standard",
        audienceRole: "lead",
        events: ["withdrawal.awaiting_approval"],
        ...over,
      },
      "simulator",
    );
    return made;
  };
  const run = async (now = new Date()) => {
    await fanOutWebhooks(bed.db, now);
    return deliverWebhooks(bed.db, { now, baseUrl: BASE });
  };
  const at = (path: string) => rx.got.filter((g) => g.path === path);
  const secretOf = async (id: string) => {
    const { rows } = await bed.db.query<{ s: string }>(
      `SELECT secret_sealed AS s FROM webhook_endpoints WHERE id = $1`,
      [id],
    );
    return openWebhookSecret(rows[0]!.s, id);
  };

  it("[notifications][webhooks] nothing is sent until a second admin confirms; then once, signed, however many run", async () => {
    await reset();
    const { endpoint, secret } = await add("/a");
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(endpoint.state).toBe("proposed");
    await request(bed.db, broker.email, "1234.5");
    await run();
    expect(rx.got).toEqual([]);
    // The admin who asked may not confirm it.
    expect((await domainRefusal(approveWebhook(bed.db, admin, endpoint.id))).code).toBe("own_request");
    expect((await approveWebhook(bed.db, admin2, endpoint.id)).state).toBe("active");
    // What was raised before it was confirmed is not sent to it; what comes after is, once.
    await request(bed.db, broker.email, "77");
    await Promise.all([run(), run(), run()]);
    await run();
    const got = at("/a");
    expect(got).toHaveLength(1);
    const { headers, body } = got[0]!;
    expect(verify(secret, headers, body, Math.floor(Date.now() / 1000))).toBe(true);
    expect(verify(await secretOf(endpoint.id), headers, body, Math.floor(Date.now() / 1000))).toBe(true);
    const msg = JSON.parse(body) as { type: string; data: Record<string, string> };
    expect(msg.type).toBe("withdrawal.awaiting_approval");
    expect(msg.data).toMatchObject({ amount: "77", coin: "USDT", subUid: "31", link: `${BASE}/withdrawals` });
    expect(headers["webhook-id"]).toMatch(/^msg_\d+_\d+$/);
    const log = await listWebhookDeliveries(bed.db, endpoint.id);
    expect(log.items.map((d) => [d.state, d.attempts, d.lastStatus])).toEqual([["sent", 1, 204]]);

    // Widening its events waits for the second admin too.
    const wider = await setWebhookEvents(bed.db, admin, endpoint.id, [
      "withdrawal.awaiting_approval",
      "withdrawal.decided",
    ]);
    expect(wider.events).toEqual(["withdrawal.awaiting_approval"]);
    expect(wider.proposedEvents).toEqual(["withdrawal.awaiting_approval", "withdrawal.decided"]);
    const narrower = await setWebhookEvents(bed.db, admin, endpoint.id, ["withdrawal.awaiting_approval"]);
    expect(narrower.proposedEvents).toBeNull();
  });

  it("[notifications][webhooks] a failing endpoint: retried with backoff for 24 hours, then failed; send again delivers", async () => {
    await reset();
    const { endpoint, secret } = await add("/down", { format: "slack" });
    await approveWebhook(bed.db, admin2, endpoint.id);
    rx.status.set("/down", 500);
    await request(bed.db, broker.email, "5");
    const t0 = new Date();
    expect(await run(t0)).toMatchObject({ claimed: 1, failed: 1 });
    const gaps: number[] = [];
    let now = t0;
    for (let i = 0; i < 60; i++) {
      const { rows } = await bed.db.query<{ state: string; due_at: Date }>(
        `SELECT state, due_at FROM webhook_deliveries`,
      );
      if (rows[0]!.state !== "queued") break;
      const due = new Date(rows[0]!.due_at);
      // Not yet due: nothing is tried a second before.
      expect((await run(new Date(due.getTime() - 1000))).claimed).toBe(0);
      gaps.push((due.getTime() - now.getTime()) / 60_000);
      now = due;
      await run(now);
    }
    expect(gaps.slice(0, 7)).toEqual([1, 2, 4, 8, 16, 32, 60]);
    expect(gaps.slice(7).every((g) => g === 60)).toBe(true);
    const [row] = (await listWebhookDeliveries(bed.db, endpoint.id)).items;
    expect(row).toMatchObject({ state: "failed", lastStatus: 500, lastError: "HTTP 500" });
    expect(now.getTime() - t0.getTime()).toBeLessThanOrEqual(86_400_000);
    expect(now.getTime() - t0.getTime()).toBeGreaterThan(86_400_000 - 3_600_000);
    const tries = at("/down");
    expect(tries).toHaveLength(row!.attempts);
    expect(new Set(tries.map((t) => t.headers["webhook-id"])).size).toBe(1);
    // Failed: no more attempts, however late.
    expect((await run(new Date(now.getTime() + 7 * 86_400_000))).claimed).toBe(0);

    // The endpoint is fixed; "send again" is a new attempt of the same webhook-id.
    rx.status.delete("/down");
    const again = await resendWebhookDelivery(bed.db, endpoint.id, row!.id, now);
    expect(again.state).toBe("queued");
    expect((await domainRefusal(resendWebhookDelivery(bed.db, endpoint.id, row!.id, now))).code).toBe(
      "already_in_progress",
    );
    expect(await run(now)).toMatchObject({ sent: 1 });
    const last = at("/down").at(-1)!;
    expect(last.headers["webhook-id"]).toBe(tries[0]!.headers["webhook-id"]);
    expect(verify(secret, last.headers, last.body, Math.floor(now.getTime() / 1000))).toBe(true);
    expect(JSON.parse(last.body)).toEqual({
      text: expect.stringMatching(/^\*A withdrawal waits for your approval\*\n5 USDT from sub-account 31/),
    });
  });

  it("[notifications][webhooks] a role without monitoring.read never receives compliance's words", async () => {
    await reset();
    // A broker's endpoint may not subscribe to what a broker may not read: refused on the field.
    const refused = await domainRefusal(add("/x", { audienceRole: "broker", events: ["alert.high"] }));
    expect(refused.fieldErrors).toHaveProperty("events");
    const b = await add("/broker", { audienceRole: "broker", events: ["withdrawal.held", "withdrawal.decided"] });
    const l = await add("/lead", { audienceRole: "lead", events: ["withdrawal.held", "withdrawal.awaiting_approval"] });
    const a = await add("/admin", {
      audienceRole: "admin",
      events: ["alert.high", "withdrawal.held"],
      format: "teams",
    });
    for (const e of [b, l, a]) await approveWebhook(bed.db, admin2, e.endpoint.id);
    await request(bed.db, broker.email, "31");
    const v = await activeVersion(
      bed.db,
      { kind: "new_destination", params: { lookbackDays: 30 } },
      { name: RULE, severity: "high", holds: true },
    );
    expect(await evaluateVersion(bed.db, v, { subUid: "31", since: null })).toHaveLength(1);
    await run();
    // The admin's (monitoring.read) gets the rule's name: the marker can be found where it may go.
    expect(at("/admin").some((g) => g.body.includes(RULE))).toBe(true);
    const held = at("/broker").map((g) => JSON.parse(g.body) as { type: string; data: Record<string, unknown> });
    expect(held.map((h) => h.type)).toEqual(["withdrawal.held"]);
    expect(held[0]!.data).toMatchObject({ subUid: "31", text: "Sub-account 31: held by compliance" });
    expect(Object.keys(held[0]!.data).sort()).toEqual(["link", "subUid", "text", "title", "withdrawalId"]);
    expect(at("/lead").length).toBeGreaterThan(0);
    for (const path of ["/broker", "/lead"]) for (const g of at(path)) expect(g.body).not.toContain(RULE);
  });

  it("[notifications][webhooks] live mode refuses http (and private addresses) on the field url", async () => {
    await reset();
    const base = {
      format: "standard" as const,
      audienceRole: "lead" as const,
      events: ["withdrawal.decided" as const],
    };
    for (const url of ["http://hooks.example.com/x", "https://127.0.0.1/x", "https://10.0.0.8/x"]) {
      const e = await domainRefusal(createWebhook(bed.db, admin, { ...base, url }, "live"));
      expect(e.code).toBe("invalid_input");
      expect(e.fieldErrors).toHaveProperty("url");
    }
    const e = await domainRefusal(
      createWebhook(bed.db, admin, { ...base, url: "http://hooks.example.com/" }, "simulator"),
    );
    expect(e.fieldErrors).toHaveProperty("url");
    expect(
      (await createWebhook(bed.db, admin, { ...base, url: "https://hooks.example.com/" }, "live")).endpoint.url,
    ).toBe("https://hooks.example.com/");
    const { rows } = await bed.db.query(`SELECT 1 FROM webhook_endpoints`);
    expect(rows).toHaveLength(1);
  });
});
