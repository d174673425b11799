// Counterexamples found by the bad-input suite (issue 7, e2e/bad-input.api.spec.ts), kept as plain
// regressions: each was accepted (and sent to the platform) or refused naming the wrong field.
import { describe, expect, it } from "vitest";
import { catalog, type OperationId } from "@/lib/platform/catalog";

const NOW = Date.now();

function fieldsNamed(id: OperationId, input: Record<string, unknown>): string[] {
  const result = catalog[id].request.safeParse(input);
  expect(result.success, `${id} should refuse ${JSON.stringify(input)}`).toBe(false);
  return [...new Set((result.error?.issues ?? []).map((i) => String(i.path[0])))];
}

describe("[bad-input] regressions", () => {
  it("[fills.list][bad-input] an empty startTime is reported on startTime alone (was also a span error on endTime)", () => {
    expect(fieldsNamed("fills.list", { symbol: "BTCUSDT", endTime: String(NOW), startTime: "" })).toEqual(["startTime"]);
  });

  it("[market.trades][bad-input] an empty startTime is reported on startTime alone (was also a span error on endTime)", () => {
    expect(fieldsNamed("market.trades", { symbol: "BTCUSDT", endTime: String(NOW), startTime: "" })).toEqual(["startTime"]);
  });

  it("[planOrders.history][bad-input] a 17-digit startTime is reported on startTime alone", () => {
    expect(fieldsNamed("planOrders.history", { symbol: "BTCUSDT", startTime: "99999999999999999", endTime: String(NOW) })).toEqual(["startTime"]);
  });
});
