import Big from "big.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "./index";
import { call, okData, pathOf } from "./test-client";

let sim: Simulator;
const uidOf = (name: string) =>
  sim.state.subaccountsOf(sim.state.mainUid).find((s) => s.subaccountName.startsWith(`${name}@`))?.uid ?? "";
beforeAll(async () => {
  sim = await startSimulator({ rateLimits: "off" });
});
afterAll(() => sim.close());

const post = (id: Parameters<typeof pathOf>[0], body: Record<string, unknown>, key = sim.keys.brokerMain) =>
  call(sim.baseUrl, { method: "POST", path: pathOf(id), body, key });
const get = (id: Parameters<typeof pathOf>[0], query: Record<string, string>, key = sim.keys.brokerMain) =>
  call(sim.baseUrl, { path: pathOf(id), query, key });

describe("[simulator][state] E6 subaccounts.create", () => {
  it("[simulator][state] creates a normal sub-account that E1, E2 and E7 then know", async () => {
    const created = okData(
      "subaccounts.create",
      await post("subaccounts.create", { subaccountName: "fresh01@brokerdesk-sim.example", label: "Fresh 01" }),
    );
    expect(created).toMatchObject({
      subaccountName: "fresh01@brokerdesk-sim.example",
      status: "normal",
      label: "Fresh 01",
    });
    expect(created.permList).toEqual(["read", "spot_trade", "contract_trade", "transfer", "withdraw", "deposit"]);
    expect(created.subUid).toMatch(/^\d+$/);
    expect(Math.abs(Number(created.cTime) - Date.now())).toBeLessThan(5_000);
    expect(okData("deposits.list", await get("deposits.list", { userId: created.subUid }))).toEqual([]);
    expect(
      okData("subaccounts.assets", await get("subaccounts.assets", { subUid: created.subUid, assetType: "all" }))
        .assetsList,
    ).toEqual([]);
    expect(okData("rebates.get", await get("rebates.get", { uid: created.subUid }))).toEqual({
      affiliationType: "affiliate",
      userLevel: "VIP0",
      clientSpotRebateRatio: "0.1",
      clientFuturesRebateRatio: "0.1",
    });
  });
  it("[simulator][state] names and labels are unique", async () => {
    const dupName = await post("subaccounts.create", { subaccountName: "DESK01@brokerdesk-sim.example" });
    expect([dupName.json?.code, dupName.json?.msg]).toEqual(["40020", "Parameter subaccountName error"]);
    const dupLabel = await post("subaccounts.create", {
      subaccountName: "fresh02@brokerdesk-sim.example",
      label: "Desk 02",
    });
    expect([dupLabel.json?.code, dupLabel.json?.msg]).toEqual(["40020", "Parameter label error"]);
  });
});

describe("[simulator][state] E5 withdrawals.submit", () => {
  it("[simulator][state] debits available; refuses more than available with 43012", async () => {
    const from = uidOf("desk10");
    sim.state.setBalance(from, "USDT", "100.5");
    okData(
      "withdrawals.submit",
      await post("withdrawals.submit", {
        subUid: from,
        coin: "USDT",
        dest: "on_chain",
        address: "TAddr1",
        amount: "40.25",
      }),
    );
    expect(sim.state.balance(from, "USDT")).toBe("60.25");
    const r = await post("withdrawals.submit", {
      subUid: from,
      coin: "USDT",
      dest: "on_chain",
      address: "TAddr1",
      amount: "60.26",
    });
    expect([r.status, r.json?.code, r.json?.msg, r.json?.data]).toEqual([400, "43012", "Insufficient balance", null]);
    expect(sim.state.balance(from, "USDT")).toBe("60.25");
    const none = await post("withdrawals.submit", {
      subUid: from,
      coin: "SHIB",
      dest: "on_chain",
      address: "0xabc",
      amount: "1",
    });
    expect(none.json?.code).toBe("43012");
  });
  it("[simulator][state] an on-chain withdrawal is recorded pending and completes later", async () => {
    const from = uidOf("desk11");
    sim.state.setBalance(from, "USDT", "10");
    const d = okData(
      "withdrawals.submit",
      await post("withdrawals.submit", {
        subUid: from,
        coin: "USDT",
        dest: "on_chain",
        address: "TAddr2",
        amount: "1",
      }),
    );
    const w = sim.state.withdrawals().find((x) => x.orderId === d.orderId);
    expect(w && sim.state.withdrawalStatus(w)).toBe("pending");
    expect(w?.chain).toBe("TRC20");
    expect(d.clientOid).toBe(d.orderId);
  });
  it("[simulator][state] an internal transfer credits a known sub-account and shows as its deposit", async () => {
    const from = uidOf("desk12");
    const to = uidOf("desk13");
    sim.state.setBalance(from, "ETH", "2");
    const before = sim.state.balance(to, "ETH");
    const d = okData(
      "withdrawals.submit",
      await post("withdrawals.submit", {
        subUid: from,
        coin: "ETH",
        dest: "internal_transfer",
        address: to,
        amount: "0.5",
      }),
    );
    expect(sim.state.balance(from, "ETH")).toBe("1.5");
    expect(sim.state.balance(to, "ETH")).toBe(new Big(before).plus("0.5").toString());
    const dep = okData("deposits.list", await get("deposits.list", { userId: to, limit: "1" }));
    expect(dep[0]).toMatchObject({
      dest: "internal_transfer",
      amount: "0.5",
      coin: "ETH",
      txId: d.orderId,
      fromAddress: from,
      toAddress: to,
    });
  });
  it("[simulator][state] a repeated clientOid with the same parameters returns the original and moves nothing", async () => {
    const from = uidOf("desk14");
    sim.state.setBalance(from, "USDT", "50");
    const body = {
      subUid: from,
      coin: "USDT",
      dest: "on_chain",
      address: "TAddr3",
      amount: "10",
      clientOid: "bd-wd-0001",
    };
    const first = okData("withdrawals.submit", await post("withdrawals.submit", body));
    const again = okData("withdrawals.submit", await post("withdrawals.submit", { ...body, amount: "10.00" }));
    expect(again).toEqual(first);
    expect(first.clientOid).toBe("bd-wd-0001");
    expect(sim.state.balance(from, "USDT")).toBe("40");
    expect(sim.state.withdrawals().filter((w) => w.clientOid === "bd-wd-0001")).toHaveLength(1);
  });
  it("[simulator][state] a repeated clientOid with different parameters is 40020 clientOid", async () => {
    const from = uidOf("desk14");
    const body = {
      subUid: from,
      coin: "USDT",
      dest: "on_chain",
      address: "TAddr3",
      amount: "11",
      clientOid: "bd-wd-0001",
    };
    const r = await post("withdrawals.submit", body);
    expect([r.json?.code, r.json?.msg]).toEqual(["40020", "Parameter clientOid error"]);
    expect(sim.state.balance(from, "USDT")).toBe("40");
  });
});

describe("[simulator][state] E9 riskUnits.bind", () => {
  const unit1 = () => sim.state.riskUnitUid;
  const unit2 = () => uidOf("riskunit02");
  const bind = (uid: string, operate: "bind" | "unbind", riskUnitId?: string, key = sim.keys.brokerMain) =>
    post("riskUnits.bind", riskUnitId ? { uid, operate, riskUnitId } : { uid, operate }, key);
  const codeOf = async (p: ReturnType<typeof bind>) => (await p).json?.code;

  it('[simulator][state] binds and unbinds, answering data "success"', async () => {
    const r = await bind(uidOf("desk15"), "bind", unit1());
    expect(r.json?.data).toBe("success");
    okData("riskUnits.bind", r);
    expect(sim.state.riskUnit(unit1())?.members.has(uidOf("desk15"))).toBe(true);
    okData("riskUnits.bind", await bind(uidOf("desk15"), "unbind", unit1()));
    expect(sim.state.riskUnit(unit1())?.members.has(uidOf("desk15"))).toBe(false);
  });
  it("[simulator][state] the risk-unit account binds to its own unit without riskUnitId, and no other", async () => {
    okData("riskUnits.bind", await bind(uidOf("desk16"), "bind", undefined, sim.keys.riskUnit));
    expect(sim.state.riskUnit(unit1())?.members.has(uidOf("desk16"))).toBe(true);
    expect(await codeOf(bind(uidOf("desk17"), "bind", unit2(), sim.keys.riskUnit))).toBe("40020");
  });
  it("[simulator][state] a uid bound elsewhere is refused with 49001; rebinding to the same unit is a no-op", async () => {
    expect(await codeOf(bind(uidOf("desk03"), "bind", unit2()))).toBe("49001");
    expect(await codeOf(bind(uidOf("desk03"), "bind", unit1()))).toBe("00000");
  });
  it("[simulator][state] uid and unit belong to the same main account", async () => {
    const foreign = sim.state.subaccountsOf(sim.state.nonBrokerUid)[0]?.uid ?? "";
    const r = await bind(foreign, "bind", unit1());
    expect([r.json?.code, r.json?.msg]).toEqual(["40020", "Parameter uid error"]);
    expect(await codeOf(bind(uidOf("desk18"), "bind", "999999"))).toBe("40020");
    expect(await codeOf(bind(uidOf("desk18"), "bind", unit1(), sim.keys.nonBroker))).toBe("40020");
  });
  it("[simulator][state] unbind needs the uid in the unit (49003)", async () => {
    expect(await codeOf(bind(uidOf("desk19"), "unbind", unit1()))).toBe("49003");
  });
  it("[simulator][state] unbind refuses a uid with a balance while the unit has a loan (49004)", async () => {
    expect(sim.state.hasBalance(uidOf("desk07"))).toBe(true);
    expect(await codeOf(bind(uidOf("desk07"), "unbind", unit2()))).toBe("49004");
    expect(sim.state.hasBalance(uidOf("desk06"))).toBe(false);
    expect(await codeOf(bind(uidOf("desk06"), "unbind", unit2()))).toBe("00000");
    sim.state.setLoan(unit2(), "0");
    expect(await codeOf(bind(uidOf("desk07"), "unbind", unit2()))).toBe("00000");
  });
  it("[simulator][state] at most 50 UIDs per risk unit: the 51st is refused with 49002", async () => {
    const unit = sim.state.riskUnit(unit2());
    if (!unit) throw new Error("no unit");
    const extra = Array.from(
      { length: 60 },
      (_, i) => sim.state.addSubaccount(sim.state.mainUid, `ru-fill${i}@x.example`, `ru fill ${i}`).uid,
    );
    let i = 0;
    while (unit.members.size < 50) expect(await codeOf(bind(extra[i++] ?? "", "bind", unit2()))).toBe("00000");
    const r = await bind(extra[i] ?? "", "bind", unit2());
    expect([r.json?.code, r.json?.msg]).toEqual(["49002", "The risk unit already has the maximum of 50 UIDs"]);
    expect(unit.members.size).toBe(50);
  });
});

describe("[simulator][state] E10 leverage.set", () => {
  const lev = (body: Record<string, unknown>, key = sim.keys.brokerMain) =>
    post("leverage.set", { productType: "USDT-FUTURES", marginCoin: "USDT", ...body }, key);
  it("[simulator][state] crossed sets the cross leverage and keeps it per account", async () => {
    const d = okData("leverage.set", await lev({ symbol: "BTCUSDT", leverage: "125" }));
    expect(d).toEqual({
      symbol: "BTCUSDT",
      marginCoin: "USDT",
      longLeverage: "20",
      shortLeverage: "20",
      crossMarginLeverage: "125",
      marginMode: "crossed",
    });
    const other = okData("leverage.set", await lev({ symbol: "BTCUSDT", leverage: "3" }, sim.keys.nonBroker));
    expect(other.crossMarginLeverage).toBe("3");
    expect(sim.state.leverageOf(sim.state.mainUid, "USDT-FUTURES", "BTCUSDT").cross).toBe(125);
  });
  it("[simulator][state] the answer uses the key shortLeverage", async () => {
    const r = await lev({ symbol: "XRPUSDT", leverage: "7" });
    expect(Object.keys(r.json?.data as object)).toEqual([
      "symbol",
      "marginCoin",
      "longLeverage",
      "shortLeverage",
      "crossMarginLeverage",
      "marginMode",
    ]);
  });
  it("[simulator][state] isolated + hedge (ETHUSDT) needs holdSide and sets that side", async () => {
    const r = await lev({ symbol: "ETHUSDT", leverage: "10" });
    expect([r.json?.code, r.json?.msg]).toEqual(["40019", "Parameter holdSide cannot be empty"]);
    const d = okData("leverage.set", await lev({ symbol: "ETHUSDT", leverage: "10", holdSide: "short" }));
    expect(d).toMatchObject({ longLeverage: "20", shortLeverage: "10", marginMode: "isolated" });
  });
  it("[simulator][state] isolated + one-way (SOLUSDT) sets both sides and ignores holdSide", async () => {
    const d = okData("leverage.set", await lev({ symbol: "SOLUSDT", leverage: "15" }));
    expect(d).toMatchObject({ longLeverage: "15", shortLeverage: "15", marginMode: "isolated" });
  });
  it("[simulator][state] bounds per symbol: 125 BTC, 100 ETH, 50 others", async () => {
    expect((await lev({ symbol: "BTCUSDT", leverage: "126" })).json?.msg).toBe("Parameter leverage error");
    expect((await lev({ symbol: "ETHUSDT", leverage: "101", holdSide: "long" })).json?.code).toBe("40020");
    okData("leverage.set", await lev({ symbol: "ETHUSDT", leverage: "100", holdSide: "long" }));
    expect((await lev({ symbol: "DOGEUSDT", leverage: "51" })).json?.code).toBe("40020");
    okData("leverage.set", await lev({ symbol: "DOGEUSDT", leverage: "50" }));
  });
  it("[simulator][state] tests can change a symbol's modes", async () => {
    sim.state.setMode(sim.state.mainUid, "USDT-FUTURES", "LINKUSDT", { marginMode: "isolated", positionMode: "hedge" });
    expect((await lev({ symbol: "LINKUSDT", leverage: "5" })).json?.code).toBe("40019");
    okData(
      "leverage.set",
      await post("leverage.set", { symbol: "BTCUSD", productType: "COIN-FUTURES", marginCoin: "BTC", leverage: "5" }),
    );
  });
});
