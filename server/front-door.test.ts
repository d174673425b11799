// Who the client is: the socket's address unless TRUST_PROXY says the peer is a proxy.
// Pure cases first, then a real server on loopback reached from two different source addresses.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseTrustProxy, type TrustProxy } from "@/lib/env";
import { normaliseForwarding, resolveClient } from "./front-door.mjs";

const trust = (raw: string) => parseTrustProxy(raw) as TrustProxy;

describe("[security][client-ip] resolveClient", () => {
  it("[security][client-ip] off (the default): the socket's address, whatever X-Forwarded-For claims", () => {
    expect(resolveClient("10.1.1.1", "203.0.113.7", trust(""))).toEqual({ client: "10.1.1.1", viaProxy: false });
    expect(resolveClient("::ffff:10.1.1.1", undefined, trust(""))).toEqual({ client: "10.1.1.1", viaProxy: false });
  });

  it("[security][client-ip] a hop count: that many proxies, the address before them is the client", () => {
    expect(resolveClient("10.0.0.2", "203.0.113.7", trust("1")).client).toBe("203.0.113.7");
    // A client that prepends its own claim does not get past the proxies' count.
    expect(resolveClient("10.0.0.2", "6.6.6.6, 203.0.113.7", trust("1")).client).toBe("203.0.113.7");
    expect(resolveClient("10.0.0.2", "6.6.6.6, 203.0.113.7, 10.0.0.9", trust("2")).client).toBe("203.0.113.7");
    // Fewer entries than hops: the furthest address known.
    expect(resolveClient("10.0.0.2", undefined, trust("2")).client).toBe("10.0.0.2");
  });

  it("[security][client-ip] a CIDR list: walk back while the address is a listed proxy", () => {
    const t = trust("10.0.0.0/8, 192.168.1.7");
    expect(resolveClient("10.0.0.2", "6.6.6.6, 203.0.113.7, 192.168.1.7", t)).toEqual({
      client: "203.0.113.7",
      viaProxy: true,
    });
    // An untrusted peer's header is ignored altogether.
    expect(resolveClient("198.51.100.1", "203.0.113.7", t)).toEqual({ client: "198.51.100.1", viaProxy: false });
    // Garbage in the chain ends the walk at the last proxy that handed it on.
    expect(resolveClient("10.0.0.2", "203.0.113.7, not-an-ip", t).client).toBe("10.0.0.2");
    expect(resolveClient("::ffff:10.9.9.9", "[2001:db8::1]", t).client).toBe("2001:db8::1");
  });
});

describe("[security][client-ip] normaliseForwarding on a real server", () => {
  let server: http.Server;
  let port = 0;
  const rule = trust("127.0.0.2");
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      normaliseForwarding(req, rule);
      res.setHeader("content-type", "application/json");
      res.end(
        JSON.stringify({
          xff: req.headers["x-forwarded-for"] ?? null,
          host: req.headers["x-forwarded-host"] ?? null,
          realIp: req.headers["x-real-ip"] ?? null,
        }),
      );
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const ask = (localAddress: string, headers: Record<string, string>) =>
    new Promise<Record<string, string | null>>((resolve, reject) => {
      const req = http.request({ host: "127.0.0.1", port, path: "/", localAddress, headers, agent: false }, (res) => {
        let body = "";
        res.on("data", (c: Buffer) => (body += c.toString()));
        res.on("end", () => resolve(JSON.parse(body) as Record<string, string | null>));
      });
      req.on("error", reject);
      req.end();
    });

  it("[security][client-ip] from an untrusted peer: its own address, the forged headers dropped", async () => {
    expect(
      await ask("127.0.0.1", {
        "x-forwarded-for": "203.0.113.7",
        "x-forwarded-host": "evil.example",
        "x-real-ip": "203.0.113.8",
      }),
    ).toEqual({
      xff: "127.0.0.1",
      host: null,
      realIp: null,
    });
  });

  it("[security][client-ip] from the trusted proxy: the address it forwarded, its host hint kept", async () => {
    expect(await ask("127.0.0.2", { "x-forwarded-for": "203.0.113.7", "x-forwarded-host": "desk.example" })).toEqual({
      xff: "203.0.113.7",
      host: "desk.example",
      realIp: null,
    });
  });
});
