import { generateKeyPairSync } from "node:crypto";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prehash } from "@/lib/platform/protocol";
import { sign } from "@/server/platform/sign";
import { startSimulator, type Simulator } from "./index";
import { call, okData, pathOf } from "./test-client";

type Vector = {
  endpoint?: string;
  method: string;
  path: string;
  query: string;
  body: string;
  timestamp: string | null;
  key?: string;
  secret: string;
  passphrase?: string;
  sign: string | null;
};
const VECTORS = (
  JSON.parse(readFileSync(new URL("../../lib/platform/fixtures/signature-vectors.json", import.meta.url), "utf8")) as {
    vectors: Vector[];
  }
).vectors;

let sim: Simulator;
let subUid: string;
beforeAll(async () => {
  sim = await startSimulator({ rateLimits: "off" });
  subUid = sim.state.subaccountsOf(sim.state.mainUid)[0]?.uid ?? "";
});
afterAll(() => sim.close());

const E7 = pathOf("rebates.get");

function expectRefused(r: Awaited<ReturnType<typeof call>>, code: string, msg?: string) {
  expect(r.status).toBe(400);
  expect(r.json?.code).toBe(code);
  expect(r.json?.data).toBeNull();
  expect(Object.keys(r.json ?? {})).toEqual(["code", "msg", "requestTime", "data"]);
  if (msg) expect(r.json?.msg).toBe(msg);
}

describe("[simulator][auth] header and signature errors", () => {
  it("[simulator][auth] 40001 without ACCESS-KEY", async () => {
    expectRefused(
      await call(sim.baseUrl, {
        path: E7,
        query: { uid: subUid },
        key: sim.keys.brokerMain,
        headers: { "ACCESS-KEY": undefined },
      }),
      "40001",
      "ACCESS_KEY cannot be empty",
    );
  });
  it("[simulator][auth] 40003 without ACCESS-SIGN", async () => {
    expectRefused(
      await call(sim.baseUrl, {
        path: E7,
        query: { uid: subUid },
        key: sim.keys.brokerMain,
        headers: { "ACCESS-SIGN": undefined },
      }),
      "40003",
    );
  });
  it("[simulator][auth] 40005 on an unreadable timestamp", async () => {
    expectRefused(
      await call(sim.baseUrl, { path: E7, query: { uid: subUid }, key: sim.keys.brokerMain, timestamp: "yesterday" }),
      "40005",
      "Invalid ACCESS_TIMESTAMP",
    );
  });
  it("[simulator][auth] 40011 without ACCESS-PASSPHRASE", async () => {
    expectRefused(
      await call(sim.baseUrl, {
        path: E7,
        query: { uid: subUid },
        key: sim.keys.brokerMain,
        headers: { "ACCESS-PASSPHRASE": undefined },
      }),
      "40011",
    );
  });
  it("[simulator][auth] 40006 for an unknown key", async () => {
    const key = { ...sim.keys.brokerMain, apiKey: "bd_nobody" };
    expectRefused(await call(sim.baseUrl, { path: E7, query: { uid: subUid }, key }), "40006", "Invalid ACCESS_KEY");
  });
  it("[simulator][auth] 40008 when the timestamp is more than 30 s off, either way", async () => {
    const key = sim.keys.brokerMain;
    expectRefused(
      await call(sim.baseUrl, { path: E7, query: { uid: subUid }, key, timestamp: String(Date.now() - 31_000) }),
      "40008",
      "Request timestamp expired",
    );
    expectRefused(
      await call(sim.baseUrl, { path: E7, query: { uid: subUid }, key, timestamp: String(Date.now() + 31_000) }),
      "40008",
    );
    okData(
      "rebates.get",
      await call(sim.baseUrl, { path: E7, query: { uid: subUid }, key, timestamp: String(Date.now() - 25_000) }),
    );
  });
  it("[simulator][auth] 40012 for a wrong passphrase", async () => {
    const key = { ...sim.keys.brokerMain, passphrase: "not-it" };
    expectRefused(
      await call(sim.baseUrl, { path: E7, query: { uid: subUid }, key }),
      "40012",
      "apikey/password is incorrect",
    );
  });
  it("[simulator][auth] 40009 for a wrong secret", async () => {
    const key = { ...sim.keys.brokerMain, apiSecret: "wrong" };
    expectRefused(await call(sim.baseUrl, { path: E7, query: { uid: subUid }, key }), "40009", "sign signature error");
  });
  it("[simulator][auth] the clock window is configurable", async () => {
    const strict = await startSimulator({ clockSkewMs: 1_000 });
    try {
      const r = await call(strict.baseUrl, {
        path: E7,
        query: { uid: subUid },
        key: strict.keys.brokerMain,
        timestamp: String(Date.now() - 5_000),
      });
      expectRefused(r, "40008");
    } finally {
      await strict.close();
    }
  });
});

describe("[simulator][auth] what is signed", () => {
  const E4 = pathOf("fills.list");
  const sent = "orderId=a%3Ab%2Cc%20d&symbol=%24DEGENUSDT";
  it("[simulator][auth] accepts the raw query as sent", async () => {
    okData("fills.list", await call(sim.baseUrl, { path: E4, query: sent, key: sim.keys.brokerMain }));
  });
  it("[simulator][auth] accepts the percent-decoded query", async () => {
    okData(
      "fills.list",
      await call(sim.baseUrl, {
        path: E4,
        query: sent,
        signQuery: "orderId=a:b,c d&symbol=$DEGENUSDT",
        key: sim.keys.brokerMain,
      }),
    );
  });
  it("[simulator][auth] accepts $ sent unescaped (a client that un-escapes %24)", async () => {
    okData(
      "market.trades",
      await call(sim.baseUrl, {
        path: pathOf("market.trades"),
        query: "symbol=$DEGENUSDT&limit=5",
        key: sim.keys.brokerMain,
      }),
    );
    okData("fills.list", await call(sim.baseUrl, { path: E4, query: "symbol=$DEGENUSDT", key: sim.keys.brokerMain }));
  });
  it("[simulator][auth] hashes the query in the order sent, never re-sorted", async () => {
    const r = await call(sim.baseUrl, {
      path: E4,
      query: "symbol=BTCUSDT&limit=5",
      signQuery: "limit=5&symbol=BTCUSDT",
      key: sim.keys.brokerMain,
    });
    expectRefused(r, "40009");
    okData(
      "fills.list",
      await call(sim.baseUrl, { path: E4, query: "symbol=BTCUSDT&limit=5", key: sim.keys.brokerMain }),
    );
  });
  it("[simulator][auth] hashes the body bytes as sent: spaces and key order count", async () => {
    const body = '{"symbol": "BTCUSDT", "marginCoin": "USDT", "productType": "USDT-FUTURES", "leverage": 10}';
    okData(
      "leverage.set",
      await call(sim.baseUrl, { method: "POST", path: pathOf("leverage.set"), body, key: sim.keys.brokerMain }),
    );
    const compact = JSON.stringify(JSON.parse(body) as unknown);
    const ts = String(Date.now());
    const signedOther = await call(sim.baseUrl, {
      method: "POST",
      path: pathOf("leverage.set"),
      body,
      key: sim.keys.brokerMain,
      timestamp: ts,
      headers: {
        "ACCESS-SIGN": sign(sim.keys.brokerMain.apiSecret, prehash(ts, "POST", pathOf("leverage.set"), "", compact)),
      },
    });
    expectRefused(signedOther, "40009");
  });
  it("[simulator][auth] RSA keys are verified with the registered public key", async () => {
    expect(sim.keys.rsa.apiSecret).toContain("PRIVATE KEY");
    okData("rebates.get", await call(sim.baseUrl, { path: E7, query: { uid: subUid }, key: sim.keys.rsa }));
    const other = generateKeyPairSync("rsa", { modulusLength: 2048 })
      .privateKey.export({ type: "pkcs8", format: "pem" })
      .toString();
    expectRefused(
      await call(sim.baseUrl, { path: E7, query: { uid: subUid }, key: { ...sim.keys.rsa, apiSecret: other } }),
      "40009",
    );
  });
  it("[simulator][auth] strips a path prefix before verifying", async () => {
    const mounted = await startSimulator({ pathPrefix: "/sim/" });
    try {
      expect(mounted.baseUrl.endsWith("/sim")).toBe(true);
      const origin = mounted.baseUrl.slice(0, -"/sim".length);
      const sub = mounted.state.subaccountsOf(mounted.state.mainUid)[0]?.uid ?? "";
      okData(
        "rebates.get",
        await call(origin, { prefix: "/sim", path: E7, query: { uid: sub }, key: mounted.keys.brokerMain }),
      );
      // A signature over the prefixed path is what the platform would refuse.
      const r = await call(origin, {
        prefix: "",
        path: `/sim${E7}`,
        query: { uid: sub },
        key: mounted.keys.brokerMain,
      });
      expectRefused(r, "40009");
    } finally {
      await mounted.close();
    }
  });
});

describe("[simulator][auth] published signature vectors", () => {
  it("[simulator][auth] every HMAC vector passes authentication", async () => {
    const hmac = VECTORS.filter((v) => v.sign && v.timestamp && !v.secret.includes("PRIVATE KEY") && v.key);
    expect(hmac.length).toBeGreaterThan(10);
    for (const v of hmac) {
      const s = await startSimulator({
        rateLimits: "off",
        now: () => Number(v.timestamp),
        keys: { brokerMain: { apiKey: v.key ?? "", apiSecret: v.secret, passphrase: v.passphrase ?? "" } },
      });
      try {
        const r = await call(s.baseUrl, {
          method: v.method as "GET" | "POST",
          path: v.path,
          query: v.query,
          body: v.body,
          headers: {
            "ACCESS-KEY": v.key,
            "ACCESS-SIGN": v.sign ?? "",
            "ACCESS-TIMESTAMP": v.timestamp ?? "",
            "ACCESS-PASSPHRASE": v.passphrase,
          },
        });
        expect(
          ["40001", "40003", "40005", "40006", "40008", "40009", "40011", "40012"],
          `${v.endpoint} ${r.text}`,
        ).not.toContain(r.json?.code);
      } finally {
        await s.close();
      }
    }
  });
  it("[simulator][auth] the RSA vector passes with its public key registered", async () => {
    const v = VECTORS.find((x) => x.secret.includes("PRIVATE KEY") && x.sign);
    if (!v) throw new Error("no RSA vector");
    const s = await startSimulator({
      now: () => Number(v.timestamp),
      keys: { rsa: { apiKey: v.key ?? "", apiSecret: v.secret, passphrase: v.passphrase ?? "" } },
    });
    try {
      const headers = {
        "ACCESS-KEY": v.key,
        "ACCESS-SIGN": v.sign ?? "",
        "ACCESS-TIMESTAMP": v.timestamp ?? "",
        "ACCESS-PASSPHRASE": v.passphrase,
      };
      const r = await call(s.baseUrl, { path: v.path, query: v.query, headers });
      // Signature accepted; uid 1234567890 is nobody's sub-account here.
      expect(r.json?.code).toBe("40034");
      const bad = await call(s.baseUrl, { path: v.path, query: `${v.query}0`, headers });
      expect(bad.json?.code).toBe("40009");
    } finally {
      await s.close();
    }
  });
});

describe("[simulator][auth] permissions and account kinds", () => {
  const post = (path: string, body: Record<string, unknown>, key = sim.keys.readOnly) =>
    call(sim.baseUrl, { method: "POST", path, body, key });
  it("[simulator][auth] a read-only key reads but gets 40014 on every write", async () => {
    okData(
      "subaccounts.assets",
      await call(sim.baseUrl, { path: pathOf("subaccounts.assets"), query: { subUid }, key: sim.keys.readOnly }),
    );
    expectRefused(
      await post(pathOf("withdrawals.submit"), {
        subUid,
        coin: "USDT",
        dest: "on_chain",
        address: "0xabc",
        amount: "1",
      }),
      "40014",
      "Incorrect permissions",
    );
    expectRefused(await post(pathOf("subaccounts.create"), { subaccountName: "ro@x.example" }), "40014");
    expectRefused(
      await post(pathOf("riskUnits.bind"), { uid: subUid, operate: "bind", riskUnitId: sim.state.riskUnitUid }),
      "40014",
    );
    expectRefused(
      await post(pathOf("leverage.set"), {
        symbol: "BTCUSDT",
        productType: "USDT-FUTURES",
        marginCoin: "USDT",
        leverage: "5",
      }),
      "40014",
    );
  });
  it("[simulator][auth] a non-broker account gets 40029 on broker operations", async () => {
    const key = sim.keys.nonBroker;
    for (const [id, query] of [
      ["deposits.list", { userId: subUid }],
      ["subaccounts.assets", { subUid }],
      ["rebates.get", { uid: subUid }],
    ] as const) {
      expectRefused(await call(sim.baseUrl, { path: pathOf(id), query, key }), "40029");
    }
    expectRefused(await post(pathOf("subaccounts.create"), { subaccountName: "nb@x.example" }, key), "40029");
    expectRefused(
      await post(
        pathOf("withdrawals.submit"),
        { subUid, coin: "USDT", dest: "on_chain", address: "0xabc", amount: "1" },
        key,
      ),
      "40029",
    );
  });
  it("[simulator][auth] a non-broker account reads its own fills and plan orders and sets its leverage", async () => {
    const key = sim.keys.nonBroker;
    const own = okData(
      "fills.list",
      await call(sim.baseUrl, { path: pathOf("fills.list"), query: { limit: "5" }, key }),
    );
    expect(own.length).toBeGreaterThan(0);
    expect(own.every((f) => f.userId === key.uid)).toBe(true);
    const plan = okData(
      "planOrders.history",
      await call(sim.baseUrl, {
        path: pathOf("planOrders.history"),
        query: { symbol: "BTCUSDT", startTime: String(Date.now() - 80 * 86_400_000), endTime: String(Date.now()) },
        key,
      }),
    );
    expect(plan.orderList.length).toBeGreaterThan(0);
    okData(
      "leverage.set",
      await post(
        pathOf("leverage.set"),
        { symbol: "BTCUSDT", productType: "USDT-FUTURES", marginCoin: "USDT", leverage: "5" },
        key,
      ),
    );
  });
});

describe("[simulator][auth] public operations", () => {
  it("[simulator][auth] E8 and E11 need no headers", async () => {
    okData(
      "market.trades",
      await call(sim.baseUrl, { path: pathOf("market.trades"), query: { symbol: "BTCUSDT", limit: "3" } }),
    );
    okData(
      "oiLimits.list",
      await call(sim.baseUrl, { path: pathOf("oiLimits.list"), query: { productType: "USDT-FUTURES" } }),
    );
  });
  it("[simulator][auth] E8 and E11 ignore auth headers, even wrong ones, and extra headers", async () => {
    const key = { ...sim.keys.brokerMain, apiSecret: "wrong" };
    const headers = { "X-CHANNEL-API-CODE": "hbnni", paptrading: "1" };
    okData(
      "market.trades",
      await call(sim.baseUrl, { path: pathOf("market.trades"), query: { symbol: "BTCUSDT" }, key, headers }),
    );
    okData(
      "oiLimits.list",
      await call(sim.baseUrl, {
        path: pathOf("oiLimits.list"),
        query: { productType: "usdt-futures" },
        key: sim.keys.brokerMain,
        headers,
      }),
    );
  });
  it("[simulator][auth] an unknown path is 404 with the platform's envelope", async () => {
    const r = await call(sim.baseUrl, { path: "/api/v2/nothing/here", key: sim.keys.brokerMain });
    expect(r.status).toBe(404);
    expect(r.json?.code).toBe("40404");
  });
});
