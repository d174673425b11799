// What weakens a rule, per kind: the direction of each parameter (a higher minimum, a shorter window, a longer
// lookback for a new destination, a filter added), holds removed, a kind changed; and every parameter of every
// kind has a direction (a new parameter must say how it weakens).
import { describe, expect, it } from "vitest";
import { RULE_KIND_SCHEMAS, RULE_KINDS } from "./rule-kinds";
import { RULE_WEAKENING, weakeningsOf, type RuleShape } from "./rule-weakening";

const shape = (kind: string, params: Record<string, unknown>, holds = true): RuleShape => ({ kind, params, holds });
const amount = { unit: "coin", coin: "USDT", minAmount: "10000" };

describe("[monitoring][rules] weakening", () => {
  it("names every parameter of every kind", () => {
    for (const kind of RULE_KINDS) {
      const params = Object.keys(RULE_KIND_SCHEMAS[kind].def.shape ?? {}).sort();
      expect([kind, Object.keys(RULE_WEAKENING[kind]).sort()]).toEqual([kind, params]);
    }
  });

  it("a higher minimum, holds removed or another kind weakens; a lower minimum or holds added does not", () => {
    const a = shape("large_deposit", amount, false);
    expect(weakeningsOf(a, shape("large_deposit", { ...amount, minAmount: "10000.5" }, false))).toEqual([
      "minAmount 10000 → 10000.5",
    ]);
    expect(weakeningsOf(a, shape("large_deposit", { ...amount, minAmount: "9999" }, true))).toEqual([]);
    expect(weakeningsOf(shape("large_deposit", amount), shape("large_deposit", amount, false))).toEqual([
      "no longer holds withdrawals",
    ]);
    expect(weakeningsOf(a, shape("first_deposit", amount, false))).toEqual(["kind large_deposit → first_deposit"]);
    expect(weakeningsOf(a, shape("large_deposit", { ...amount, coin: "BTC" }, false))).toEqual(["coin USDT → BTC"]);
  });

  it("windows: shorter weakens a sum or count; a longer lookback weakens a new destination", () => {
    const v = { source: "deposits", measure: "count", limit: "5", windowHours: 24 };
    expect(weakeningsOf(shape("velocity", v), shape("velocity", { ...v, windowHours: 12 }))).toEqual([
      "windowHours 24 → 12",
    ]);
    expect(weakeningsOf(shape("velocity", v), shape("velocity", { ...v, windowHours: 48, limit: "4" }))).toEqual([]);
    const n = shape("new_destination", { lookbackDays: 30 });
    expect(weakeningsOf(n, shape("new_destination", { lookbackDays: 365 }))).toEqual(["lookbackDays 30 → 365"]);
    expect(weakeningsOf(n, shape("new_destination", { lookbackDays: 7 }))).toEqual([]);
  });

  it("aggregate: a filter added, a maximum lowered or set, a stricter operator relaxed", () => {
    const g = { source: "deposits", measure: "count", op: ">=", threshold: "3", windowHours: 24 };
    expect(weakeningsOf(shape("aggregate", g), shape("aggregate", { ...g, coin: "BTC" }))).toEqual([
      "coin (left out) → BTC",
    ]);
    expect(weakeningsOf(shape("aggregate", { ...g, coin: "BTC" }), shape("aggregate", g))).toEqual([]);
    expect(weakeningsOf(shape("aggregate", g), shape("aggregate", { ...g, maxAmount: "100" }))).toEqual([
      "maxAmount (left out) → 100",
    ]);
    expect(weakeningsOf(shape("aggregate", g), shape("aggregate", { ...g, minAmount: "1" }))).toEqual([
      "minAmount (left out) → 1",
    ]);
    expect(weakeningsOf(shape("aggregate", g), shape("aggregate", { ...g, op: ">" }))).toEqual(["op >= → >"]);
    expect(weakeningsOf(shape("aggregate", { ...g, op: ">" }), shape("aggregate", g))).toEqual([]);
  });

  it("structuring: a narrower margin or a larger count weakens", () => {
    const s = { coin: "USDT", threshold: "10000", marginPct: 5, minCount: 5, windowHours: 24 };
    expect(weakeningsOf(shape("structuring", s), shape("structuring", { ...s, marginPct: 2, minCount: 6 }))).toEqual([
      "marginPct 5 → 2",
      "minCount 5 → 6",
    ]);
  });
});
