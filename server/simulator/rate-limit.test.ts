import { afterEach, describe, expect, it } from "vitest";
import { startSimulator, type Simulator, type StartSimulatorOptions } from "./index";
import { peakInWindow } from "./stats";
import { call, pathOf, type CallResult } from "./test-client";

const sims: Simulator[] = [];
async function sim(options: StartSimulatorOptions = {}): Promise<Simulator> {
  const s = await startSimulator(options);
  sims.push(s);
  return s;
}
afterEach(async () => {
  await Promise.all(sims.splice(0).map((s) => s.close()));
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const codes = (rs: CallResult[]) => rs.map((r) => r.json?.code);

function deposits(s: Simulator, key = s.keys.brokerMain, query: Record<string, string> = {}) {
  const userId = s.state.subaccountsOf(s.state.mainUid)[0]?.uid ?? "";
  return call(s.baseUrl, { path: pathOf("deposits.list"), query: { userId, limit: "1", ...query }, key });
}

describe("[simulator][rate-limit] per uid", () => {
  it("[simulator][rate-limit] lets 10 E1 calls through in a second and refuses the 11th with 429, then recovers", async () => {
    const s = await sim();
    const first = await Promise.all(Array.from({ length: 10 }, () => deposits(s)));
    expect(codes(first).every((c) => c === "00000")).toBe(true);
    const over = await deposits(s);
    expect(over.status).toBe(429);
    expect(over.json).toMatchObject({ code: "429", msg: "Too Many Requests", data: null });
    expect(Object.keys(over.json ?? {})).toEqual(["code", "msg", "requestTime", "data"]);
    expect(typeof over.json?.requestTime).toBe("number");
    await sleep(1_050);
    expect((await deposits(s)).json?.code).toBe("00000");
    const stats = s.stats();
    expect(stats.http429).toBe(1);
    expect(stats.operations["deposits.list"]?.http429).toBe(1);
    expect(stats.operations["deposits.list"]?.accepted).toBe(11);
    expect(stats.operations["deposits.list"]?.peakPerSecond).toBe(10);
  });

  it("[simulator][rate-limit] E5 and E6 allow one call a second", async () => {
    const s = await sim();
    const names = ["rl1", "rl2"].map((n) => ({ subaccountName: `${n}@x.example` }));
    const rs = await Promise.all(
      names.map((body) =>
        call(s.baseUrl, { method: "POST", path: pathOf("subaccounts.create"), body, key: s.keys.brokerMain }),
      ),
    );
    expect(codes(rs).sort()).toEqual(["00000", "429"]);
  });

  it("[simulator][rate-limit] keys of one account share its budget", async () => {
    const s = await sim();
    const rs = await Promise.all([
      ...Array.from({ length: 5 }, () => deposits(s, s.keys.brokerMain)),
      ...Array.from({ length: 5 }, () => deposits(s, s.keys.readOnly)),
    ]);
    expect(codes(rs).every((c) => c === "00000")).toBe(true);
    expect((await deposits(s, s.keys.rsa)).status).toBe(429);
  });

  it("[simulator][rate-limit] counts only requests that pass authentication", async () => {
    const s = await sim();
    const bad = { ...s.keys.brokerMain, apiSecret: "wrong" };
    const refused = await Promise.all(Array.from({ length: 15 }, () => deposits(s, bad)));
    expect(codes(refused).every((c) => c === "40009")).toBe(true);
    const good = await Promise.all(Array.from({ length: 10 }, () => deposits(s)));
    expect(codes(good).every((c) => c === "00000")).toBe(true);
  });

  it("[simulator][rate-limit] checks the limit before the parameters, and bad parameters use the budget", async () => {
    const s = await sim();
    const invalid = await Promise.all(
      Array.from({ length: 10 }, () => deposits(s, s.keys.brokerMain, { limit: "1000" })),
    );
    expect(codes(invalid).every((c) => c === "40020")).toBe(true);
    expect((await deposits(s, s.keys.brokerMain, { limit: "1000" })).status).toBe(429);
  });
});

describe("[simulator][rate-limit] per IP", () => {
  it("[simulator][rate-limit] public E8 allows 10 a second per IP, signed or not", async () => {
    const s = await sim();
    const trades = (signed: boolean) =>
      call(s.baseUrl, {
        path: pathOf("market.trades"),
        query: { symbol: "ETHUSDT", limit: "1" },
        key: signed ? s.keys.brokerMain : null,
      });
    const rs = await Promise.all(Array.from({ length: 10 }, (_, i) => trades(i % 2 === 0)));
    expect(codes(rs).every((c) => c === "00000")).toBe(true);
    const over = await trades(false);
    expect(over.status).toBe(429);
    expect(over.json?.code).toBe("429");
  });
});

describe("[simulator][rate-limit] switches", () => {
  it("[simulator][rate-limit] relaxed multiplies limits by 100", async () => {
    const s = await sim({ rateLimits: "relaxed" });
    const rs = await Promise.all(Array.from({ length: 40 }, () => deposits(s)));
    expect(codes(rs).every((c) => c === "00000")).toBe(true);
  });
  it("[simulator][rate-limit] off disables them, and stats still show the peak a client reached", async () => {
    const s = await sim({ rateLimits: "off" });
    const rs = await Promise.all(Array.from({ length: 25 }, () => deposits(s)));
    expect(codes(rs).every((c) => c === "00000")).toBe(true);
    expect(s.stats().operations["deposits.list"]?.peakPerSecond).toBe(25);
    s.setRateLimits("on");
    await Promise.all(Array.from({ length: 10 }, () => deposits(s)));
    expect((await deposits(s)).status).toBe(429);
  });
  it("[simulator][rate-limit] peakInWindow counts a sliding second", () => {
    expect(peakInWindow([0, 100, 999, 1000, 1999], 1000)).toBe(3);
    expect(peakInWindow([0, 1000, 2000], 1000)).toBe(1);
    expect(peakInWindow([], 1000)).toBe(0);
  });
});
