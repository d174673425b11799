// Every rule kind's parameters: a valid set passes; each field made bad is refused on that field alone, with
// a message naming it; a span rule without its window is refused.
import { describe, expect, it } from "vitest";
import { parseRuleSpec, RULE_KINDS, type RuleKind } from "./rule-kinds";

const VALID: Record<RuleKind, Record<string, unknown>> = {
  large_deposit: { unit: "coin", coin: "BTC", minAmount: "10" },
  first_deposit: { unit: "usdt", minAmount: "5000" },
  structuring: { coin: "USDT", threshold: "10000", marginPct: 10, minCount: 3, windowHours: 24 },
  velocity: { source: "withdrawals", measure: "sum", coin: "USDT", limit: "50000", windowHours: 24 },
  pass_through: { pct: 90, windowHours: 48 },
  dormant_active: { dormantDays: 90, unit: "coin", coin: "ETH", minAmount: "5" },
  shared_address: { side: "deposit_source", minSubAccounts: 3, windowHours: 720 },
  new_destination: { lookbackDays: 365 },
  sanctioned_address: { side: "withdrawal_destination" },
  sanctioned_name: {},
  deposit_without_originator: { unit: "usdt", minAmount: "1000", afterDays: 3 },
  aggregate: {
    source: "deposits",
    measure: "count",
    statuses: ["success"],
    minAmount: "1",
    op: ">=",
    threshold: "20",
    windowHours: 24,
  },
};

/** For each kind, each field with a value it must refuse. */
const BAD: Record<RuleKind, Record<string, unknown>> = {
  large_deposit: { unit: "eur", coin: "b-c", minAmount: "-1" },
  first_deposit: { unit: 1, minAmount: "1e3" },
  structuring: { coin: "", threshold: "0", marginPct: 51, minCount: 1, windowHours: 0 },
  velocity: { source: "trades", measure: "avg", limit: "x", windowHours: 9_000 },
  pass_through: { pct: 0.5, windowHours: -1 },
  dormant_active: { dormantDays: 0, unit: "usd", minAmount: " 5" },
  shared_address: { side: "both", minSubAccounts: 1, windowHours: 1.5 },
  new_destination: { lookbackDays: 4_000 },
  sanctioned_address: { side: "both" },
  sanctioned_name: {},
  deposit_without_originator: { unit: "eur", minAmount: "0", afterDays: 366 },
  aggregate: {
    source: "x",
    measure: "x",
    subUid: "12a",
    statuses: [],
    minAmount: "0",
    op: "<",
    threshold: "",
    windowHours: 0,
  },
};

const cases = RULE_KINDS.flatMap((kind) => Object.entries(BAD[kind]).map(([field, value]) => ({ kind, field, value })));

describe("[monitoring][rule-kinds]", () => {
  it.each(RULE_KINDS)("[monitoring][rule-kinds] %s accepts its valid parameters", (kind) => {
    expect(parseRuleSpec(kind, VALID[kind])).toMatchObject({ ok: true, spec: { kind } });
  });

  it.each(cases)("[monitoring][rule-kinds] $kind refuses a bad $field on $field", ({ kind, field, value }) => {
    const r = parseRuleSpec(kind, { ...VALID[kind], [field]: value });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(Object.keys(r.fieldErrors)).toEqual([field]);
    expect(r.fieldErrors[field]![0]).toContain(field);
  });

  it("[monitoring][rule-kinds] every span kind without its window is refused on it", () => {
    for (const kind of ["structuring", "velocity", "pass_through", "shared_address", "aggregate"] as const) {
      const params: Record<string, unknown> = { ...VALID[kind] };
      delete params.windowHours;
      const r = parseRuleSpec(kind, params);
      expect(r.ok ? [] : Object.keys(r.fieldErrors), kind).toEqual(["windowHours"]);
    }
  });

  it("[monitoring][rule-kinds] an amount in the coin's unit needs the coin; an unknown kind is refused on kind", () => {
    expect(parseRuleSpec("large_deposit", { unit: "coin", minAmount: "1" })).toEqual({
      ok: false,
      fieldErrors: { coin: ['coin is required when unit is "coin"'] },
    });
    expect(parseRuleSpec("aggregate", { ...VALID.aggregate, measure: "sum" })).toMatchObject({
      ok: false,
      fieldErrors: { coin: [expect.stringContaining("coin is required")] },
    });
    expect(parseRuleSpec("everything", {})).toMatchObject({ ok: false, fieldErrors: { kind: [expect.any(String)] } });
  });
});
