import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPERATION_IDS, type OperationId } from "@/lib/platform/catalog";
import { startSimulator, type Simulator } from "./index";
import { call, okData, pathOf, type SignedCall } from "./test-client";

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ rateLimits: "off" });
});
afterAll(() => sim.close());

let created = 0;
function requests(): Record<OperationId, Omit<SignedCall, "path">> {
  const subs = sim.state.subaccountsOf(sim.state.mainUid).filter((s) => s.subaccountName.startsWith("desk"));
  const sub = subs[0]?.uid ?? "";
  const now = Date.now();
  return {
    "deposits.list": { query: { userId: sub, limit: "100" } },
    "subaccounts.assets": { query: { subUid: sub, assetType: "all" } },
    "planOrders.history": {
      query: { symbol: "ETHUSDT", startTime: String(now - 30 * 86_400_000), endTime: String(now) },
    },
    "fills.list": { query: { limit: "100" } },
    "withdrawals.submit": {
      method: "POST",
      body: {
        subUid: sub,
        coin: "USDT",
        dest: "internal_transfer",
        address: subs[1]?.uid ?? "",
        amount: "0.01",
        clientOid: "conf-1",
      },
    },
    "subaccounts.create": {
      method: "POST",
      body: { subaccountName: `conformance${++created}@brokerdesk-sim.example`, label: `conformance ${created}` },
    },
    "rebates.get": { query: { uid: sub } },
    "market.trades": { query: { symbol: "SOLUSDT", limit: "1000" }, key: null },
    "riskUnits.bind": {
      method: "POST",
      body: { uid: subs[12]?.uid ?? "", operate: "bind", riskUnitId: sim.state.riskUnitUid },
    },
    "leverage.set": {
      method: "POST",
      body: { symbol: "ETHUSDT", productType: "USDT-FUTURES", marginCoin: "USDT", leverage: "12", holdSide: "long" },
    },
    "oiLimits.list": { query: { productType: "USDC-FUTURES" }, key: null },
  };
}

describe("[simulator][conformance] every operation's reply", () => {
  it("[simulator][conformance] uses the exact success envelope and passes the catalog's response schema", async () => {
    const reqs = requests();
    for (const id of OPERATION_IDS) {
      const r = await call(sim.baseUrl, { key: sim.keys.brokerMain, ...reqs[id], path: pathOf(id) });
      expect(
        r.text.startsWith('{"code":"00000","msg":"success","requestTime":'),
        `${id}: ${r.text.slice(0, 120)}`,
      ).toBe(true);
      expect(Object.keys(r.json ?? {})).toEqual(["code", "msg", "requestTime", "data"]);
      expect(typeof r.json?.requestTime).toBe("number");
      okData(id, r);
    }
  });
  it('[simulator][conformance] wire quirks: E1 array, E6 cTime, E8 capitalised side, E9 "success", E10 shortLeverage', async () => {
    const reqs = requests();
    const raw = async (id: OperationId) =>
      (await call(sim.baseUrl, { key: sim.keys.brokerMain, ...reqs[id], path: pathOf(id) })).json?.data;
    expect(Array.isArray(await raw("deposits.list"))).toBe(true);
    expect(await raw("subaccounts.create")).toHaveProperty("cTime");
    expect(((await raw("market.trades")) as { side: string }[])[0]?.side).toMatch(/^(Buy|Sell)$/);
    expect(await raw("riskUnits.bind")).toBe("success");
    expect(await raw("leverage.set")).toHaveProperty("shortLeverage");
  });
  it("[simulator][conformance] every value in data is a string, boolean, array or object (no bare numbers)", async () => {
    const reqs = requests();
    const numbers = (v: unknown): boolean =>
      typeof v === "number"
        ? true
        : Array.isArray(v)
          ? v.some(numbers)
          : v && typeof v === "object"
            ? Object.values(v).some(numbers)
            : false;
    for (const id of [
      "deposits.list",
      "subaccounts.assets",
      "planOrders.history",
      "fills.list",
      "rebates.get",
      "market.trades",
      "oiLimits.list",
    ] as const) {
      const data = (await call(sim.baseUrl, { key: sim.keys.brokerMain, ...reqs[id], path: pathOf(id) })).json?.data;
      expect(numbers(data), id).toBe(false);
    }
  });
});

describe("[simulator][conformance] connections", () => {
  it("keeps idle sockets 65 s, as behind a load balancer, and announces it so clients close first", async () => {
    const headers = await new Promise<Record<string, string | string[] | undefined>>((resolve, reject) => {
      request(`${sim.baseUrl}/api/v2/mix/market/oi-limit?productType=USDT-FUTURES`, (res) => {
        res.resume();
        res.on("end", () => resolve(res.headers));
      })
        .on("error", reject)
        .end();
    });
    expect(headers.connection).toBe("keep-alive");
    expect(headers["keep-alive"]).toBe("timeout=65");
  });
});
