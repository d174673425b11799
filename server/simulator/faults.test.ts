import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "./index";
import { call, okData, pathOf } from "./test-client";

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ rateLimits: "off" });
});
afterEach(() => sim.faults.clear());
afterAll(() => sim.close());

const E8 = pathOf("market.trades");
const trades = () => call(sim.baseUrl, { path: E8, query: { symbol: "BTCUSDT", limit: "1" } });
const oi = () => call(sim.baseUrl, { path: pathOf("oiLimits.list"), query: { productType: "USDT-FUTURES" } });

describe("[simulator][faults] kinds", () => {
  it("[simulator][faults] adds latency", async () => {
    sim.faults.set({ path: E8, kind: "latency", latencyMs: 300 });
    const started = performance.now();
    okData("market.trades", await trades());
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });
  it("[simulator][faults] latency is half on the way in (the platform's requestTime, its rate gate) and half on the way back, each ± jitter", async () => {
    sim.faults.set({ path: E8, kind: "latency", latencyMs: 200, jitterMs: 40 });
    for (let i = 0; i < 5; i++) {
      const sent = Date.now();
      const r = await trades();
      const back = Date.now();
      const seen = Number(r.json?.requestTime);
      // Each half is 100 ± 40 ms: the platform saw the request 60–140 ms after it left, and answered as long before it came back.
      expect(seen - sent).toBeGreaterThanOrEqual(59);
      expect(back - seen).toBeGreaterThanOrEqual(59);
    }
  });
  it("[simulator][faults] a latency rule with jitter only needs latencyMs; jitter is bounded per half", async () => {
    expect(() => sim.faults.set({ kind: "latency", jitterMs: 10 })).toThrow();
    const { halfTripMs } = await import("./faults");
    expect(halfTripMs({ latencyMs: 150, jitterMs: 20 }, () => 0)).toBe(55);
    expect(halfTripMs({ latencyMs: 150, jitterMs: 20 }, () => 0.999999)).toBe(95);
    expect(halfTripMs({ latencyMs: 10, jitterMs: 50 }, () => 0)).toBe(0);
  });
  it("[simulator][faults] answers 500 with an envelope, 502/503 with a gateway page", async () => {
    sim.faults.set({ path: "market.trades", kind: "status", status: 500, count: 1 });
    const r500 = await trades();
    expect([r500.status, r500.json?.code]).toEqual([500, "50000"]);
    sim.faults.set([{ path: E8, kind: "status", status: 502, count: 1 }]);
    const r502 = await trades();
    expect(r502.status).toBe(502);
    expect(r502.json).toBeNull();
    sim.faults.set({ kind: "status", status: 503, count: 1 });
    expect((await oi()).status).toBe(503);
  });
  it("[simulator][faults] resets the connection", async () => {
    sim.faults.set({ path: E8, kind: "reset", count: 1 });
    await expect(trades()).rejects.toThrow();
    okData("market.trades", await trades());
  });
  it("[simulator][faults] sends a malformed JSON body with HTTP 200", async () => {
    sim.faults.set({ path: E8, kind: "malformed", count: 1 });
    const r = await trades();
    expect(r.status).toBe(200);
    expect(r.json).toBeNull();
    expect(() => JSON.parse(r.text) as unknown).toThrow();
  });
  it("[simulator][faults] a 429 storm answers 429 whatever the limits", async () => {
    sim.faults.set({ path: E8, kind: "rate-limit", count: 3 });
    const rs = [await trades(), await trades(), await trades(), await trades()];
    expect(rs.map((r) => r.status)).toEqual([429, 429, 429, 200]);
    expect(rs[0]?.json).toMatchObject({ code: "429", msg: "Too Many Requests", data: null });
  });
});

describe("[simulator][faults] targeting", () => {
  it("[simulator][faults] by count: the next N matching requests only, other paths untouched", async () => {
    sim.faults.set({ path: E8, kind: "status", status: 503, count: 2 });
    expect((await oi()).status).toBe(200);
    expect([(await trades()).status, (await trades()).status, (await trades()).status]).toEqual([503, 503, 200]);
    expect(sim.faults.list()).toEqual([]);
  });
  it("[simulator][faults] by parameters: only requests whose query has those values", async () => {
    sim.faults.set({ path: "market.trades", kind: "status", status: 500, query: { symbol: "ETHUSDT" } });
    const eth = () => call(sim.baseUrl, { path: E8, query: { symbol: "ETHUSDT", limit: "1" } });
    expect([(await trades()).status, (await eth()).status, (await trades()).status]).toEqual([200, 500, 200]);
    expect(sim.faults.list()).toHaveLength(1);
  });
  it("[simulator][faults] by probability: about that share of requests", async () => {
    sim.faults.set({ path: "*", kind: "status", status: 500, probability: 0.5 });
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) statuses.push((await oi()).status);
    const failed = statuses.filter((s) => s === 500).length;
    expect(failed).toBeGreaterThan(10);
    expect(failed).toBeLessThan(50);
  });
  it("[simulator][faults] probability 0 never fires; clear removes every rule", async () => {
    sim.faults.set({ kind: "status", status: 500, probability: 0 });
    expect((await oi()).status).toBe(200);
    sim.faults.set({ kind: "status", status: 500 });
    expect((await oi()).status).toBe(500);
    sim.faults.clear();
    expect((await oi()).status).toBe(200);
  });
  it("[simulator][faults] refuses malformed rules", () => {
    expect(() => sim.faults.set({ kind: "latency" })).toThrow();
    expect(() => sim.faults.set({ kind: "status", status: 404 as 500 })).toThrow();
    expect(() => sim.faults.set({ path: "nowhere", kind: "reset" })).toThrow();
  });
});

describe("[simulator][control] /__sim endpoints", () => {
  const ctl = (method: string, path: string, body?: unknown) =>
    fetch(`${sim.baseUrl}${path}`, {
      method,
      body: body === undefined ? undefined : JSON.stringify(body),
      headers: { "content-type": "application/json" },
    });
  it("[simulator][control] sets and clears faults over HTTP", async () => {
    const set = await ctl("POST", "/__sim/faults", [{ path: E8, kind: "status", status: 502, count: 1 }]);
    expect(set.status).toBe(200);
    expect(((await ctl("GET", "/__sim/faults").then((r) => r.json())) as unknown[]).length).toBe(1);
    expect((await trades()).status).toBe(502);
    await ctl("POST", "/__sim/faults", { kind: "status", status: 500 });
    expect((await trades()).status).toBe(500);
    expect((await ctl("DELETE", "/__sim/faults")).status).toBe(200);
    expect((await trades()).status).toBe(200);
    expect((await ctl("POST", "/__sim/faults", { kind: "nonsense" })).status).toBe(400);
  });
  it("[simulator][control] reads and resets stats; hands out the demo keys", async () => {
    expect((await ctl("POST", "/__sim/stats/reset")).status).toBe(200);
    await trades();
    await trades();
    const stats = (await ctl("GET", "/__sim/stats").then((r) => r.json())) as {
      requests: number;
      operations: Record<string, { requests: number; acceptedTimes: number[] }>;
    };
    expect(stats.requests).toBe(2);
    expect(stats.operations["market.trades"]?.acceptedTimes).toHaveLength(2);
    const keys = (await ctl("GET", "/__sim/keys").then((r) => r.json())) as Record<
      string,
      { apiKey: string; uid: string }
    >;
    expect(keys.brokerMain?.apiKey).toBe(sim.keys.brokerMain.apiKey);
    expect(Object.keys(keys).sort()).toEqual(["brokerMain", "nonBroker", "readOnly", "riskUnit", "rsa"]);
  });
  it("[simulator][control] makes sub-accounts at once: the platform lists them as the broker's (E6 shape); bad bodies are 400", async () => {
    const before = sim.state.subaccountsOf(sim.state.mainUid).length;
    const res = await ctl("POST", "/__sim/subaccounts", { count: 30, prefix: "bulk" });
    expect(res.status).toBe(200);
    const { items } = (await res.json()) as { items: { subUid: string; subaccountName: string; status: string }[] };
    expect(items).toHaveLength(30);
    expect(new Set(items.map((i) => i.subUid)).size).toBe(30);
    expect(items.every((i) => i.status === "normal" && i.subaccountName.startsWith("bulk"))).toBe(true);
    const listed = (await ctl("GET", "/__sim/subaccounts").then((r) => r.json())) as { items: { subUid: string }[] };
    expect(listed.items).toHaveLength(before + 30);
    expect(listed.items.map((i) => i.subUid)).toEqual(expect.arrayContaining(items.map((i) => i.subUid)));
    for (const bad of [{ count: 0 }, { count: 1001 }, { count: 2, prefix: "Bad-Prefix" }, {}])
      expect((await ctl("POST", "/__sim/subaccounts", bad)).status).toBe(400);
  });
  it("[simulator][control] switches rate limits; unknown control paths are 404", async () => {
    const r = await ctl("POST", "/__sim/rate-limits", { mode: "relaxed" });
    expect(await r.json()).toEqual({ ok: true, mode: "relaxed" });
    await ctl("POST", "/__sim/rate-limits", { mode: "off" });
    expect((await ctl("GET", "/__sim/nothing")).status).toBe(404);
    const health = (await ctl("GET", "/__sim/health").then((x) => x.json())) as { ok: boolean; seed: number };
    expect(health).toMatchObject({ ok: true, seed: 42 });
  });
});
