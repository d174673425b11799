// Every published sample response parses with its operation's response schema, and the quirks the
// spec names are normalised here, once (ARCHITECTURE "One catalog drives everything").
import { describe, expect, it } from "vitest";
import type * as z from "zod/mini";
import { catalog, OPERATION_IDS, type OperationId } from "@/lib/platform/catalog";
import { envelopeSchema } from "@/lib/platform/schemas";
import samplesJson from "@/lib/platform/fixtures/spec-samples.json";

const samples = samplesJson as unknown as Record<OperationId, string[]> & { about: string };

type Json = Record<string, unknown>;

const responseOf = (id: OperationId): z.ZodMiniType => catalog[id].response;
const dataOf = (sample: string): unknown => (JSON.parse(sample) as { data: unknown }).data;
const firstData = (id: OperationId): unknown => {
  const sample = samples[id][0];
  if (sample === undefined) throw new Error(`no sample for ${id}`);
  return dataOf(sample);
};
const parseData = <T = unknown>(id: OperationId, data: unknown): T => {
  const result = responseOf(id).safeParse(data);
  expect(result.error?.issues ?? []).toEqual([]);
  return result.data as T;
};
/** The sample's data with some keys replaced or renamed, to build the variants the spec mentions. */
const variant = (data: unknown, patch: (row: Json) => Json): Json => patch({ ...(data as Json) });
const rename = (row: Json, from: string, to: string): Json => {
  const { [from]: value, ...rest } = row;
  return { ...rest, [to]: value };
};

const allSamples = OPERATION_IDS.flatMap((id) => (samples[id] ?? []).map((sample, index) => ({ id, index, sample })));

describe("spec samples", () => {
  it("[catalog][samples] has at least one sample for every operation", () => {
    for (const id of OPERATION_IDS) expect(samples[id]?.length ?? 0, id).toBeGreaterThan(0);
    expect(
      Object.keys(samples)
        .filter((k) => k !== "about")
        .sort(),
    ).toEqual([...OPERATION_IDS].sort());
  });

  it.each(allSamples)("[$id][response] parses sample #$index", ({ id, sample }) => {
    const envelope = envelopeSchema.parse(JSON.parse(sample));
    expect(envelope.code).toBe("00000");
    expect(envelope.msg).toBe("success");
    expect(Number.isFinite(envelope.requestTime)).toBe(true);
    parseData(id, envelope.data);
  });
});

describe("[deposits.list][response]", () => {
  type Row = { orderId: string; cTime: string; uTime: string; userId: string; amount: string };

  it("[deposits.list][response] turns the documented single object into an array", () => {
    const rows = parseData<Row[]>("deposits.list", firstData("deposits.list"));
    expect(Array.isArray(rows)).toBe(true);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ orderId: "XXXXX", amount: "10", userId: "123456", cTime: "1689833233282" });
  });

  it("[deposits.list][response] keeps an array as an array, with a missing userId as empty", () => {
    const rows = parseData<Row[]>("deposits.list", dataOf(samples["deposits.list"][1] ?? ""));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.userId).toBe("");
  });

  it("[deposits.list][response] reads ctime as cTime", () => {
    const data = variant(firstData("deposits.list"), (r) => rename(r, "cTime", "ctime"));
    const [row] = parseData<Row[]>("deposits.list", [data]);
    expect(row?.cTime).toBe("1689833233282");
    expect(row).not.toHaveProperty("ctime");
  });

  it("[deposits.list][response] normalises seconds timestamps to ms", () => {
    const data = variant(firstData("deposits.list"), (r) => ({ ...r, cTime: "1689833233", uTime: 1689833234 }));
    const [row] = parseData<Row[]>("deposits.list", data);
    expect(row?.cTime).toBe("1689833233000");
    expect(row?.uTime).toBe("1689833234000");
  });

  it("[deposits.list][response] refuses a record without orderId", () => {
    const data = variant(firstData("deposits.list"), (r) => rename(r, "orderId", "id"));
    expect(responseOf("deposits.list").safeParse(data).success).toBe(false);
  });
});

describe("[subaccounts.create][response]", () => {
  it("[subaccounts.create][response] reads the field table's ctime as cTime", () => {
    const data = variant(firstData("subaccounts.create"), (r) => rename(r, "cTime", "ctime"));
    const out = parseData<Json>("subaccounts.create", data);
    expect(out.cTime).toBe("1695784057280");
    expect(out).not.toHaveProperty("ctime");
  });

  it("[subaccounts.create][response] keeps the sample's cTime and permList", () => {
    const out = parseData<Json>("subaccounts.create", firstData("subaccounts.create"));
    expect(out).toMatchObject({ status: "normal", label: "old remark", cTime: "1695784057280" });
    expect(out.permList).toEqual(["read", "spot_trade", "contract_trade", "transfer", "withdraw", "deposit"]);
  });

  it("[subaccounts.create][response] prefers cTime when both spellings arrive", () => {
    const data = variant(firstData("subaccounts.create"), (r) => ({ ...r, ctime: "1" }));
    expect(parseData<Json>("subaccounts.create", data).cTime).toBe("1695784057280");
  });
});

describe("[leverage.set][response]", () => {
  it("[leverage.set][response] keeps the sample's shortLeverage", () => {
    const out = parseData<Json>("leverage.set", firstData("leverage.set"));
    expect(out).toEqual({
      symbol: "BTCUSDT",
      marginCoin: "USDT",
      longLeverage: "25",
      shortLeverage: "20",
      crossMarginLeverage: "20",
      marginMode: "crossed",
    });
  });

  it("[leverage.set][response] reads the field table's shortLeveage as shortLeverage", () => {
    const data = variant(firstData("leverage.set"), (r) => ({
      ...rename(r, "shortLeverage", "shortLeveage"),
      shortLeveage: "15",
    }));
    const out = parseData<Json>("leverage.set", data);
    expect(out.shortLeverage).toBe("15");
    expect(out).not.toHaveProperty("shortLeveage");
  });
});

describe("[market.trades][response]", () => {
  type Trade = { side: string; ts: string; tradeId: string };

  it("[market.trades][response] lower-cases Buy and Sell", () => {
    const rows = parseData<Trade[]>("market.trades", dataOf(samples["market.trades"][1] ?? ""));
    expect(rows.map((r) => r.side)).toEqual(["buy", "sell"]);
    expect(rows[0]?.tradeId).toBe("1294151170843025500");
  });

  it("[market.trades][response] keeps lower-case sides as they are", () => {
    const rows = parseData<Trade[]>("market.trades", firstData("market.trades"));
    expect(rows.map((r) => r.side)).toEqual(["buy", "sell"]);
  });

  it("[market.trades][response] normalises a seconds ts to ms and keeps a ms ts", () => {
    const [row] = firstData("market.trades") as Json[];
    const rows = parseData<Trade[]>("market.trades", [{ ...row, ts: "1695865232" }, row]);
    expect(rows.map((r) => r.ts)).toEqual(["1695865232000", "1622097282536"]);
  });

  it("[market.trades][response] reads null data as no trades", () => {
    expect(parseData("market.trades", null)).toEqual([]);
  });
});

describe("[fills.list][response]", () => {
  type FillOut = { cTime: string; uTime: string; side: string; feeDetail: Json };

  it("[fills.list][response] normalises seconds timestamps to ms", () => {
    const [row] = firstData("fills.list") as Json[];
    const [out] = parseData<FillOut[]>("fills.list", [{ ...row, cTime: "1695865232", uTime: 1695865233 }]);
    expect(out?.cTime).toBe("1695865232000");
    expect(out?.uTime).toBe("1695865233000");
  });

  it("[fills.list][response] keeps millisecond timestamps and the negative fee as strings", () => {
    const [out] = parseData<FillOut[]>("fills.list", firstData("fills.list"));
    expect(out?.cTime).toBe("1695865232579");
    expect(out?.uTime).toBe("1695865233027");
    expect(out?.feeDetail).toEqual({ deduction: "no", feeCoin: "BTC", totalDeductionFee: "", totalFee: "-0.0000007" });
  });

  it("[fills.list][response] refuses a timestamp that is not digits", () => {
    const [row] = firstData("fills.list") as Json[];
    expect(responseOf("fills.list").safeParse([{ ...row, cTime: "2023-09-28" }]).success).toBe(false);
  });
});

describe("[riskUnits.bind][response]", () => {
  it('[riskUnits.bind][response] reads data "success" as {result, riskUnitIds}', () => {
    expect(parseData("riskUnits.bind", "success")).toEqual({ result: "success", riskUnitIds: [] });
  });

  it("[riskUnits.bind][response] reads data {riskUnitId:[...]} as {result, riskUnitIds}", () => {
    expect(parseData("riskUnits.bind", firstData("riskUnits.bind"))).toEqual({
      result: "success",
      riskUnitIds: ["xxxxxxxx", "xxxxxxxx"],
    });
  });

  it("[riskUnits.bind][response] gives both samples the same keys", () => {
    const shapes = samples["riskUnits.bind"].map((s) =>
      Object.keys(parseData<Json>("riskUnits.bind", dataOf(s))).sort(),
    );
    expect(shapes).toEqual([
      ["result", "riskUnitIds"],
      ["result", "riskUnitIds"],
    ]);
  });

  it("[riskUnits.bind][response] reads a single riskUnitId string as a one-element list", () => {
    expect(parseData("riskUnits.bind", { riskUnitId: "r1" })).toEqual({ result: "success", riskUnitIds: ["r1"] });
  });
});

describe("[planOrders.history][response]", () => {
  type Page = { nextFlag: boolean; idLessThan: string; orderList: Json[] };

  it("[planOrders.history][response] keeps nextFlag a boolean", () => {
    const out = parseData<Page>("planOrders.history", firstData("planOrders.history"));
    expect(out.nextFlag).toBe(false);
    expect(out.idLessThan).toBe("1");
    expect(out.orderList).toHaveLength(1);
    expect(out.orderList[0]).toMatchObject({ status: "not_trigger", side: "buy", cTime: "1668134576563" });
  });

  it.each([
    [true, true],
    ["true", true],
    ["false", false],
  ] as const)("[planOrders.history][response] reads nextFlag %j as %j", (wire, expected) => {
    const data = variant(firstData("planOrders.history"), (r) => ({ ...r, nextFlag: wire }));
    expect(parseData<Page>("planOrders.history", data).nextFlag).toBe(expected);
  });

  it("[planOrders.history][response] reads a null orderList as empty", () => {
    const data = variant(firstData("planOrders.history"), (r) => ({ ...r, orderList: null }));
    expect(parseData<Page>("planOrders.history", data).orderList).toEqual([]);
  });
});

describe("other responses", () => {
  it("[subaccounts.assets][response] keeps amounts as the exact strings sent", () => {
    const out = parseData<{ assetsList: Json[] }>("subaccounts.assets", firstData("subaccounts.assets"));
    expect(out.assetsList.map((a) => [a.coin, a.available, a.uTime])).toEqual([
      ["BTC", "100.00000000", "1692105973000"],
      ["USDT", "100.00000000", "1692105971000"],
      ["ETH", "100000.00000000", "1695024539000"],
    ]);
  });

  it("[withdrawals.submit][response] yields orderId and clientOid", () => {
    expect(parseData("withdrawals.submit", firstData("withdrawals.submit"))).toEqual({
      orderId: "121211212122",
      clientOid: "121211212122",
    });
  });

  it("[withdrawals.submit][response] refuses a reply without orderId", () => {
    expect(responseOf("withdrawals.submit").safeParse({ clientOid: "x" }).success).toBe(false);
  });

  it("[rebates.get][response] yields the four rebate fields", () => {
    expect(parseData("rebates.get", firstData("rebates.get"))).toEqual({
      affiliationType: "affiliate",
      userLevel: "VIP7",
      clientSpotRebateRatio: "0.07",
      clientFuturesRebateRatio: "0.08",
    });
  });

  it("[oiLimits.list][response] yields the OI limit rows", () => {
    expect(parseData<Json[]>("oiLimits.list", firstData("oiLimits.list"))).toEqual([
      { symbol: "BTCUSDT", notionalValue: "100000", totalNotionalValue: "200000" },
      { symbol: "BCHUSDT", notionalValue: "100000", totalNotionalValue: "200000" },
    ]);
  });
});
