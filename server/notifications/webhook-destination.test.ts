import "server-only";
// Live mode never posts into Brokerdesk's own network: a URL whose host is, or resolves to, a private, loopback,
// link-local or unique-local address is refused at adding (on the field url, nothing written), and at sending,
// where the connection's own lookup refuses it (a name that resolved elsewhere when it was added, DNS rebinding):
// a failed attempt saying why, nothing received. `localhost` resolves to 127.0.0.1 through /etc/hosts. The same
// delivery in simulator mode reaches the receiver: the refusal is the guard's, not an unreachable host.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseTestBed, testEngines } from "@/server/db/testing";
import { addStaff, domainRefusal, staffSession } from "@/server/testing";
import { deliverWebhooks, fanOutWebhooks } from "./webhook-deliver";
import { isPrivateAddress, privateAddressOf } from "./webhook-destination";
import { createWebhook } from "./webhook-endpoints";
import { newWebhookSecret, sealWebhookSecret } from "./webhook-sign";

const admin = staffSession("admin", "dada");

describe("[notifications][webhook-destination] private addresses", () => {
  it.each([
    ["127.0.0.1", true],
    ["127.9.9.9", true],
    ["10.0.0.8", true],
    ["172.16.0.1", true],
    ["172.31.255.255", true],
    ["192.168.1.1", true],
    ["169.254.169.254", true],
    ["0.0.0.0", true],
    ["100.64.0.1", true],
    ["::1", true],
    ["[::1]", true],
    ["::", true],
    ["fc00::1", true],
    ["fd12:3456::1", true],
    ["fe80::1", true],
    ["::ffff:127.0.0.1", true],
    ["::ffff:10.1.2.3", true],
    ["::ffff:7f00:1", true],
    ["224.0.0.251", true],
    ["255.255.255.255", true],
    ["198.18.0.1", true],
    ["ff02::1", true],
    ["64:ff9b::7f00:1", true],
    ["2002:7f00:1::1", true],
    ["8.8.8.8", false],
    ["172.32.0.1", false],
    ["2001:4860:4860::8888", false],
    ["hooks.example.com", false],
  ])("%s is private: %s", (address, expected) => {
    expect(isPrivateAddress(address)).toBe(expected);
  });

  it("localhost resolves to loopback (through /etc/hosts): its address is answered", async () => {
    expect(await privateAddressOf("localhost")).toMatch(/^(127\.|::1$)/);
    expect(await privateAddressOf("8.8.8.8")).toBeNull();
  });
});

describe.each(testEngines(process.env.TEST_DATABASE_URL))(
  "[notifications][webhook-destination] on $engine",
  (engine) => {
    const bed = databaseTestBed(engine);
    const got: string[] = [];
    const server: Server = createServer((req, res) => {
      got.push(req.url ?? "");
      req.resume().on("end", () => res.writeHead(204).end());
    });
    let port = 0;
    beforeAll(async () => {
      await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
      port = (server.address() as AddressInfo).port;
    });
    afterAll(() => new Promise<void>((ok) => server.close(() => ok())));

    it("[notifications][webhook-destination] live mode refuses, at adding, a host that resolves to loopback", async () => {
      await bed.db.query("TRUNCATE webhook_deliveries, webhook_endpoints, notification_events CASCADE");
      await addStaff(bed.db, [admin]);
      const base = {
        format: "standard" as const,
        audienceRole: "lead" as const,
        events: ["withdrawal.decided" as const],
      };
      for (const url of [
        `https://localhost:${port}/x`,
        "https://[::1]/x",
        "https://[fd00::1]/x",
        "https://169.254.169.254/x",
      ]) {
        const e = await domainRefusal(createWebhook(bed.db, admin, { ...base, url }, "live"));
        expect(e.code).toBe("invalid_input");
        expect(String(e.fieldErrors?.url)).toMatch(/loopback or private address/);
      }
      expect((await bed.db.query(`SELECT 1 FROM webhook_endpoints`)).rows).toHaveLength(0);
    });

    it("[notifications][webhook-destination] live mode refuses, at connecting, a name that now resolves to loopback", async () => {
      await bed.db.query("TRUNCATE webhook_deliveries, webhook_endpoints, notification_events CASCADE");
      got.length = 0;
      // As if added while the name resolved to a public address: the row as an admin's confirmation leaves it.
      for (const [id, host] of [
        ["1", "localhost"],
        ["2", "127.0.0.1"],
      ] as const) {
        await bed.db.query(
          `INSERT INTO webhook_endpoints (id, url, format, audience_role, events, state, secret_sealed, created_by,
           active_since)
         VALUES ($1, $2, 'standard', 'lead', '{withdrawal.awaiting_approval}', 'active', $3, 'a@test',
                 now() - interval '1 hour')`,
          [id, `http://${host}:${port}/hook-${id}`, sealWebhookSecret(newWebhookSecret(), id)],
        );
      }
      await bed.db.query(
        `INSERT INTO notification_events (type, payload, audience) VALUES ('withdrawal.awaiting_approval',
         '{"withdrawalId": "1", "subUid": "9", "coin": "USDT", "amount": "5", "requestedBy": "b@test"}',
         '{"permission": "withdrawals.approve"}')`,
      );
      const now = new Date();
      await fanOutWebhooks(bed.db, now);
      expect(await deliverWebhooks(bed.db, { now, mode: "live", baseUrl: "https://b.example" })).toMatchObject({
        claimed: 2,
        sent: 0,
        failed: 2,
      });
      expect(got).toEqual([]);
      const { rows } = await bed.db.query<{ endpoint_id: string; state: string; last_error: string }>(
        `SELECT endpoint_id::text, state, last_error FROM webhook_deliveries ORDER BY endpoint_id`,
      );
      expect(rows.map((r) => r.state)).toEqual(["queued", "queued"]);
      expect(rows[0]!.last_error).toMatch(
        /^refused: localhost is a private or loopback address \((127\.0\.0\.1|::1)\)/,
      );
      expect(rows[1]!.last_error).toMatch(/^refused: 127\.0\.0\.1 is a private or loopback address/);
      // The same deliveries, due again, in simulator mode: they arrive (the host was reachable all along).
      const later = new Date(now.getTime() + 120_000);
      expect(
        await deliverWebhooks(bed.db, { now: later, mode: "simulator", baseUrl: "https://b.example" }),
      ).toMatchObject({
        sent: 2,
      });
      expect(got.sort()).toEqual(["/hook-1", "/hook-2"]);
    });
  },
);
