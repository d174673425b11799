// The signed client against the simulator over loopback: every operation, paging, limits and faults.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { catalog } from "@/lib/platform/catalog";
import { startSimulator, type Simulator } from "@/server/simulator";
import { PlatformClient } from "./client";
import { CredentialStore } from "./credentials";
import {
  PlatformError,
  PlatformMalformedResponseError,
  PlatformRequestInvalidError,
  PlatformTimeoutError,
  RateBudgetExceededError,
} from "./errors";

let sim: Simulator;
let client: PlatformClient;
let mainUid: string;
let subs: { uid: string; subaccountName: string }[];
const DAY = 86_400_000;

beforeAll(async () => {
  // Balances are set and then checked to the unit: no pending deposit of the history may settle mid-test and
  // credit one (a 30-minute wait after its creation by default; one did, and a balance read 4853.58 for 997).
  sim = await startSimulator({ port: 0, depositSettleMs: 0 });
  const k = sim.keys.brokerMain;
  const r = sim.keys.riskUnit;
  client = new PlatformClient({
    baseUrl: sim.baseUrl,
    credentials: new CredentialStore({ main: k, riskunit: r }),
    backoffBaseMs: 5,
    timeoutMs: 2_000,
  });
  mainUid = k.uid;
  subs = sim.state.subaccountsOf(mainUid);
});
afterAll(async () => {
  client.close();
  await sim.close();
});

describe("[platform][client+simulator] every operation end to end", () => {
  it("[deposits.list] pages to the end of a sub-account's deposits, each record once, newest first", async () => {
    // The desk with the most deposits, so the walk spans many pages.
    const uid = [...subs].sort((a, b) => sim.state.depositsOf(b.uid).length - sim.state.depositsOf(a.uid).length)[0]!
      .uid;
    const end = Date.now();
    const start = end - 90 * DAY;
    const expected = sim.state.depositsOf(uid).filter((d) => Number(d.cTime) >= start && Number(d.cTime) <= end).length;
    expect(expected).toBeGreaterThan(100);
    const seen = new Set<string>();
    let cursor: string | undefined;
    let last = Number.POSITIVE_INFINITY;
    for (let page = 0; page < 1000; page++) {
      const { data } = await client.call("deposits.list", {
        userId: uid,
        startTime: String(start),
        endTime: String(end),
        limit: "100",
        idLessThan: cursor,
      });
      for (const d of data) {
        expect(seen.has(d.orderId)).toBe(false);
        seen.add(d.orderId);
        expect(Number(d.cTime)).toBeLessThanOrEqual(last);
        last = Number(d.cTime);
      }
      const next = catalog["deposits.list"].paging!.nextCursor(data, 100);
      if (!next) break;
      cursor = next;
    }
    expect(seen.size).toBe(expected);
  }, 60_000);

  it("[subaccounts.assets] [rebates.get] read a sub-account", async () => {
    const uid = subs[1]!.uid;
    const assets = await client.call("subaccounts.assets", { subUid: uid, assetType: "all" });
    expect(assets.data.assetsList.length).toBeGreaterThan(0);
    const rebate = await client.call("rebates.get", { uid });
    expect(rebate.data.userLevel).toMatch(/^(VIP|PRO)\d$/);
  });

  it("[planOrders.history] walks older pages by the returned idLessThan while nextFlag", async () => {
    const end = Date.now();
    let cursor: string | undefined;
    let total = 0;
    for (let i = 0; i < 50; i++) {
      const { data } = await client.call("planOrders.history", {
        symbol: "BTCUSDT",
        startTime: String(end - 90 * DAY),
        endTime: String(end),
        limit: "50",
        idLessThan: cursor,
      });
      total += data.orderList.length;
      const next = catalog["planOrders.history"].paging!.nextCursor(data, 50);
      if (!next) break;
      cursor = next;
    }
    expect(total).toBeGreaterThan(50);
  });

  it("[fills.list] [market.trades] [oiLimits.list] read trading and market data", async () => {
    const fills = await client.call("fills.list", { symbol: "BTCUSDT", limit: "100" });
    expect(fills.data.length).toBeGreaterThan(0);
    expect(fills.data[0]!.cTime).toMatch(/^\d{13}$/);
    const trades = await client.call("market.trades", { symbol: "BTCUSDT", limit: "1000" });
    expect(trades.data).toHaveLength(1000);
    expect(["buy", "sell"]).toContain(trades.data[0]!.side);
    const oi = await client.call("oiLimits.list", { productType: "usdt-futures" });
    expect(oi.data.length).toBeGreaterThan(10);
  });

  it("[subaccounts.create] creates a sub-account that E2 then answers", async () => {
    const name = `ci${Date.now()}@brokerdesk-sim.example`;
    const created = await client.call("subaccounts.create", { subaccountName: name, label: `ci ${Date.now() % 1e6}` });
    expect(created.data.status).toBe("normal");
    const assets = await client.call("subaccounts.assets", { subUid: created.data.subUid });
    expect(assets.data.assetsList).toEqual([]);
  });

  it("[withdrawals.submit] debits once; a repeated clientOid returns the same order and moves nothing", async () => {
    const from = subs[2]!.uid;
    sim.state.setBalance(from, "USDT", "100");
    const body = {
      subUid: from,
      coin: "USDT" as const,
      dest: "internal_transfer" as const,
      address: subs[3]!.uid,
      amount: "12.5",
      clientOid: `bd-${Date.now()}`,
    };
    const first = await client.call("withdrawals.submit", body);
    expect(sim.state.balance(from, "USDT")).toBe("87.5");
    const again = await client.call("withdrawals.submit", body);
    expect(again.data.orderId).toBe(first.data.orderId);
    expect(sim.state.balance(from, "USDT")).toBe("87.5");
    const err = await client
      .call("withdrawals.submit", { ...body, clientOid: `x-${Date.now()}`, amount: "1000" })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "43012" });
  });

  it("[riskUnits.bind] binds with the main key and unbinds with the risk-unit key", async () => {
    const unit = sim.state.riskUnits()[0]!;
    const uid = subs.find((s) => !sim.state.riskUnitOfMember(s.uid) && s.uid !== unit.id)!.uid;
    const bound = await client.call("riskUnits.bind", { uid, operate: "bind", riskUnitId: unit.id });
    expect(bound.data.result).toBe("success");
    expect(sim.state.riskUnitOfMember(uid)?.id).toBe(unit.id);
    if (unit.id === sim.keys.riskUnit.uid) {
      await client.call("riskUnits.bind", { uid, operate: "unbind" }, { key: "riskunit" });
      expect(sim.state.riskUnitOfMember(uid)).toBeUndefined();
    }
  });

  it("[leverage.set] sets leverage and reads the quirky key back", async () => {
    const r = await client.call("leverage.set", {
      symbol: "BTCUSDT",
      productType: "USDT-FUTURES",
      marginCoin: "USDT",
      leverage: "15",
    });
    expect(r.data.crossMarginLeverage).toBe("15");
    const err = await client
      .call("leverage.set", { symbol: "ETHUSDT", productType: "USDT-FUTURES", marginCoin: "USDT", leverage: "15" })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "40019" });
    expect((err as PlatformError).msg).toContain("holdSide");
  });
});

describe("[platform][client+simulator] limits and faults", () => {
  it("keeps within a uid limit: the simulator never answers 429 to a burst", async () => {
    sim.resetStats();
    await Promise.all(Array.from({ length: 30 }, () => client.call("rebates.get", { uid: subs[0]!.uid })));
    const stats = sim.stats();
    expect(stats.http429).toBe(0);
    expect(stats.operations["rebates.get"]?.peakPerSecond ?? 0).toBeLessThanOrEqual(20);
  }, 20_000);

  it("a burst past what the budget can serve in time is refused by Brokerdesk as busy: nothing of it is sent, no platform 429", async () => {
    sim.resetStats();
    const uid = subs[1]!.uid;
    // rebates.get allows 10 calls a second: 40 at once with 1.5 s to wait cannot all be served in time.
    const outcomes = await Promise.allSettled(
      Array.from({ length: 40 }, () => client.call("rebates.get", { uid }, { queueDeadlineMs: 1_500 })),
    );
    const served = outcomes.filter((o) => o.status === "fulfilled").length;
    const busy = outcomes.filter((o) => o.status === "rejected" && o.reason instanceof RateBudgetExceededError);
    expect(served + busy.length).toBe(40);
    expect(busy.length).toBeGreaterThan(0);
    expect(served).toBeGreaterThanOrEqual(10);
    const stats = sim.stats();
    expect(stats.http429).toBe(0);
    // What Brokerdesk refused never reached the platform.
    expect(stats.operations["rebates.get"]?.requests).toBe(served);
  }, 20_000);

  it("retries a GET through a 429 storm and a 503, and never a POST", async () => {
    sim.faults.set([
      { path: "oiLimits.list", kind: "rate-limit", count: 1 },
      { path: "oiLimits.list", kind: "status", status: 503, count: 1 },
    ]);
    const r = await client.call("oiLimits.list", { productType: "USDT-FUTURES" });
    expect(r.attempts).toBe(3);
    sim.faults.set({ path: "leverage.set", kind: "status", status: 500, count: 1 });
    sim.resetStats();
    await expect(
      client.call("leverage.set", {
        symbol: "BTCUSDT",
        productType: "USDT-FUTURES",
        marginCoin: "USDT",
        leverage: "10",
      }),
    ).rejects.toBeInstanceOf(PlatformError);
    expect(sim.stats().operations["leverage.set"]?.requests).toBe(1);
    sim.faults.clear();
  });

  it("reports malformed JSON, resets and latency past the timeout as typed errors", async () => {
    sim.faults.set({ path: "rebates.get", kind: "malformed", count: 1 });
    await expect(client.call("rebates.get", { uid: subs[0]!.uid })).rejects.toBeInstanceOf(
      PlatformMalformedResponseError,
    );
    sim.faults.set({ path: "rebates.get", kind: "reset", count: 1 });
    expect((await client.call("rebates.get", { uid: subs[0]!.uid })).attempts).toBe(2);
    sim.faults.set({ path: "rebates.get", kind: "latency", latencyMs: 3_000 });
    const quick = new PlatformClient({
      baseUrl: sim.baseUrl,
      credentials: new CredentialStore({ main: sim.keys.brokerMain }),
      timeoutMs: 300,
      retries: 0,
    });
    await expect(quick.call("rebates.get", { uid: subs[0]!.uid })).rejects.toBeInstanceOf(PlatformTimeoutError);
    quick.close();
    sim.faults.clear();
  });

  it("maps the simulator's auth refusals to PlatformError with the platform's code", async () => {
    const bad = new PlatformClient({
      baseUrl: sim.baseUrl,
      credentials: new CredentialStore({ main: { ...sim.keys.brokerMain, apiSecret: "wrong" }, ro: sim.keys.readOnly }),
    });
    await expect(bad.call("rebates.get", { uid: subs[0]!.uid })).rejects.toMatchObject({
      code: "40009",
      httpStatus: 400,
      msg: "sign signature error",
    });
    await expect(
      bad.call(
        "leverage.set",
        { symbol: "BTCUSDT", productType: "USDT-FUTURES", marginCoin: "USDT", leverage: "10" },
        { key: "ro" },
      ),
    ).rejects.toMatchObject({ code: "40014" });
    bad.close();
  });

  it("[key] a key named readonly… is refused E9 and E10 before anything is sent, and still reads", async () => {
    const ro = new PlatformClient({
      baseUrl: sim.baseUrl,
      credentials: new CredentialStore({ main: sim.keys.brokerMain, readonly: sim.keys.readOnly }),
    });
    sim.resetStats();
    const unit = sim.state.riskUnits()[0]!;
    for (const [id, input] of [
      ["riskUnits.bind", { uid: subs[1]!.uid, riskUnitId: unit.id, operate: "bind" }],
      ["leverage.set", { symbol: "BTCUSDT", productType: "USDT-FUTURES", marginCoin: "USDT", leverage: "10" }],
    ] as const) {
      const err = await ro.call(id, input as never, { key: "readonly" }).catch((e: unknown) => e);
      expect(err, id).toBeInstanceOf(PlatformRequestInvalidError);
      expect((err as PlatformRequestInvalidError).fieldErrors.key?.[0], id).toMatch(/"readonly" is read-only/);
    }
    expect(sim.stats().requests).toBe(0);
    expect((await ro.call("fills.list", { symbol: "BTCUSDT" }, { key: "readonly" })).envelope.code).toBe("00000");
    ro.close();
  });

  it("signs with an RSA key", async () => {
    const rsa = new PlatformClient({ baseUrl: sim.baseUrl, credentials: new CredentialStore({ main: sim.keys.rsa }) });
    const r = await rsa.call("rebates.get", { uid: subs[0]!.uid });
    expect(r.data.userLevel).toBeTruthy();
    rsa.close();
  });
});
