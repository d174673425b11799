// Every request rule of the catalog, each with an input it accepts and one it refuses.
// A refusal must name the field twice: in the zod issue path (forms map it onto the field) and in
// the message (the CLI and the proxy show the message alone).
import { describe, expect, it } from "vitest";
import type * as z from "zod/mini";
import { catalog, type OperationId } from "@/lib/platform/catalog";
import { DAY_MS, PRODUCT_TYPES, THREE_MONTHS_MS, WITHDRAWAL_COINS } from "@/lib/platform/schemas";

type Input = Record<string, unknown>;

const requestOf = (id: OperationId): z.ZodMiniType => catalog[id].request;

function expectAccepted(id: OperationId, input: Input) {
  const result = requestOf(id).safeParse(input);
  expect(result.error?.issues ?? [], `${id} should accept ${JSON.stringify(input)}`).toEqual([]);
  expect(result.success).toBe(true);
}

function expectRefusedNaming(id: OperationId, input: Input, field: string) {
  const result = requestOf(id).safeParse(input);
  expect(result.success, `${id} should refuse ${JSON.stringify(input)}`).toBe(false);
  const issues = result.error?.issues ?? [];
  const issue = issues.find((i) => i.path.length === 1 && i.path[0] === field);
  expect(issue, `no issue on "${field}" in ${JSON.stringify(issues)}`).toBeDefined();
  expect(issue?.message).toContain(field);
}

// Fixed instants for rules that do not depend on "now"; E4's retention uses times relative to now.
const T0 = 1_700_000_000_000;
const ms = (n: number) => String(n);
const now = () => Date.now();

type Rule = { id: OperationId; rule: string; accepts: Input; refuses: Input; field: string };

const E1 = { userId: "1234567" } satisfies Input;
const E3 = { symbol: "BTCUSDT", startTime: ms(T0), endTime: ms(T0 + DAY_MS) } satisfies Input;
const E5 = {
  subUid: "88886666",
  coin: "USDT",
  dest: "on_chain",
  address: "TQ3pYk1bLkS1mC9sLrZ3nHq5xVgqYq2Wm4",
  amount: "25.5",
} satisfies Input;
const E5_INTERNAL = { ...E5, dest: "internal_transfer", address: "99990000" } satisfies Input;
const E9 = { uid: "88886666", operate: "bind", riskUnitId: "77770000" } satisfies Input;
const E10 = { symbol: "BTCUSDT", productType: "USDT-FUTURES", marginCoin: "USDT", leverage: "20" } satisfies Input;
const without = (input: Input, key: string): Input =>
  Object.fromEntries(Object.entries(input).filter(([k]) => k !== key));

const rules: Rule[] = [
  // E1
  {
    id: "deposits.list",
    rule: "needs orderId or userId (userId given)",
    accepts: { userId: "1234567" },
    refuses: {},
    field: "userId",
  },
  {
    id: "deposits.list",
    rule: "needs orderId or userId (orderId given)",
    accepts: { orderId: "1111" },
    refuses: { orderId: "", userId: "" },
    field: "userId",
  },
  {
    id: "deposits.list",
    rule: "span of at most three months",
    accepts: { ...E1, startTime: ms(T0), endTime: ms(T0 + THREE_MONTHS_MS) },
    refuses: { ...E1, startTime: ms(T0), endTime: ms(T0 + THREE_MONTHS_MS + 1) },
    field: "endTime",
  },
  {
    id: "deposits.list",
    rule: "endTime not before startTime",
    accepts: { ...E1, startTime: ms(T0), endTime: ms(T0) },
    refuses: { ...E1, startTime: ms(T0), endTime: ms(T0 - 1) },
    field: "endTime",
  },
  {
    id: "deposits.list",
    rule: "startTime a ms timestamp",
    accepts: { ...E1, startTime: ms(T0) },
    refuses: { ...E1, startTime: "2024-01-01" },
    field: "startTime",
  },
  {
    id: "deposits.list",
    rule: "limit at least 1",
    accepts: { ...E1, limit: "1" },
    refuses: { ...E1, limit: "0" },
    field: "limit",
  },
  {
    id: "deposits.list",
    rule: "limit at most 100",
    accepts: { ...E1, limit: "100" },
    refuses: { ...E1, limit: "101" },
    field: "limit",
  },
  {
    id: "deposits.list",
    rule: "limit a whole number",
    accepts: { ...E1, limit: "20" },
    refuses: { ...E1, limit: "20.5" },
    field: "limit",
  },
  // E2
  { id: "subaccounts.assets", rule: "subUid required", accepts: { subUid: "88886666" }, refuses: {}, field: "subUid" },
  {
    id: "subaccounts.assets",
    rule: "subUid not blank",
    accepts: { subUid: "88886666", coin: "BTC" },
    refuses: { subUid: "  " },
    field: "subUid",
  },
  {
    id: "subaccounts.assets",
    rule: "assetType hold_only",
    accepts: { subUid: "88886666", assetType: "hold_only" },
    refuses: { subUid: "88886666", assetType: "held" },
    field: "assetType",
  },
  {
    id: "subaccounts.assets",
    rule: "assetType all",
    accepts: { subUid: "88886666", assetType: "all" },
    refuses: { subUid: "88886666", assetType: "ALL" },
    field: "assetType",
  },
  // E3
  { id: "planOrders.history", rule: "symbol required", accepts: E3, refuses: without(E3, "symbol"), field: "symbol" },
  {
    id: "planOrders.history",
    rule: "startTime required",
    accepts: E3,
    refuses: without(E3, "startTime"),
    field: "startTime",
  },
  {
    id: "planOrders.history",
    rule: "endTime required",
    accepts: E3,
    refuses: without(E3, "endTime"),
    field: "endTime",
  },
  {
    id: "planOrders.history",
    rule: "endTime after startTime",
    accepts: { ...E3, endTime: ms(T0 + 1) },
    refuses: { ...E3, endTime: ms(T0) },
    field: "endTime",
  },
  {
    id: "planOrders.history",
    rule: "span of at most 90 days",
    accepts: { ...E3, endTime: ms(T0 + 90 * DAY_MS) },
    refuses: { ...E3, endTime: ms(T0 + 90 * DAY_MS + 1) },
    field: "endTime",
  },
  {
    id: "planOrders.history",
    rule: "limit at most 100",
    accepts: { ...E3, limit: "100" },
    refuses: { ...E3, limit: "101" },
    field: "limit",
  },
  // E4 (times relative to now: nothing older than 90 days is kept)
  {
    id: "fills.list",
    rule: "nothing older than 90 days",
    accepts: { startTime: ms(now() - 89 * DAY_MS) },
    refuses: { startTime: ms(now() - 91 * DAY_MS) },
    field: "startTime",
  },
  {
    id: "fills.list",
    rule: "span of at most 90 days",
    accepts: { startTime: ms(now() - 89 * DAY_MS), endTime: ms(now()) },
    refuses: { startTime: ms(now() - 89 * DAY_MS), endTime: ms(now() + 2 * DAY_MS) },
    field: "endTime",
  },
  {
    id: "fills.list",
    rule: "endTime not before startTime",
    accepts: { startTime: ms(now() - DAY_MS), endTime: ms(now()) },
    refuses: { startTime: ms(now() - DAY_MS), endTime: ms(now() - 2 * DAY_MS) },
    field: "endTime",
  },
  {
    id: "fills.list",
    rule: "limit at most 100",
    accepts: { symbol: "BTCUSDT", limit: "100" },
    refuses: { symbol: "BTCUSDT", limit: "101" },
    field: "limit",
  },
  // E5
  {
    id: "withdrawals.submit",
    rule: "subUid a numeric UID",
    accepts: E5,
    refuses: { ...E5, subUid: "sub-one" },
    field: "subUid",
  },
  {
    id: "withdrawals.submit",
    rule: "coin one of the accepted coins",
    accepts: { ...E5, coin: "AVAX" },
    refuses: { ...E5, coin: "PEPE" },
    field: "coin",
  },
  {
    id: "withdrawals.submit",
    rule: "coin in upper case",
    accepts: { ...E5, coin: "BTC" },
    refuses: { ...E5, coin: "btc" },
    field: "coin",
  },
  { id: "withdrawals.submit", rule: "coin required", accepts: E5, refuses: without(E5, "coin"), field: "coin" },
  {
    id: "withdrawals.submit",
    rule: "dest on_chain or internal_transfer",
    accepts: E5_INTERNAL,
    refuses: { ...E5, dest: "wire" },
    field: "dest",
  },
  { id: "withdrawals.submit", rule: "dest required", accepts: E5, refuses: without(E5, "dest"), field: "dest" },
  {
    id: "withdrawals.submit",
    rule: "address required",
    accepts: E5,
    refuses: without(E5, "address"),
    field: "address",
  },
  {
    id: "withdrawals.submit",
    rule: "address not blank",
    accepts: E5,
    refuses: { ...E5, address: " " },
    field: "address",
  },
  {
    id: "withdrawals.submit",
    rule: "address a numeric UID for internal_transfer",
    accepts: E5_INTERNAL,
    refuses: { ...E5_INTERNAL, address: "0xabc123" },
    field: "address",
  },
  { id: "withdrawals.submit", rule: "amount required", accepts: E5, refuses: without(E5, "amount"), field: "amount" },
  {
    id: "withdrawals.submit",
    rule: "amount positive",
    accepts: { ...E5, amount: "0.00000001" },
    refuses: { ...E5, amount: "0" },
    field: "amount",
  },
  {
    id: "withdrawals.submit",
    rule: "amount not zero with decimals",
    accepts: { ...E5, amount: "0.1" },
    refuses: { ...E5, amount: "0.000" },
    field: "amount",
  },
  {
    id: "withdrawals.submit",
    rule: "amount not negative",
    accepts: { ...E5, amount: "1" },
    refuses: { ...E5, amount: "-1" },
    field: "amount",
  },
  {
    id: "withdrawals.submit",
    rule: "amount a plain decimal (no exponent)",
    accepts: { ...E5, amount: "1000" },
    refuses: { ...E5, amount: "1e3" },
    field: "amount",
  },
  {
    id: "withdrawals.submit",
    rule: "amount a string, never a float",
    accepts: { ...E5, amount: "12.5" },
    refuses: { ...E5, amount: 12.5 },
    field: "amount",
  },
  {
    id: "withdrawals.submit",
    rule: "amount without surrounding whitespace",
    accepts: { ...E5, amount: "1" },
    refuses: { ...E5, amount: "1\n" },
    field: "amount",
  },
  {
    id: "withdrawals.submit",
    rule: "amount without inner whitespace",
    accepts: { ...E5, amount: "1000" },
    refuses: { ...E5, amount: "1 000" },
    field: "amount",
  },
  {
    id: "withdrawals.submit",
    rule: "amount at most 30 digits before the point",
    accepts: { ...E5, amount: "9".repeat(30) },
    refuses: { ...E5, amount: "1".repeat(40) },
    field: "amount",
  },
  {
    id: "withdrawals.submit",
    rule: "chain optional, a string",
    accepts: { ...E5, chain: "trc20" },
    refuses: { ...E5, chain: 20 },
    field: "chain",
  },
  {
    id: "withdrawals.submit",
    rule: "tag optional, a string",
    accepts: { ...E5, tag: "memo-1" },
    refuses: { ...E5, tag: 7 },
    field: "tag",
  },
  {
    id: "withdrawals.submit",
    rule: "clientOid optional, a safe id",
    accepts: { ...E5, clientOid: "wd_2024-0001" },
    refuses: { ...E5, clientOid: "wd 1; drop" },
    field: "clientOid",
  },
  // E6
  {
    id: "subaccounts.create",
    rule: "subaccountName required",
    accepts: { subaccountName: "desk01@example.com" },
    refuses: {},
    field: "subaccountName",
  },
  {
    id: "subaccounts.create",
    rule: "subaccountName in e-mail form",
    accepts: { subaccountName: "desk01@example.com" },
    refuses: { subaccountName: "desk01" },
    field: "subaccountName",
  },
  {
    id: "subaccounts.create",
    rule: "subaccountName an e-mail address, not anything with an @",
    accepts: { subaccountName: "desk.01+ops@sub.example.com" },
    refuses: { subaccountName: "desk'01\"<x>@example.com" },
    field: "subaccountName",
  },
  {
    id: "subaccounts.create",
    rule: "subaccountName without spaces, doubled dots or a second @",
    accepts: { subaccountName: "a_b-c@example.io" },
    refuses: { subaccountName: "a..b@example.com" },
    field: "subaccountName",
  },
  {
    id: "subaccounts.create",
    rule: "subaccountName domain ends in a top-level name",
    accepts: { subaccountName: "desk@brokerdesk-sim.example" },
    refuses: { subaccountName: "desk@example.c0m" },
    field: "subaccountName",
  },
  {
    id: "subaccounts.create",
    rule: "label shorter than 20",
    accepts: { subaccountName: "desk01@example.com", label: "x".repeat(19) },
    refuses: { subaccountName: "desk01@example.com", label: "x".repeat(20) },
    field: "label",
  },
  // E7
  { id: "rebates.get", rule: "uid required", accepts: { uid: "1234567" }, refuses: {}, field: "uid" },
  { id: "rebates.get", rule: "uid not empty", accepts: { uid: "1234567" }, refuses: { uid: "" }, field: "uid" },
  // E8
  { id: "market.trades", rule: "symbol required", accepts: { symbol: "BTCUSDT" }, refuses: {}, field: "symbol" },
  {
    id: "market.trades",
    rule: "symbol a trading pair, not SQL",
    accepts: { symbol: "$DEGENUSDT" },
    refuses: { symbol: "BTCUSDT' OR 1=1--" },
    field: "symbol",
  },
  {
    id: "market.trades",
    rule: "symbol at most 32 characters",
    accepts: { symbol: "A".repeat(32) },
    refuses: { symbol: "A".repeat(100_000) },
    field: "symbol",
  },
  {
    id: "planOrders.history",
    rule: "symbol a trading pair",
    accepts: E3,
    refuses: { ...E3, symbol: "BTC/USDT" },
    field: "symbol",
  },
  {
    id: "fills.list",
    rule: "symbol, when given, a trading pair",
    accepts: { symbol: "" },
    refuses: { symbol: "BTCUSDT;" },
    field: "symbol",
  },
  {
    id: "oiLimits.list",
    rule: "symbol, when given, a trading pair",
    accepts: { productType: "USDT-FUTURES", symbol: "BTCUSDT" },
    refuses: { productType: "USDT-FUTURES", symbol: "BTC USDT" },
    field: "symbol",
  },
  {
    id: "deposits.list",
    rule: "orderId at most 128 characters",
    accepts: { orderId: "1".repeat(128) },
    refuses: { orderId: "1".repeat(129) },
    field: "orderId",
  },
  {
    id: "market.trades",
    rule: "limit at most 1000",
    accepts: { symbol: "BTCUSDT", limit: "1000" },
    refuses: { symbol: "BTCUSDT", limit: "1001" },
    field: "limit",
  },
  {
    id: "market.trades",
    rule: "span of at most 7 days",
    accepts: { symbol: "BTCUSDT", startTime: ms(T0), endTime: ms(T0 + 7 * DAY_MS) },
    refuses: { symbol: "BTCUSDT", startTime: ms(T0), endTime: ms(T0 + 7 * DAY_MS + 1) },
    field: "endTime",
  },
  // E9 (riskUnitId for the main account's key is a key rule, tested below)
  { id: "riskUnits.bind", rule: "uid required", accepts: E9, refuses: without(E9, "uid"), field: "uid" },
  { id: "riskUnits.bind", rule: "uid a numeric UID", accepts: E9, refuses: { ...E9, uid: "abc" }, field: "uid" },
  {
    id: "riskUnits.bind",
    rule: "uid not equal to riskUnitId",
    accepts: E9,
    refuses: { ...E9, uid: "77770000" },
    field: "uid",
  },
  { id: "riskUnits.bind", rule: "operate required", accepts: E9, refuses: without(E9, "operate"), field: "operate" },
  {
    id: "riskUnits.bind",
    rule: "operate bind or unbind",
    accepts: { ...E9, operate: "unbind" },
    refuses: { ...E9, operate: "link" },
    field: "operate",
  },
  // E10
  { id: "leverage.set", rule: "symbol required", accepts: E10, refuses: without(E10, "symbol"), field: "symbol" },
  {
    id: "leverage.set",
    rule: "productType required",
    accepts: E10,
    refuses: without(E10, "productType"),
    field: "productType",
  },
  {
    id: "leverage.set",
    rule: "productType one of the six",
    accepts: { ...E10, productType: "SUSDC-FUTURES" },
    refuses: { ...E10, productType: "SPOT" },
    field: "productType",
  },
  {
    id: "leverage.set",
    rule: "marginCoin required",
    accepts: E10,
    refuses: without(E10, "marginCoin"),
    field: "marginCoin",
  },
  {
    id: "leverage.set",
    rule: "marginCoin in upper case",
    accepts: { ...E10, marginCoin: "BTC" },
    refuses: { ...E10, marginCoin: "usdt" },
    field: "marginCoin",
  },
  { id: "leverage.set", rule: "leverage required", accepts: E10, refuses: without(E10, "leverage"), field: "leverage" },
  {
    id: "leverage.set",
    rule: "leverage a whole number of at least 1",
    accepts: { ...E10, leverage: "1" },
    refuses: { ...E10, leverage: "0" },
    field: "leverage",
  },
  {
    id: "leverage.set",
    rule: "leverage at most 125, the ceiling of every contract",
    accepts: { ...E10, leverage: "125" },
    refuses: { ...E10, leverage: "9".repeat(40) },
    field: "leverage",
  },
  {
    id: "leverage.set",
    rule: "leverage within the symbol's bound (ETH 100)",
    accepts: { ...E10, symbol: "ETHUSDT", leverage: "100" },
    refuses: { ...E10, symbol: "ETHUSDT", leverage: "101" },
    field: "leverage",
  },
  {
    id: "leverage.set",
    rule: "leverage within the symbol's bound (others 50)",
    accepts: { ...E10, symbol: "SOLUSDT", leverage: "50" },
    refuses: { ...E10, symbol: "SOLUSDT", leverage: "51" },
    field: "leverage",
  },
  {
    id: "leverage.set",
    rule: "leverage within the symbol's bound (coin-margined)",
    accepts: { symbol: "ETHUSD", productType: "COIN-FUTURES", marginCoin: "ETH", leverage: "100" },
    refuses: { symbol: "XRPUSD", productType: "COIN-FUTURES", marginCoin: "XRP", leverage: "51" },
    field: "leverage",
  },
  {
    id: "leverage.set",
    rule: "symbol a trading pair",
    accepts: E10,
    refuses: { ...E10, symbol: "BTCUSDT' OR 1=1--" },
    field: "symbol",
  },
  {
    id: "leverage.set",
    rule: "holdSide long or short",
    accepts: { ...E10, holdSide: "short" },
    refuses: { ...E10, holdSide: "both" },
    field: "holdSide",
  },
  // E11
  {
    id: "oiLimits.list",
    rule: "productType required",
    accepts: { productType: "USDT-FUTURES" },
    refuses: { symbol: "BTCUSDT" },
    field: "productType",
  },
  {
    id: "oiLimits.list",
    rule: "productType one of the three",
    accepts: { productType: "COIN-FUTURES" },
    refuses: { productType: "SUSDT-FUTURES" },
    field: "productType",
  },
  {
    id: "oiLimits.list",
    rule: "productType accepted in lower case",
    accepts: { productType: "usdc-futures", symbol: "BTCUSDT" },
    refuses: { productType: "usdt-margin" },
    field: "productType",
  },
];

describe("catalog request rules", () => {
  it.each(rules)("[$id][request] accepts: $rule", ({ id, accepts }) => {
    expectAccepted(id, accepts);
  });

  it.each(rules)("[$id][request] refuses naming $field: $rule", ({ id, refuses, field }) => {
    expectRefusedNaming(id, refuses, field);
  });

  it("[deposits.list][request] refuses a span over three months naming endTime even without an explicit end", () => {
    // THREE_MONTHS_MS is the shortest reading of "three months" (90 days), so 91 days is refused.
    expect(THREE_MONTHS_MS).toBe(90 * DAY_MS);
    expectRefusedNaming("deposits.list", { orderId: "1", startTime: ms(T0), endTime: ms(T0 + 91 * DAY_MS) }, "endTime");
  });

  it("[deposits.list][request] mentions both orderId and userId when neither is given", () => {
    const result = requestOf("deposits.list").safeParse({ limit: "20" });
    expect(result.error?.issues.some((i) => i.message.includes("orderId") && i.message.includes("userId"))).toBe(true);
  });

  it("[fills.list][request] accepts no parameters at all", () => {
    expectAccepted("fills.list", {});
  });

  it.each(WITHDRAWAL_COINS.map((coin) => ({ coin })))(
    "[withdrawals.submit][request] accepts coin $coin",
    ({ coin }) => {
      expectAccepted("withdrawals.submit", { ...E5, coin });
    },
  );

  it("[withdrawals.submit][request] accepts exactly 24 coins", () => {
    expect(new Set(WITHDRAWAL_COINS).size).toBe(24);
  });

  it("[withdrawals.submit][request] keeps the amount a string, exactly as typed", () => {
    const out = requestOf("withdrawals.submit").parse({ ...E5, amount: "0.10000000" }) as { amount: unknown };
    expect(out.amount).toBe("0.10000000");
  });

  it("[withdrawals.submit][request] accepts a non-numeric address for on_chain", () => {
    expectAccepted("withdrawals.submit", {
      ...E5,
      dest: "on_chain",
      address: "0xAbC0000000000000000000000000000000000001",
    });
  });

  it("[withdrawals.submit][request] accepts chain, tag and clientOid together", () => {
    expectAccepted("withdrawals.submit", { ...E5, chain: "trc20", tag: "memo", clientOid: "bd-1" });
  });

  it.each(PRODUCT_TYPES.map((productType) => ({ productType })))(
    "[leverage.set][request] accepts productType $productType",
    ({ productType }) => {
      expectAccepted("leverage.set", { ...E10, productType });
    },
  );

  it("[leverage.set][request] refuses a lower-case productType (only E11 is lenient)", () => {
    expectRefusedNaming("leverage.set", { ...E10, productType: "usdt-futures" }, "productType");
  });

  it.each(
    ["USDT-FUTURES", "COIN-FUTURES", "USDC-FUTURES", "usdt-futures", "Coin-Futures"].map((productType) => ({
      productType,
    })),
  )("[oiLimits.list][request] accepts productType $productType", ({ productType }) => {
    expectAccepted("oiLimits.list", { productType });
  });
});

describe("[riskUnits.bind][keyRule] riskUnitId when the main account's key calls", () => {
  const op = catalog["riskUnits.bind"];
  const parse = (input: Input) => op.request.parse(input);

  it("[riskUnits.bind][keyRule] refuses a missing riskUnitId for broker-main, naming riskUnitId", () => {
    const problems = op.keyRule?.(parse(without(E9, "riskUnitId")), "broker-main") ?? {};
    expect(Object.keys(problems)).toEqual(["riskUnitId"]);
    expect(problems.riskUnitId).toContain("riskUnitId");
  });

  it("[riskUnits.bind][keyRule] accepts broker-main with a riskUnitId", () => {
    expect(op.keyRule?.(parse(E9), "broker-main")).toEqual({});
  });

  it.each(["risk-unit", "sub-account", "other"] as const)(
    "[riskUnits.bind][keyRule] does not need riskUnitId for a %s key",
    (keyRole) => {
      expect(op.keyRule?.(parse(without(E9, "riskUnitId")), keyRole)).toEqual({});
    },
  );

  it("[riskUnits.bind][keyRule] is declared (the request schema alone cannot know the key)", () => {
    expect(typeof op.keyRule).toBe("function");
    expectAccepted("riskUnits.bind", without(E9, "riskUnitId"));
  });
});

describe("[fills.list][request] retention applies to endTime too", () => {
  it("[fills.list][request] refuses an endTime older than 90 days, naming endTime", () => {
    const old = String(Date.now() - 91 * 86_400_000);
    const r = catalog["fills.list"].request.safeParse({ endTime: old });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(["endTime"]);
  });
});

describe("[deposits.list][response] data null", () => {
  it("[deposits.list][response] reads data: null as no records", () => {
    expect(catalog["deposits.list"].response.parse(null)).toEqual([]);
  });
});
