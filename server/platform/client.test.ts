import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { PlatformClient } from "./client";
import { CredentialStore } from "./credentials";
import { SlidingWindowLimiter, type SlotAnswer } from "./limiter";
import {
  PlatformError,
  PlatformMalformedResponseError,
  PlatformNetworkError,
  PlatformRequestInvalidError,
  PlatformTimeoutError,
} from "./errors";
import { prehash } from "@/lib/platform/protocol";
import { sign } from "./sign";

type Seen = { method: string; url: string; headers: http.IncomingHttpHeaders; body: string; at: number };
type Reply = (req: Seen, res: http.ServerResponse) => void;

const KEY = { apiKey: "k-test-1", apiSecret: "s-test-secret-1", passphrase: "p-test-pass-1" };
const ok = (data: unknown, requestTime = Date.now()) =>
  JSON.stringify({ code: "00000", msg: "success", requestTime, data });
const REBATE = {
  affiliationType: "affiliate",
  userLevel: "VIP1",
  clientSpotRebateRatio: "0.1",
  clientFuturesRebateRatio: "0.1",
};
/** A well-formed empty answer for whichever operation was asked. */
const defaultReply: Reply = (r, res) => res.end(ok(r.url.includes("rebate-info") ? REBATE : []));

let server: http.Server;
let baseUrl: string;
let seen: Seen[] = [];
let replies: Reply[] = [];
let fallback: Reply = defaultReply;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const s: Seen = {
        method: req.method!,
        url: req.url!,
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
        at: performance.now(),
      };
      seen.push(s);
      (replies.shift() ?? fallback)(s, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
afterEach(() => {
  seen = [];
  replies = [];
  fallback = defaultReply;
});

function client(extra: Partial<ConstructorParameters<typeof PlatformClient>[0]> = {}) {
  return new PlatformClient({
    baseUrl,
    credentials: new CredentialStore({ main: KEY, riskunit: { apiKey: "rk", apiSecret: "rs", passphrase: "rp" } }),
    backoffBaseMs: 5,
    timeoutMs: 2_000,
    ...extra,
  });
}

describe("[platform][client] requests on the wire", () => {
  it("signs a GET over the sorted, encoded query exactly as sent", async () => {
    const c = client();
    await c.call("fills.list", { symbol: "$DEGENUSDT", orderId: "a:b,c d", limit: "100" });
    const r = seen[0]!;
    expect(r.method).toBe("GET");
    expect(r.url).toBe("/api/v2/spot/trade/fills?limit=100&orderId=a%3Ab%2Cc%20d&symbol=%24DEGENUSDT");
    expect(r.headers["access-key"]).toBe(KEY.apiKey);
    expect(r.headers["access-passphrase"]).toBe(KEY.passphrase);
    expect(r.headers["content-type"]).toBe("application/json");
    expect(r.headers.locale).toBe("en-US");
    const ts = String(r.headers["access-timestamp"]);
    expect(Math.abs(Number(ts) - Date.now())).toBeLessThan(5_000);
    const [path, query] = r.url.split("?") as [string, string];
    expect(r.headers["access-sign"]).toBe(sign(KEY.apiSecret, prehash(ts, "GET", path, query, "")));
    c.close();
  });

  it("signs a POST over the exact body bytes it sends", async () => {
    fallback = (_r, res) =>
      res.end(
        ok({
          symbol: "BTCUSDT",
          marginCoin: "USDT",
          longLeverage: "20",
          shortLeverage: "20",
          crossMarginLeverage: "20",
          marginMode: "crossed",
        }),
      );
    const c = client();
    const res = await c.call("leverage.set", {
      symbol: "BTCUSDT",
      productType: "USDT-FUTURES",
      marginCoin: "USDT",
      leverage: "20",
    });
    const r = seen[0]!;
    expect(r.url).toBe("/api/v2/mix/account/set-leverage");
    expect(JSON.parse(r.body)).toEqual({
      symbol: "BTCUSDT",
      productType: "USDT-FUTURES",
      marginCoin: "USDT",
      leverage: "20",
    });
    const ts = String(r.headers["access-timestamp"]);
    expect(r.headers["access-sign"]).toBe(sign(KEY.apiSecret, prehash(ts, "POST", r.url, "", r.body)));
    expect(res.data.shortLeverage).toBe("20");
    c.close();
  });

  it("sends public operations unsigned", async () => {
    const c = client();
    await c.call("oiLimits.list", { productType: "USDT-FUTURES" });
    expect(seen[0]!.headers["access-key"]).toBeUndefined();
    expect(seen[0]!.headers["access-sign"]).toBeUndefined();
    expect(seen[0]!.url).toBe("/api/v2/mix/market/oi-limit?productType=USDT-FUTURES");
    c.close();
  });

  it("keeps a base-URL path prefix on the wire but signs the bare platform path", async () => {
    const c = client({ baseUrl: `${baseUrl}/sim/` });
    await c.call("rebates.get", { uid: "123" });
    const r = seen[0]!;
    expect(r.url).toBe("/sim/api/v2/broker/rebate-info?uid=123");
    const ts = String(r.headers["access-timestamp"]);
    expect(r.headers["access-sign"]).toBe(
      sign(KEY.apiSecret, prehash(ts, "GET", "/api/v2/broker/rebate-info", "uid=123", "")),
    );
    c.close();
  });

  it("uses a named key when asked", async () => {
    const c = client();
    await c.call("fills.list", {}, { key: "riskunit" });
    expect(seen[0]!.headers["access-key"]).toBe("rk");
    await expect(c.call("fills.list", {}, { key: "nope" })).rejects.toThrow(/No platform key named "nope"/);
    c.close();
  });

  it("refuses invalid input before sending anything, naming the field", async () => {
    const c = client();
    const err = await c.call("subaccounts.create", { subaccountName: "not-an-email" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PlatformRequestInvalidError);
    expect((err as PlatformRequestInvalidError).fieldErrors.subaccountName?.[0]).toMatch(/e-mail/);
    const e9 = await c.call("riskUnits.bind", { uid: "1", operate: "bind" }).catch((e: unknown) => e);
    expect((e9 as PlatformRequestInvalidError).fieldErrors.riskUnitId).toBeDefined();
    expect(seen).toHaveLength(0);
    c.close();
  });
});

describe("[platform][client] errors and retries", () => {
  it("maps a platform error at HTTP 400 to PlatformError with code, msg, status and operation", async () => {
    replies.push((_r, res) => {
      res.statusCode = 400;
      res.end(JSON.stringify({ code: "40009", msg: "sign signature error", requestTime: Date.now(), data: null }));
    });
    const c = client();
    const err = (await c.call("rebates.get", { uid: "1" }).catch((e: unknown) => e)) as PlatformError;
    expect(err).toBeInstanceOf(PlatformError);
    expect([err.code, err.msg, err.httpStatus, err.operationId]).toEqual([
      "40009",
      "sign signature error",
      400,
      "rebates.get",
    ]);
    expect(seen).toHaveLength(1);
    c.close();
  });

  it("treats HTTP 200 with a non-00000 code as a failure", async () => {
    replies.push((_r, res) =>
      res.end(JSON.stringify({ code: "43012", msg: "Insufficient balance", requestTime: Date.now(), data: null })),
    );
    const c = client();
    await expect(c.call("rebates.get", { uid: "1" })).rejects.toMatchObject({ code: "43012", httpStatus: 200 });
    c.close();
  });

  it("retries a GET on 5xx, 429 and a reset connection, then succeeds", async () => {
    replies.push((_r, res) => {
      res.statusCode = 503;
      res.end("busy");
    });
    replies.push((_r, res) => {
      res.statusCode = 429;
      res.end(JSON.stringify({ code: "429", msg: "Too Many Requests", requestTime: Date.now(), data: null }));
    });
    const c = client({ retries: 3 });
    const r = await c.call("oiLimits.list", { productType: "USDT-FUTURES" });
    expect(r.attempts).toBe(3);
    replies.push((_r, res) => res.socket?.destroy());
    const r2 = await c.call("oiLimits.list", { productType: "USDT-FUTURES" });
    expect(r2.attempts).toBe(2);
    c.close();
  });

  it("gives up after the bounded number of GET attempts", async () => {
    fallback = (_r, res) => {
      res.statusCode = 500;
      res.end(JSON.stringify({ code: "50000", msg: "System busy", requestTime: Date.now(), data: null }));
    };
    const c = client({ retries: 2 });
    await expect(c.call("oiLimits.list", { productType: "USDT-FUTURES" })).rejects.toMatchObject({
      code: "50000",
      httpStatus: 500,
    });
    expect(seen).toHaveLength(3);
    c.close();
  });

  it("never retries a POST", async () => {
    fallback = (_r, res) => {
      res.statusCode = 502;
      res.end("bad gateway");
    };
    const c = client({ retries: 5 });
    await expect(
      c.call("withdrawals.submit", { subUid: "1", coin: "USDT", dest: "internal_transfer", address: "2", amount: "1" }),
    ).rejects.toBeInstanceOf(PlatformError);
    expect(seen).toHaveLength(1);
    fallback = (_r, res) => res.socket?.destroy();
    const err = await c
      .call("withdrawals.submit", { subUid: "1", coin: "USDT", dest: "internal_transfer", address: "2", amount: "1" })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PlatformNetworkError);
    expect((err as PlatformNetworkError).requestSent).toBe(true);
    expect(seen).toHaveLength(2);
    c.close();
  });

  it("reports malformed JSON and a wrong data shape as PlatformMalformedResponseError", async () => {
    replies.push((_r, res) => res.end("{not json"));
    replies.push((_r, res) => res.end(ok({ nope: true })));
    const c = client();
    await expect(c.call("rebates.get", { uid: "1" })).rejects.toBeInstanceOf(PlatformMalformedResponseError);
    await expect(c.call("oiLimits.list", { productType: "USDT-FUTURES" })).rejects.toBeInstanceOf(
      PlatformMalformedResponseError,
    );
    c.close();
  });

  it("times out a call that takes too long, marking whether the request left", async () => {
    fallback = (r, res) => setTimeout(() => defaultReply(r, res), 1_000);
    const c = client({ timeoutMs: 150, retries: 0 });
    const t0 = performance.now();
    const err = (await c.call("rebates.get", { uid: "1" }).catch((e: unknown) => e)) as PlatformTimeoutError;
    expect(err).toBeInstanceOf(PlatformTimeoutError);
    expect(err.phase).toBe("total");
    expect(err.requestSent).toBe(true);
    expect(performance.now() - t0).toBeLessThan(800);
    c.close();
  });
});

describe("[platform][client] clock and limits", () => {
  it("corrects its timestamps to the platform's clock and resends once after 40008", async () => {
    const ahead = 120_000;
    replies.push((_r, res) => {
      res.statusCode = 400;
      res.end(
        JSON.stringify({
          code: "40008",
          msg: "Request timestamp expired",
          requestTime: Date.now() + ahead,
          data: null,
        }),
      );
    });
    fallback = (_r, res) => res.end(ok(REBATE, Date.now() + ahead));
    const c = client();
    await c.call("rebates.get", { uid: "1" });
    expect(seen).toHaveLength(2);
    const drift = Number(seen[1]!.headers["access-timestamp"]) - Date.now();
    expect(Math.abs(drift - ahead)).toBeLessThan(2_000);
    expect(Math.abs(c.clockOffsetMs - ahead)).toBeLessThan(2_000);
    c.close();
  });

  it("never sends more than the operation's limit in a one-second window (E11, 10/s per IP)", async () => {
    const c = client();
    await Promise.all(Array.from({ length: 25 }, () => c.call("oiLimits.list", { productType: "USDT-FUTURES" })));
    const times = seen.map((s) => s.at).sort((a, b) => a - b);
    for (let i = 10; i < times.length; i++) expect(times[i]! - times[i - 10]!).toBeGreaterThanOrEqual(1000);
    c.close();
  }, 10_000);

  it("holds a slot one timeout longer when its caller's deadline cut a request already sent (it may still reach the platform)", async () => {
    const holds: number[] = [];
    class Recording extends SlidingWindowLimiter {
      override async acquire(...args: Parameters<SlidingWindowLimiter["acquire"]>) {
        const release = await super.acquire(...args);
        return (answer: SlotAnswer = {}) => (holds.push(answer.extraHoldMs ?? 0), release(answer));
      }
    }
    // Each signal is cut once the platform has the request (a fixed 100 ms missed it on a loaded machine).
    let arrived = () => undefined as void;
    fallback = (_r, res) => {
      arrived();
      setTimeout(() => res.end(ok(REBATE)), 400);
    };
    const c = client({ limiter: new Recording() });
    const cut = (signal: AbortSignal) =>
      c.call("rebates.get", { uid: "1" }, { signal }).catch((e: unknown) => e) as Promise<PlatformNetworkError>;
    // As the proxy route passes it: the page's own signal or the route's deadline (a TimeoutError), whichever
    // comes first.
    const routeDeadline = new AbortController();
    arrived = () => routeDeadline.abort(new DOMException("The operation timed out.", "TimeoutError"));
    const deadline = await cut(AbortSignal.any([new AbortController().signal, routeDeadline.signal]));
    expect(deadline).toBeInstanceOf(PlatformNetworkError);
    expect(deadline.requestSent).toBe(true);
    const leaving = new AbortController();
    arrived = () => leaving.abort();
    expect((await cut(leaving.signal)).requestSent).toBe(true);
    arrived = () => undefined;
    await c.call("rebates.get", { uid: "1" });
    // The deadline's: the client's timeout (2 s here) more; the page that went away and the answered one: none.
    expect(holds).toEqual([2_000, 0, 0]);
    c.close();
  });

  it("logs one line per call without any secret", async () => {
    const lines: unknown[] = [];
    const log = { info: (o: unknown) => lines.push(o), warn: (o: unknown) => lines.push(o) };
    const c = client({ logger: log as never });
    await c.call("rebates.get", { uid: "1" });
    replies.push((_r, res) => {
      res.statusCode = 400;
      res.end(
        JSON.stringify({ code: "40012", msg: "apikey/password is incorrect", requestTime: Date.now(), data: null }),
      );
    });
    const err = await c.call("rebates.get", { uid: "1" }).catch((e: unknown) => e);
    const text = JSON.stringify(lines) + String(err) + JSON.stringify(err);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ op: "rebates.get", attempt: 1, code: "00000", key: "main" });
    for (const secret of [KEY.apiKey, KEY.apiSecret, KEY.passphrase]) expect(text).not.toContain(secret);
    c.close();
  });
});

describe("[platform][client] kept-alive sockets", () => {
  /** A platform stand-in whose idle sockets close after `keepAliveMs` (Node announces it as Keep-Alive: timeout=N). */
  async function platform(keepAliveMs: number, replyAfterMs = 0) {
    const srv = http.createServer((_req, res) => {
      setTimeout(() => res.end(ok(REBATE)), replyAfterMs);
    });
    srv.keepAliveTimeout = keepAliveMs;
    await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
    const open = () => new Promise<number>((r, j) => srv.getConnections((e, n) => (e ? j(e) : r(n))));
    const close = () => new Promise<void>((r) => (srv.closeAllConnections(), srv.close(() => r())));
    return { url, open, close };
  }
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it("closes an idle socket 1 s before the server's announced keep-alive ends, so no request races the server's close", async () => {
    const p = await platform(2_000);
    const c = client({ baseUrl: p.url });
    await c.call("rebates.get", { uid: "123" });
    expect(await p.open()).toBe(1);
    // The server would close at 2 s; the client has closed at 1 s (the hint less Node's 1 s buffer).
    await sleep(1_500);
    expect(await p.open()).toBe(0);
    c.close();
    await p.close();
  });

  it("closes a socket idle for idleSocketMs even when the server announces a longer keep-alive", async () => {
    const p = await platform(30_000);
    const c = client({ baseUrl: p.url, idleSocketMs: 300 });
    await c.call("rebates.get", { uid: "123" });
    await sleep(700);
    expect(await p.open()).toBe(0);
    c.close();
    await p.close();
  });

  it("does not cut a request whose answer takes longer than idleSocketMs", async () => {
    const p = await platform(30_000, 800);
    const c = client({ baseUrl: p.url, idleSocketMs: 300 });
    const res = await c.call("rebates.get", { uid: "123" });
    expect(res.data).toMatchObject({ userLevel: "VIP1" });
    c.close();
    await p.close();
  });
});
