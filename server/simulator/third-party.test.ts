// Faithfulness: a widely used third-party client of the platform (bitget-api, unchanged) pointed at the
// simulator signs, sends and reads every operation as it would against the real platform.
import { RestClientV2 } from "bitget-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { catalog } from "@/lib/platform/catalog";
import { startSimulator, type Simulator } from "./index";

let sim: Simulator;
let client: RestClientV2;
let subs: { uid: string }[];
const DAY = 86_400_000;

beforeAll(async () => {
  // Balances are set and then checked to the unit: no pending deposit of the history may settle mid-test and
  // credit one (a 30-minute wait after its creation by default; one did, and a balance read 4853.58 for 997).
  sim = await startSimulator({ port: 0, depositSettleMs: 0 });
  const k = sim.keys.brokerMain;
  client = new RestClientV2({ apiKey: k.apiKey, apiSecret: k.apiSecret, apiPass: k.passphrase, baseUrl: sim.baseUrl });
  subs = sim.state.subaccountsOf(k.uid);
});
afterAll(() => sim.close());

/** Every reply the third-party client receives must also pass our catalog's response schema. */
function expectCatalogShape(id: keyof typeof catalog, res: { code: string; msg: string; data: unknown }) {
  expect(res.code).toBe("00000");
  expect(res.msg).toBe("success");
  expect(catalog[id].response.safeParse(res.data).success).toBe(true);
}

describe("[simulator][third-party] bitget-api 3.2.3, unchanged", () => {
  it("E1 subaccountDepositRecords", async () => {
    const now = Date.now();
    const res = await client.subaccountDepositRecords({
      userId: subs[0]!.uid,
      startTime: String(now - 30 * DAY),
      endTime: String(now),
      limit: "20",
    });
    expectCatalogShape("deposits.list", res);
  });
  it("E2 getSubaccountSpotAssets", async () => {
    expectCatalogShape(
      "subaccounts.assets",
      await client.getSubaccountSpotAssets({ subUid: subs[0]!.uid, assetType: "all" }),
    );
  });
  it("E3 getSpotHistoricPlanOrders", async () => {
    const now = Date.now();
    expectCatalogShape(
      "planOrders.history",
      await client.getSpotHistoricPlanOrders({
        symbol: "BTCUSDT",
        startTime: String(now - 30 * DAY),
        endTime: String(now),
        limit: "100",
      }),
    );
  });
  it("E4 getSpotFills, with a symbol that needs percent-encoding", async () => {
    expectCatalogShape("fills.list", await client.getSpotFills({ symbol: "BTCUSDT", limit: "100" }));
    await expect(client.getSpotFills({ symbol: "$DEGENUSDT", orderId: "a:b,c d" })).resolves.toMatchObject({
      code: "00000",
    });
  });
  it("E5 subaccountWithdrawal (and its clientOid replay)", async () => {
    sim.state.setBalance(subs[1]!.uid, "USDT", "50");
    const body = {
      subUid: subs[1]!.uid,
      coin: "USDT",
      dest: "internal_transfer",
      address: subs[2]!.uid,
      amount: "5",
      clientOid: `tp-${Date.now()}`,
    };
    const first = await client.subaccountWithdrawal(body as never);
    expectCatalogShape("withdrawals.submit", first);
    await new Promise((r) => setTimeout(r, 1_100));
    const again = await client.subaccountWithdrawal(body as never);
    expect(again.data.orderId).toBe(first.data.orderId);
    expect(sim.state.balance(subs[1]!.uid, "USDT")).toBe("45");
  });
  it("E6 createSubaccount", async () => {
    expectCatalogShape(
      "subaccounts.create",
      await client.createSubaccount({ subaccountName: `tp${Date.now()}@example.com`, label: "third party" }),
    );
  });
  it("E7 getBrokerRebateInfo", async () => {
    expectCatalogShape("rebates.get", await client.getBrokerRebateInfo({ uid: subs[0]!.uid }));
  });
  it("E8 getSpotHistoricTrades (the client signs this public call; the simulator ignores it)", async () => {
    expectCatalogShape("market.trades", await client.getSpotHistoricTrades({ symbol: "BTCUSDT", limit: "100" }));
  });
  it("E9 bind-uid through the client's generic signed POST", async () => {
    const unit = sim.state.riskUnits()[0]!;
    const uid = subs.find((s) => !sim.state.riskUnitOfMember(s.uid) && s.uid !== unit.id)!.uid;
    const post = (
      client as unknown as {
        postPrivate: (p: string, b: object) => Promise<{ code: string; msg: string; data: unknown }>;
      }
    ).postPrivate.bind(client);
    expectCatalogShape(
      "riskUnits.bind",
      await post("/api/v2/spot/ins-loan/bind-uid", { uid, operate: "bind", riskUnitId: unit.id }),
    );
  });
  it("E10 setFuturesLeverage", async () => {
    expectCatalogShape(
      "leverage.set",
      await client.setFuturesLeverage({
        symbol: "BTCUSDT",
        productType: "USDT-FUTURES",
        marginCoin: "USDT",
        leverage: "20",
      }),
    );
  });
  it("E11 getFuturesOiLimit", async () => {
    expectCatalogShape("oiLimits.list", await client.getFuturesOiLimit({ productType: "USDT-FUTURES" } as never));
  });
  it("refuses a wrong secret with the platform's 40009, as the client expects it", async () => {
    const k = sim.keys.brokerMain;
    const bad = new RestClientV2({
      apiKey: k.apiKey,
      apiSecret: "not-the-secret",
      apiPass: k.passphrase,
      baseUrl: sim.baseUrl,
    });
    const err = (await bad.getBrokerRebateInfo({ uid: subs[0]!.uid }).catch((e: unknown) => e)) as {
      code: number;
      body: { code: string; msg: string; data: null };
    };
    expect(err.code).toBe(400);
    expect(err.body).toMatchObject({ code: "40009", msg: "sign signature error", data: null });
  });
});
