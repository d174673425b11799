// Counterexamples found by the bad-input suite (e2e/bad-input.api.spec.ts), kept as plain
// regressions: each must be refused, naming the right field, before anything reaches the platform.
import { describe, expect, it } from "vitest";
import { catalog, type OperationId } from "@/lib/platform/catalog";

const NOW = Date.now();

function fieldsNamed(id: OperationId, input: Record<string, unknown>): string[] {
  const result = catalog[id].request.safeParse(input);
  expect(result.success, `${id} should refuse ${JSON.stringify(input)}`).toBe(false);
  return [...new Set((result.error?.issues ?? []).map((i) => String(i.path[0])))];
}

describe("[bad-input] regressions", () => {
  it("[deposits.list][bad-input] a blank userId is refused (was sent: userId=%0A)", () => {
    expect(fieldsNamed("deposits.list", { userId: "\n", startTime: String(NOW - 1000), endTime: String(NOW) })).toEqual(
      ["userId"],
    );
    expect(fieldsNamed("deposits.list", { userId: "desk01" })).toEqual(["userId"]);
  });

  it("[subaccounts.assets][bad-input] a non-numeric subUid is refused (was a 502 from the platform's 40034)", () => {
    expect(fieldsNamed("subaccounts.assets", { subUid: "abc", assetType: "hold_only" })).toEqual(["subUid"]);
  });

  it("[riskUnits.bind][bad-input] a non-numeric riskUnitId is refused (was a 502 from the platform's 40020)", () => {
    expect(fieldsNamed("riskUnits.bind", { uid: "5481892322", operate: "bind", riskUnitId: "abc" })).toEqual([
      "riskUnitId",
    ]);
  });

  it("[riskUnits.bind][bad-input] an empty riskUnitId still counts as not given", () => {
    expect(
      catalog["riskUnits.bind"].request.safeParse({ uid: "5481892322", operate: "bind", riskUnitId: "" }).success,
    ).toBe(true);
  });

  it("[subaccounts.create][bad-input] a name longer than any e-mail address is refused (was sent)", () => {
    expect(fieldsNamed("subaccounts.create", { subaccountName: `${"a".repeat(250)}@example.com` })).toEqual([
      "subaccountName",
    ]);
  });

  it("[fills.list][bad-input] an empty startTime is reported on startTime alone (was also a span error on endTime)", () => {
    expect(fieldsNamed("fills.list", { symbol: "BTCUSDT", endTime: String(NOW), startTime: "" })).toEqual([
      "startTime",
    ]);
  });

  it("[market.trades][bad-input] an empty startTime is reported on startTime alone (was also a span error on endTime)", () => {
    expect(fieldsNamed("market.trades", { symbol: "BTCUSDT", endTime: String(NOW), startTime: "" })).toEqual([
      "startTime",
    ]);
  });

  it("[planOrders.history][bad-input] a 17-digit startTime is reported on startTime alone", () => {
    expect(
      fieldsNamed("planOrders.history", { symbol: "BTCUSDT", startTime: "99999999999999999", endTime: String(NOW) }),
    ).toEqual(["startTime"]);
  });

  it("[oiLimits.list][bad-input] productType with a letter whose upper case is ASCII (ſ, ı) is refused", () => {
    expect(fieldsNamed("oiLimits.list", { productType: "uſdt-futures" })).toEqual(["productType"]);
    expect(fieldsNamed("oiLimits.list", { productType: "coın-futures" })).toEqual(["productType"]);
    expect(catalog["oiLimits.list"].request.safeParse({ productType: "coin-futures" }).success).toBe(true);
  });

  it("[deposits.list][bad-input] a 16-digit startTime past the last instant a Date can hold is refused on startTime (was read as endTime before startTime)", () => {
    expect(
      fieldsNamed("deposits.list", { userId: "5481892133", startTime: "9609059642370813", endTime: String(NOW) }),
    ).toEqual(["startTime"]);
    expect(fieldsNamed("fills.list", { startTime: "8936934411186599", endTime: String(NOW) })).toEqual(["startTime"]);
    expect(fieldsNamed("market.trades", { symbol: "BTCUSDT", startTime: "9342955287056076" })).toEqual(["startTime"]);
    expect(
      catalog["market.trades"].request.safeParse({
        symbol: "BTCUSDT",
        startTime: "8640000000000000",
        endTime: "8640000000000000",
      }).success,
    ).toBe(true);
  });
});
