// A simulator at a broker's scale: SIM_SUBACCOUNTS, live deposits, pending → success,
// the platform's clock and retention, balances that follow deposits. Timings are in
// scripts/bench/simulator-scale.ts, not here.
import Big from "big.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import first25 from "./fixtures/seed42-first25.json";
import { startSimulator, type Simulator, type StartSimulatorOptions } from "./index";
import { SimState } from "./state";
import { call, okData, pathOf } from "./test-client";

const DAY = 86_400_000;
const HOUR = 3_600_000;
// A fixed wall clock, 20 minutes past an hour, so data and arrivals are the same on every run.
const T0 = 1_750_000_000_000 - (1_750_000_000_000 % HOUR) + 20 * 60_000;

type Key = Simulator["keys"]["brokerMain"];
// Signed with the simulator's wall clock (what a client's clock would read), not the platform's clock.
// Signed on the platform's clock, as a client that follows requestTime would after /__sim/clock moved it.
const get = (
  sim: Simulator,
  id: Parameters<typeof pathOf>[0],
  query: Record<string, string>,
  key: Key | null = sim.keys.brokerMain,
  at = sim.clock.now(),
) => call(sim.baseUrl, { path: pathOf(id), query, key, timestamp: String(at) });

/** Runs `fn` on a simulator of its own (options the suite's does not have), closed after. */
async function withSimulator(options: StartSimulatorOptions, fn: (sim: Simulator) => Promise<void>): Promise<void> {
  const sim = await startSimulator(options);
  try {
    await fn(sim);
  } finally {
    await sim.close();
  }
}

/** The UID of the simulator's desk01 sub-account. */
const desk01Of = (sim: Simulator) =>
  sim.state.subaccountsOf(sim.state.mainUid).find((s) => s.subaccountName.startsWith("desk01@"))?.uid ?? "";

describe("[simulator][scale] population", () => {
  it("[simulator][scale] 10,000 sub-accounts: most dormant, a long tail, a few heavy; the same for a seed", () => {
    const a = new SimState({ seed: 42, scale: 1, now: () => T0, subaccounts: 10_000 });
    const b = new SimState({ seed: 42, scale: 1, now: () => T0, subaccounts: 10_000 });
    const s = a.populationSummary();
    expect(s.subaccounts).toBe(10_000);
    expect(s.generated).toBe(10_000 - 25);
    expect(s.tiers.dormant + s.tiers.tail + s.tiers.heavy).toBe(s.generated);
    expect(s.tiers.dormant / s.generated).toBeGreaterThan(0.65);
    expect(s.tiers.tail / s.generated).toBeGreaterThan(0.2);
    expect(s.tiers.heavy).toBeGreaterThanOrEqual(5);
    expect(s.tiers.heavy).toBeLessThanOrEqual(50);
    expect(s.withoutDeposits / s.subaccounts).toBeGreaterThan(0.5);
    expect(b.populationSummary()).toEqual(s);
    expect(new SimState({ seed: 43, scale: 1, now: () => T0, subaccounts: 10_000 }).populationSummary()).not.toEqual(s);

    const subs = a.subaccountsOf(a.mainUid);
    expect(new Set(subs.map((x) => x.uid)).size).toBe(10_000);
    expect(new Set(subs.map((x) => x.subaccountName)).size).toBe(10_000);
    expect(subs.map((x) => x.uid)).toEqual(b.subaccountsOf(b.mainUid).map((x) => x.uid));
    // Heavy desks hold hundreds of deposits; any account's history is the same whenever it is first read.
    const counts = subs.slice(25).map((x) => a.depositsOf(x.uid).length);
    expect(Math.max(...counts)).toBeGreaterThanOrEqual(300);
    const someone = subs[5_000]?.uid ?? "";
    expect(JSON.stringify(b.depositsOf(someone))).toBe(JSON.stringify(a.depositsOf(someone)));
    expect(counts.reduce((x, y) => x + y, 0) + a.deposits.length).toBe(s.deposits);
  });

  it("[simulator][scale] the first 25 sub-accounts of seed 42 are as before, whatever SIM_SUBACCOUNTS says", () => {
    for (const n of [25, 10_000]) {
      const s = new SimState({ seed: 42, scale: 1, now: () => T0, subaccounts: n });
      const anchor = s.anchor;
      const mine = s
        .subaccountsOf(s.mainUid)
        .slice(0, 25)
        .map((x) => ({
          uid: x.uid,
          subaccountName: x.subaccountName,
          label: x.label,
          status: x.status,
          ageMs: anchor - x.cTime,
        }));
      expect(mine).toEqual(first25.subaccounts);
      expect([s.mainUid, s.nonBrokerUid, s.riskUnitUid]).toEqual([
        first25.mainUid,
        first25.nonBrokerUid,
        first25.riskUnitUid,
      ]);
    }
  });

  it("[simulator][scale] a generated account's deposit is found by orderId without reading the account first", () => {
    const a = new SimState({ seed: 42, scale: 1, now: () => T0, subaccounts: 2_000 });
    const b = new SimState({ seed: 42, scale: 1, now: () => T0, subaccounts: 2_000 });
    const uid =
      a
        .subaccountsOf(a.mainUid)
        .slice(25)
        .find((x) => a.depositsOf(x.uid).length > 3)?.uid ?? "";
    const d = a.depositsOf(uid)[2];
    expect(b.depositById(d?.orderId ?? "")).toEqual(d);
  });
});

describe("[simulator][scale] live deposits and pending → success", () => {
  let wall = T0;
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({
      rateLimits: "off",
      now: () => wall,
      subaccounts: 500,
      depositRate: 4,
      depositSettleMs: 10_000,
    });
  });
  afterAll(() => sim.close());

  it("[simulator][scale] deposits arrive at the rate, pending, and succeed after the delay, crediting the balance once", async () => {
    expect(sim.state.liveDeposits()).toBe(0);
    wall = T0 + 5_000;
    sim.state.tick();
    expect(sim.state.liveDeposits()).toBe(20);
    const live = sim.state.deposits.filter((d) => d.cTime > T0);
    expect(live).toHaveLength(20);
    expect(live.every((d) => d.status === "pending")).toBe(true);
    // Evenly spaced at 1/rate: 250 ms apart.
    expect(
      live
        .map((d) => d.cTime)
        .sort((x, y) => x - y)
        .slice(0, 3),
    ).toEqual([T0 + 250, T0 + 500, T0 + 750]);

    const one = live.at(-1);
    if (!one) throw new Error("no live deposit");
    const before = new Big(sim.state.balance(one.userId, one.coin));
    const seen = okData(
      "deposits.list",
      await get(sim, "deposits.list", { orderId: one.orderId }, sim.keys.brokerMain, wall),
    );
    expect(seen.map((d) => [d.orderId, d.status])).toEqual([[one.orderId, "pending"]]);

    wall = one.cTime + 10_000;
    const after = okData(
      "deposits.list",
      await get(sim, "deposits.list", { orderId: one.orderId }, sim.keys.brokerMain, wall),
    );
    expect(after[0]).toMatchObject({ status: "success", uTime: String(one.cTime + 10_000) });
    const sameCoin = sim.state.deposits.filter(
      (d) => d.userId === one.userId && d.coin === one.coin && d.cTime > T0 && d.status === "success",
    );
    const credited = sameCoin.reduce((s, d) => s.plus(d.amount), new Big(0));
    // Other live deposits of the account and coin may have settled in the same step.
    expect(new Big(sim.state.balance(one.userId, one.coin)).minus(before).eq(credited)).toBe(true);
    expect(sim.state.liveDeposits()).toBe(Math.floor(((wall - T0) * 4) / 1000));
  });

  it("[simulator][scale] the rate is off by default: no deposit arrives however the clock moves", async () => {
    await withSimulator({ now: () => T0 }, async (quiet) => {
      const n = quiet.state.deposits.length;
      quiet.clock.advance(DAY);
      expect(quiet.state.deposits.length).toBe(n);
      expect(quiet.state.liveDeposits()).toBe(0);
    });
  });
});

describe("[simulator][scale] the platform's clock and retention", () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({ rateLimits: "off", now: () => T0, depositRetentionDays: 120 });
  });
  afterAll(() => sim.close());
  const control = (method: string, body?: unknown) =>
    fetch(`${sim.baseUrl}/__sim/clock`, {
      method,
      headers: { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, json: (await r.json()) as Record<string, unknown> }));

  it("[simulator][scale] GET /__sim/clock tells the time; POST advances it (whole ms ≥ 0 only); requestTime follows", async () => {
    expect((await control("GET")).json).toEqual({ nowMs: T0, wallMs: T0, offsetMs: 0 });
    expect((await control("POST", { advanceMs: -1 })).status).toBe(400);
    expect((await control("POST", { advanceMs: "5" })).status).toBe(400);
    expect((await control("POST", { advanceMs: 1_000 })).json).toEqual({
      nowMs: T0 + 1_000,
      wallMs: T0,
      offsetMs: 1_000,
    });
    const r = await get(sim, "market.trades", { symbol: "BTCUSDT", limit: "1" }, null);
    expect(r.json?.requestTime).toBe(T0 + 1_000);
  });

  it("[simulator][scale] moving the clock past retention drops records from E1 (when configured), E4 and E8", async () => {
    const uid = desk01Of(sim);
    // About 100 days old: within E1's 120 days now, 200 days old after the move.
    const oldest = sim.state.depositsOf(uid).find((d) => d.cTime < T0 - 100 * DAY);
    if (!oldest) throw new Error("desk01 has no deposits");
    const q = { userId: uid, startTime: String(oldest.cTime - 1), endTime: String(oldest.cTime + 1), limit: "100" };
    expect(okData("deposits.list", await get(sim, "deposits.list", q)).map((d) => d.orderId)).toContain(oldest.orderId);
    const byId = { orderId: oldest.orderId, startTime: String(oldest.cTime - 1), endTime: String(oldest.cTime + 1) };
    expect(okData("deposits.list", await get(sim, "deposits.list", byId))).toHaveLength(1);

    const fillsBefore = okData("fills.list", await get(sim, "fills.list", { limit: "100" }));
    const tradeBefore = okData(
      "market.trades",
      await get(
        sim,
        "market.trades",
        { symbol: "ETHUSDT", startTime: String(T0 - 3 * DAY), endTime: String(T0 - 2 * DAY), limit: "5" },
        null,
      ),
    );
    expect(fillsBefore.length).toBe(100);
    expect(tradeBefore.length).toBe(5);

    // 100 days on: that deposit passes E1's 120 days; every fill and those trades pass 90 days.
    await control("POST", { advanceMs: 100 * DAY });
    const now = T0 + 1_000 + 100 * DAY;
    expect(okData("deposits.list", await get(sim, "deposits.list", q))).toEqual([]);
    expect(okData("deposits.list", await get(sim, "deposits.list", byId))).toEqual([]);
    const kept = okData(
      "deposits.list",
      await get(sim, "deposits.list", {
        userId: uid,
        startTime: String(now - 119 * DAY),
        endTime: String(now - 100 * DAY + 1),
        limit: "100",
      }),
    );
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.every((d) => Number(d.cTime) >= now - 120 * DAY)).toBe(true);

    // E4: fills were made up to T0 (no new ones): within the last 90 days only those of the last 10 days before T0 remain.
    const fills = okData("fills.list", await get(sim, "fills.list", { limit: "100" }));
    expect(fills.every((f) => Number(f.cTime) >= now - 90 * DAY)).toBe(true);
    const all = sim.state.tradingOf(sim.state.mainUid).fills;
    expect(fills.length).toBe(Math.min(100, all.filter((f) => f.cTime >= now - 90 * DAY).length));
    const refused = await get(sim, "fills.list", { startTime: String(T0 - DAY), endTime: String(T0) });
    expect([refused.json?.code, refused.json?.msg]).toEqual(["40020", "Parameter startTime error"]);

    expect(
      okData(
        "market.trades",
        await get(
          sim,
          "market.trades",
          { symbol: "ETHUSDT", startTime: String(T0 - 3 * DAY), endTime: String(T0 - 2 * DAY), limit: "5" },
          null,
        ),
      ),
    ).toEqual([]);
    // The default window is the platform's last 7 days: trades there exist (they are a function of time).
    const recent = okData("market.trades", await get(sim, "market.trades", { symbol: "ETHUSDT", limit: "5" }, null));
    expect(recent.length).toBe(5);
    expect(Number(recent[0]?.ts)).toBeGreaterThan(now - 60_000);
  });

  it("[simulator][scale] E1 keeps everything by default: the spec states no retention for deposits", async () => {
    await withSimulator({ rateLimits: "off", now: () => T0 }, async (plain) => {
      const uid = desk01Of(plain);
      const oldest = plain.state.depositsOf(uid).at(-1);
      plain.clock.advance(365 * DAY);
      const q = { userId: uid, startTime: String((oldest?.cTime ?? 0) - 1), endTime: String((oldest?.cTime ?? 0) + 1) };
      expect(okData("deposits.list", await get(plain, "deposits.list", q)).map((d) => d.orderId)).toEqual([
        oldest?.orderId,
      ]);
    });
  });
});

describe("[simulator][scale] E2 balances follow deposits and withdrawals", () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({ rateLimits: "off", now: () => T0, subaccounts: 2_000 });
  });
  afterAll(() => sim.close());

  /** Every deposit of an account from E1, walking 90-day windows back to its creation. */
  async function allDeposits(uid: string) {
    const created = sim.state.subaccount(uid)?.cTime ?? 0;
    const rows: { orderId: string; coin: string; amount: string; status: string }[] = [];
    for (let end = T0; end > created - 90 * DAY; end -= 90 * DAY) {
      let cursor: string | undefined;
      for (;;) {
        const page = okData(
          "deposits.list",
          await get(sim, "deposits.list", {
            userId: uid,
            startTime: String(end - 90 * DAY + 1),
            endTime: String(end),
            limit: "100",
            ...(cursor ? { idLessThan: cursor } : {}),
          }),
        );
        rows.push(...page);
        if (page.length < 100) break;
        cursor = page.at(-1)?.orderId;
      }
    }
    return rows;
  }

  it("[simulator][scale] a generated account with deposits in several coins: E2 = successful deposits − withdrawals", async () => {
    const subs = sim.state
      .subaccountsOf(sim.state.mainUid)
      .slice(25)
      .filter((s) => s.status === "normal");
    const uid = subs.find(
      (s) =>
        new Set(
          sim.state
            .depositsOf(s.uid)
            .filter((d) => d.status === "success")
            .map((d) => d.coin),
        ).size >= 3,
    )?.uid;
    if (!uid) throw new Error("no generated account with three coins");
    const rows = await allDeposits(uid);
    expect(new Set(rows.map((r) => r.orderId)).size).toBe(sim.state.depositsOf(uid).length);
    const sums = new Map<string, Big>();
    for (const r of rows) if (r.status === "success") sums.set(r.coin, (sums.get(r.coin) ?? new Big(0)).plus(r.amount));
    const [coin, total] = [...sums].sort((a, b) => b[1].cmp(a[1]))[0] ?? ["", new Big(0)];
    const out = total.div(3).round(4, Big.roundDown);
    okData(
      "withdrawals.submit",
      await call(sim.baseUrl, {
        method: "POST",
        path: pathOf("withdrawals.submit"),
        body: { subUid: uid, coin, dest: "on_chain", address: "0xabc", amount: out.toString() },
        key: sim.keys.brokerMain,
        timestamp: String(T0),
      }),
    );
    sums.set(coin, total.minus(out));

    const assets = okData(
      "subaccounts.assets",
      await get(sim, "subaccounts.assets", { subUid: uid, assetType: "all" }),
    );
    const shown = new Map(assets.assetsList.map((a) => [a.coin, a.available]));
    expect([...shown.keys()].sort()).toEqual([...sums.keys()].sort());
    for (const [c, sum] of sums) expect(shown.get(c)).toBe(sum.toFixed(8));
  });

  it("[simulator][scale] desk07's SOL and ETH deposits are in its assets; an internal transfer moves between sub-accounts", async () => {
    const byName = (n: string) =>
      sim.state.subaccountsOf(sim.state.mainUid).find((s) => s.subaccountName.startsWith(`${n}@`))?.uid ?? "";
    const desk07 = byName("desk07");
    const coins = new Set(
      sim.state
        .depositsOf(desk07)
        .filter((d) => d.status === "success")
        .map((d) => d.coin),
    );
    expect(coins.has("SOL") && coins.has("ETH")).toBe(true);
    const held = okData("subaccounts.assets", await get(sim, "subaccounts.assets", { subUid: desk07 })).assetsList.map(
      (a) => a.coin,
    );
    for (const c of coins) expect(held).toContain(c);

    const desk08 = byName("desk08");
    const [from, to] = [sim.state.balance(desk07, "SOL"), sim.state.balance(desk08, "SOL")];
    okData(
      "withdrawals.submit",
      await call(sim.baseUrl, {
        method: "POST",
        path: pathOf("withdrawals.submit"),
        body: { subUid: desk07, coin: "SOL", dest: "internal_transfer", address: desk08, amount: "1.5" },
        key: sim.keys.brokerMain,
        timestamp: String(T0),
      }),
    );
    expect(sim.state.balance(desk07, "SOL")).toBe(new Big(from).minus("1.5").toString());
    expect(sim.state.balance(desk08, "SOL")).toBe(new Big(to).plus("1.5").toString());
  });
});
