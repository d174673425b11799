import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OperationId } from "@/lib/platform/catalog";
import { startSimulator, type Simulator } from "./index";
import { call, okData, pathOf } from "./test-client";

let sim: Simulator;
let sub: string;
let other: string;
const DAY = 86_400_000;
beforeAll(async () => {
  sim = await startSimulator({ rateLimits: "off" });
  const subs = sim.state.subaccountsOf(sim.state.mainUid).filter((s) => s.subaccountName.startsWith("desk"));
  sub = subs[0]?.uid ?? "";
  other = subs[1]?.uid ?? "";
});
afterAll(() => sim.close());

async function expectCode(id: OperationId, params: Record<string, unknown>, code: string, msg: string) {
  const op = pathOf(id);
  const isPost = ["withdrawals.submit", "subaccounts.create", "riskUnits.bind", "leverage.set"].includes(id);
  const r = isPost
    ? await call(sim.baseUrl, { method: "POST", path: op, body: params, key: sim.keys.brokerMain })
    : await call(sim.baseUrl, {
        path: op,
        query: Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])),
        key: sim.keys.brokerMain,
      });
  expect({ status: r.status, code: r.json?.code, msg: r.json?.msg, data: r.json?.data }).toEqual({
    status: 400,
    code,
    msg,
    data: null,
  });
}
const missing = (id: OperationId, params: Record<string, unknown>, name: string) =>
  expectCode(id, params, "40019", `Parameter ${name} cannot be empty`);
const invalid = (id: OperationId, params: Record<string, unknown>, name: string) =>
  expectCode(id, params, "40020", `Parameter ${name} error`);
/** Each field of a minimal valid request is required: leaving any one out is refused, naming it. */
async function everyFieldRequired(id: OperationId, minimal: Record<string, unknown>) {
  for (const name of Object.keys(minimal)) {
    const params = { ...minimal };
    delete params[name];
    await missing(id, params, name);
  }
}

describe("[simulator][validation] E1 deposits.list", () => {
  it("[simulator][validation] needs userId or orderId", () => missing("deposits.list", {}, "userId"));
  it("[simulator][validation] limit is 1..100", async () => {
    await invalid("deposits.list", { userId: sub, limit: "101" }, "limit");
    await invalid("deposits.list", { userId: sub, limit: "ten" }, "limit");
  });
  it("[simulator][validation] times are ms and span at most three months", async () => {
    await invalid("deposits.list", { userId: sub, startTime: "yesterday" }, "startTime");
    await invalid("deposits.list", { userId: sub, startTime: Date.now() - 100 * DAY, endTime: Date.now() }, "endTime");
  });
  it("[simulator][validation] idLessThan must be an id", () =>
    invalid("deposits.list", { userId: sub, idLessThan: "abc" }, "idLessThan"));
  it("[simulator][validation] unknown parameters are ignored", async () => {
    okData(
      "deposits.list",
      await call(sim.baseUrl, {
        path: pathOf("deposits.list"),
        query: `userId=${sub}&colour=blue`,
        key: sim.keys.brokerMain,
      }),
    );
  });
});

describe("[simulator][validation] E2 subaccounts.assets and E7 rebates.get", () => {
  it("[simulator][validation] subUid is required", () => missing("subaccounts.assets", {}, "subUid"));
  it("[simulator][validation] assetType is hold_only or all", () =>
    invalid("subaccounts.assets", { subUid: sub, assetType: "some" }, "assetType"));
  it("[simulator][validation] an unknown subUid does not exist", () =>
    expectCode("subaccounts.assets", { subUid: "1" }, "40034", "Parameter subUid does not exist"));
  it("[simulator][validation] uid is required and numeric", async () => {
    await missing("rebates.get", {}, "uid");
    await invalid("rebates.get", { uid: "abc" }, "uid");
    await expectCode("rebates.get", { uid: "1" }, "40034", "Parameter uid does not exist");
  });
});

describe("[simulator][validation] E3 planOrders.history, E4 fills.list, E8 market.trades", () => {
  const now = Date.now();
  it("[simulator][validation] E3 needs symbol, startTime and endTime", async () => {
    await missing("planOrders.history", { startTime: now - DAY, endTime: now }, "symbol");
    await missing("planOrders.history", { symbol: "BTCUSDT", endTime: now }, "startTime");
    await missing("planOrders.history", { symbol: "BTCUSDT", startTime: now - DAY }, "endTime");
  });
  it("[simulator][validation] E3 span is at most 90 days, limit at most 100", async () => {
    await invalid("planOrders.history", { symbol: "BTCUSDT", startTime: now - 91 * DAY, endTime: now }, "endTime");
    await invalid(
      "planOrders.history",
      { symbol: "BTCUSDT", startTime: now - DAY, endTime: now, limit: "101" },
      "limit",
    );
  });
  it("[simulator][validation] E4 keeps 90 days and spans at most 90 days", async () => {
    await invalid("fills.list", { startTime: now - 91 * DAY }, "startTime");
    await invalid("fills.list", { startTime: now - 10 * DAY, endTime: now + 85 * DAY }, "endTime");
    await invalid("fills.list", { limit: "0" }, "limit");
  });
  it("[simulator][validation] E8 needs symbol, limit at most 1000, span at most 7 days", async () => {
    await missing("market.trades", {}, "symbol");
    await invalid("market.trades", { symbol: "BTCUSDT", limit: "1001" }, "limit");
    await invalid("market.trades", { symbol: "BTCUSDT", startTime: now - 8 * DAY, endTime: now }, "endTime");
    await expectCode("market.trades", { symbol: "NOPEUSDT" }, "40034", "Parameter symbol does not exist");
  });
});

describe("[simulator][validation] E5 withdrawals.submit", () => {
  const base = () => ({ subUid: sub, coin: "USDT", dest: "on_chain", address: "TXYZ1234567890", amount: "1" });
  it("[simulator][validation] every required field", () => everyFieldRequired("withdrawals.submit", base()));
  it("[simulator][validation] coin from the list, dest on_chain or internal_transfer", async () => {
    await invalid("withdrawals.submit", { ...base(), coin: "XYZ" }, "coin");
    await invalid("withdrawals.submit", { ...base(), dest: "bank" }, "dest");
  });
  it("[simulator][validation] amount a positive decimal with at most 8 places", async () => {
    for (const amount of ["-1", "abc", "0", "1e3"])
      await invalid("withdrawals.submit", { ...base(), amount }, "amount");
    await invalid("withdrawals.submit", { ...base(), amount: "0.123456789" }, "amount");
  });
  it("[simulator][validation] an internal transfer goes to a UID, not to itself", async () => {
    await invalid("withdrawals.submit", { ...base(), dest: "internal_transfer", address: "0xabc" }, "address");
    await invalid("withdrawals.submit", { ...base(), dest: "internal_transfer", address: sub }, "address");
  });
  it("[simulator][validation] clientOid letters, digits, - and _", () =>
    invalid("withdrawals.submit", { ...base(), clientOid: "a b" }, "clientOid"));
  it("[simulator][validation] an unknown subUid does not exist", () =>
    expectCode("withdrawals.submit", { ...base(), subUid: "123" }, "40034", "Parameter subUid does not exist"));
});

describe("[simulator][validation] E6 subaccounts.create", () => {
  it("[simulator][validation] subaccountName is required and in e-mail form", async () => {
    await missing("subaccounts.create", {}, "subaccountName");
    await invalid("subaccounts.create", { subaccountName: "not-an-email" }, "subaccountName");
  });
  it("[simulator][validation] label is shorter than 20", () =>
    invalid("subaccounts.create", { subaccountName: "v1@x.example", label: "x".repeat(20) }, "label"));
});

describe("[simulator][validation] E9 riskUnits.bind", () => {
  it("[simulator][validation] uid and operate are required", async () => {
    await missing("riskUnits.bind", { operate: "bind", riskUnitId: sim.state.riskUnitUid }, "uid");
    await missing("riskUnits.bind", { uid: other, riskUnitId: sim.state.riskUnitUid }, "operate");
    await invalid("riskUnits.bind", { uid: other, operate: "both", riskUnitId: sim.state.riskUnitUid }, "operate");
  });
  it("[simulator][validation] the main account must name riskUnitId", () =>
    missing("riskUnits.bind", { uid: other, operate: "bind" }, "riskUnitId"));
  it("[simulator][validation] uid must not be the risk unit", () =>
    invalid(
      "riskUnits.bind",
      { uid: sim.state.riskUnitUid, operate: "bind", riskUnitId: sim.state.riskUnitUid },
      "uid",
    ));
});

describe("[simulator][validation] E10 leverage.set and E11 oiLimits.list", () => {
  const base = () => ({ symbol: "BTCUSDT", productType: "USDT-FUTURES", marginCoin: "USDT", leverage: "10" });
  it("[simulator][validation] every required field", () => everyFieldRequired("leverage.set", base()));
  it("[simulator][validation] product type, capitalised margin coin, whole leverage, holdSide", async () => {
    await invalid("leverage.set", { ...base(), productType: "SPOT" }, "productType");
    await invalid("leverage.set", { ...base(), marginCoin: "usdt" }, "marginCoin");
    await invalid("leverage.set", { ...base(), marginCoin: "USDC" }, "marginCoin");
    await invalid("leverage.set", { ...base(), leverage: "1.5" }, "leverage");
    await invalid("leverage.set", { ...base(), leverage: "0" }, "leverage");
    await invalid("leverage.set", { ...base(), holdSide: "both" }, "holdSide");
    await invalid("leverage.set", { ...base(), symbol: "NOPEUSDT" }, "symbol");
  });
  it("[simulator][validation] numbers and booleans in a JSON body are read as strings", async () => {
    const body =
      '{"symbol":"BTCUSDT","productType":"USDT-FUTURES","marginCoin":"USDT","leverage":20,"holdSide":"long","extraFlag":true}';
    const d = okData(
      "leverage.set",
      await call(sim.baseUrl, { method: "POST", path: pathOf("leverage.set"), body, key: sim.keys.brokerMain }),
    );
    expect(d.crossMarginLeverage).toBe("20");
  });
  it("[simulator][validation] E11 productType is required and one of three, in any case", async () => {
    await missing("oiLimits.list", {}, "productType");
    await invalid("oiLimits.list", { productType: "SUSDT-FUTURES" }, "productType");
    okData(
      "oiLimits.list",
      await call(sim.baseUrl, { path: pathOf("oiLimits.list"), query: { productType: "coin-futures" } }),
    );
  });
});

describe("[simulator][validation] bodies", () => {
  const post = (body: string, headers?: Record<string, string>) =>
    call(sim.baseUrl, { method: "POST", path: pathOf("leverage.set"), body, key: sim.keys.brokerMain, headers });
  it("[simulator][validation] invalid JSON or a non-object body is 40017", async () => {
    for (const body of ["{", "[1,2]", '"x"']) {
      const r = await post(body);
      expect(r.status).toBe(400);
      expect(r.json?.code).toBe("40017");
      expect(r.json?.msg).toBe("Parameter verification failed");
    }
  });
  it("[simulator][validation] an empty body means no parameters", async () => {
    const r = await post("");
    expect(r.json?.code).toBe("40019");
  });
  it("[simulator][validation] a non-JSON content type on a POST is 40007", async () => {
    const r = await post(JSON.stringify({ symbol: "BTCUSDT" }), { "content-type": "text/plain" });
    expect(r.json?.code).toBe("40007");
  });
});
