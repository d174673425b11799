// A sub-account's own API key (subaccount-keys.ts) over real HTTP: made through the control endpoint as the
// platform's broker makes one, it signs E10 for that sub-account alone and may not call broker operations.
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

const control = (method: string, path: string, body?: unknown) =>
  fetch(`${sim.baseUrl}${path}`, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const lev = (key: { apiKey: string; apiSecret: string; passphrase: string }, leverage: string) =>
  call(sim.baseUrl, {
    method: "POST",
    path: pathOf("leverage.set"),
    key,
    body: { symbol: "BTCUSDT", productType: "USDT-FUTURES", marginCoin: "USDT", leverage },
  });
const readLeverage = async (uid: string) =>
  (await (await control("GET", `/__sim/accounts/${uid}/leverage?productType=USDT-FUTURES&symbol=BTCUSDT`)).json()) as {
    crossMarginLeverage: string;
  };

describe("[simulator][sub-account keys]", () => {
  it("[simulator][sub-account keys] a key made for desk01 sets desk01's leverage, not the main account's", async () => {
    const desk01 = uidOf("desk01");
    const made = await control("POST", `/__sim/subaccounts/${desk01}/api-keys`, { passphrase: "desk01-pass" });
    expect(made.status).toBe(200);
    const k = (await made.json()) as { subUid: string; apiKey: string; secretKey: string; passphrase: string };
    expect(k.subUid).toBe(desk01);
    const mainBefore = (await readLeverage(sim.state.mainUid)).crossMarginLeverage;
    expect(
      okData("leverage.set", await lev({ apiKey: k.apiKey, apiSecret: k.secretKey, passphrase: k.passphrase }, "7"))
        .crossMarginLeverage,
    ).toBe("7");
    expect((await readLeverage(desk01)).crossMarginLeverage).toBe("7");
    expect((await readLeverage(sim.state.mainUid)).crossMarginLeverage).toBe(mainBefore);
    expect(mainBefore).not.toBe("7");
  });

  it("[simulator][sub-account keys] the key is not a broker's: E1 answers 40029; a wrong secret is 40009", async () => {
    const k = sim.addSubaccountKey(uidOf("desk02"));
    const deposits = await call(sim.baseUrl, {
      path: pathOf("deposits.list"),
      query: { userId: uidOf("desk02") },
      key: k,
    });
    expect(deposits.json?.code).toBe("40029");
    expect((await lev({ ...k, apiSecret: `${k.apiSecret}x` }, "5")).json?.code).toBe("40009");
  });

  it("[simulator][sub-account keys] no key for a UID that is not the broker's sub-account, or a deleted one", async () => {
    expect(
      (await control("POST", `/__sim/subaccounts/${sim.state.nonBrokerUid}/api-keys`, { passphrase: "p" })).status,
    ).toBe(404);
    expect((await control("POST", `/__sim/subaccounts/${uidOf("desk22")}/api-keys`, { passphrase: "p" })).status).toBe(
      409,
    );
    expect((await control("POST", `/__sim/subaccounts/${uidOf("desk01")}/api-keys`, {})).status).toBe(400);
  });
});
