// The rule form's fields are the kinds' schemas' parameters: each kind's fields name exactly its schema's keys,
// a preset typed into its fields is parsed back to the preset, and a search's link starts the generic kind.
import { describe, expect, it } from "vitest";
import { PRESET_OF } from "./presets";
import { paramsOf, ruleFields, valuesOf } from "./rule-fields";
import { DRAFTABLE_KINDS, parseRuleSpec, RULE_KIND_SCHEMAS } from "./rule-kinds";
import { ruleOfSearchHref } from "./rule-of-search";

describe("[monitoring][rule-form]", () => {
  it.each(DRAFTABLE_KINDS)(
    "[monitoring][rule-form] %s: its fields are its schema's, and a preset survives the form",
    (k) => {
      expect(ruleFields(k).map((f) => f.name)).toEqual(Object.keys(RULE_KIND_SCHEMAS[k].shape));
      const preset = PRESET_OF[k].spec.params as Record<string, unknown>;
      const parsed = parseRuleSpec(k, paramsOf(k, valuesOf(k, preset)));
      expect(parsed).toEqual({ ok: true, spec: { kind: k, params: preset } });
    },
  );

  it("[monitoring][rule-form] fields are typed: choices from the enum, numbers, lists, what may be left out", () => {
    const f = Object.fromEntries(ruleFields("aggregate").map((x) => [x.name, x]));
    expect(f.source).toMatchObject({ control: "choice", options: ["deposits", "withdrawals"], optional: false });
    expect(f.windowHours).toMatchObject({ control: "number", optional: false });
    expect(f.statuses).toMatchObject({ control: "list", optional: true });
    expect(f.coin).toMatchObject({ control: "coin", optional: true });
    expect(f.threshold).toMatchObject({ control: "decimal", optional: false });
    expect(paramsOf("aggregate", { statuses: " success, fail ", windowHours: "24", threshold: "", coin: "" })).toEqual({
      statuses: ["success", "fail"],
      windowHours: 24,
    });
    // Not a number: sent as typed, so the server's schema refuses it on its field.
    expect(paramsOf("aggregate", { windowHours: "a day" })).toEqual({ windowHours: "a day" });
  });

  it("[monitoring][rule-form] a /deposits search starts the generic kind with its filters, and names what it leaves", () => {
    const href = ruleOfSearchHref({ coin: "BTC", status: "success", minAmount: "1", subUid: "42", q: "tx1" });
    const q = new URL(href, "http://x").searchParams;
    expect(Object.fromEntries(q)).toEqual({
      kind: "aggregate",
      from: "deposits",
      source: "deposits",
      measure: "count",
      op: ">=",
      subUid: "42",
      coin: "BTC",
      statuses: "success",
      minAmount: "1",
      left: "q",
    });
  });
});
