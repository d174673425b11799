import { describe, expect, it } from "vitest";
import { MAX_UIDS_PER_RISK_UNIT } from "@/lib/platform/catalog/risk-units";
import type { Binding } from "./api";
import { BOUND_OUTSIDE } from "@/lib/api/risk-units/reads";
import { bindingFormSchema, boundCounts, checkAgainstRecords, noneBoundText } from "./binding-rules";

const UNIT = "9000001";
const OTHER = "9000002";
const binding = (uid: string, riskUnitId = UNIT, state: Binding["state"] = "bound"): Binding => ({
  id: `id-${uid}-${riskUnitId}-${state}`,
  riskUnitId,
  uid,
  state,
  boundBy: "broker@demo.brokerdesk",
  boundAt: "2026-01-02T03:04:05.000Z",
  unboundBy: state === "unbound" ? "lead@demo.brokerdesk" : null,
  unboundAt: state === "unbound" ? "2026-01-03T00:00:00.000Z" : null,
});
const full = Array.from({ length: MAX_UIDS_PER_RISK_UNIT }, (_, i) => binding(String(1000 + i)));

describe("[riskUnits.bind][form]", () => {
  it("requires riskUnitId (the main key must name the unit) and keeps the catalog's uid ≠ riskUnitId rule", () => {
    const issues = (input: Record<string, unknown>) => {
      const r = bindingFormSchema.safeParse(input);
      return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [String(i.path[0]), i.message]));
    };
    expect(issues({ uid: "123", operate: "bind", riskUnitId: "" })).toEqual({ riskUnitId: "riskUnitId is required" });
    expect(issues({ uid: "123", operate: "bind", riskUnitId: "12a" }).riskUnitId).toMatch(/numeric/);
    expect(issues({ uid: "123", operate: "bind", riskUnitId: "123" })).toEqual({
      uid: "uid must not equal riskUnitId",
    });
    expect(issues({ uid: "abc", operate: "unbind", riskUnitId: UNIT }).uid).toMatch(/numeric/);
    expect(issues({ uid: "123", operate: "bind", riskUnitId: UNIT })).toEqual({});
  });

  it("counts only bound rows per unit", () => {
    const counts = boundCounts([binding("1"), binding("2"), binding("3", UNIT, "unbound"), binding("4", OTHER)]);
    expect(counts.get(UNIT)).toBe(2);
    expect(counts.get(OTHER)).toBe(1);
  });

  it("refuses a 51st UID on the riskUnitId field, but not a UID already in the unit", () => {
    expect(checkAgainstRecords(full, { uid: "555", riskUnitId: UNIT, operate: "bind" })).toEqual({
      field: "riskUnitId",
      message: expect.stringContaining(`${MAX_UIDS_PER_RISK_UNIT} / ${MAX_UIDS_PER_RISK_UNIT}`),
    });
    expect(checkAgainstRecords(full, { uid: "1000", riskUnitId: UNIT, operate: "bind" })).toBeNull();
    expect(checkAgainstRecords(full.slice(1), { uid: "555", riskUnitId: UNIT, operate: "bind" })).toBeNull();
  });

  it("refuses a UID bound elsewhere, and an unbind from the wrong unit, naming the unit it is in", () => {
    const records = [binding("77", OTHER)];
    expect(checkAgainstRecords(records, { uid: "77", riskUnitId: UNIT, operate: "bind" })?.message).toMatch(
      new RegExp(`bound to risk unit ${OTHER} \\(by broker@demo.brokerdesk, 2026-01-02 03:04 UTC\\)`),
    );
    expect(checkAgainstRecords(records, { uid: "77", riskUnitId: UNIT, operate: "unbind" })?.field).toBe("riskUnitId");
    expect(checkAgainstRecords(records, { uid: "77", riskUnitId: OTHER, operate: "unbind" })).toBeNull();
    // Unknown to Brokerdesk (bound outside it): the platform decides.
    expect(checkAgainstRecords(records, { uid: "88", riskUnitId: UNIT, operate: "unbind" })).toBeNull();
  });
});

describe("[riskUnits][none-bound] the words when no UID is bound now", () => {
  const b = (state: "bound" | "unbound") => ({
    id: state,
    riskUnitId: "9",
    uid: "1",
    state,
    boundBy: "x",
    boundAt: "2026-01-01T00:00:00Z",
    unboundBy: null,
    unboundAt: null,
  });
  it("says 'yet' only when nothing was ever bound here", () => {
    expect(noneBoundText([])).toBe("No UID is bound through Brokerdesk yet.");
    expect(noneBoundText([b("unbound")])).toBe(
      "No UID is bound through Brokerdesk now: the binding made here was undone (listed below).",
    );
    expect(noneBoundText([b("unbound"), b("unbound")])).toMatch(/the 2 bindings made here were undone/);
  });
  it("does not count a binding made outside Brokerdesk (and unbound here) as made here", () => {
    const outside = { ...b("unbound"), id: "o", boundBy: BOUND_OUTSIDE, boundAt: null };
    expect(noneBoundText([b("unbound"), outside])).toBe(
      "No UID is bound through Brokerdesk now: the binding made here was undone; 1 binding made outside Brokerdesk was undone here (listed below).",
    );
    expect(noneBoundText([outside])).toBe(
      "No UID is bound through Brokerdesk now; 1 binding made outside Brokerdesk was undone here (listed below).",
    );
  });
});
