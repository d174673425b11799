import Big from "big.js";
import { describe, expect, it } from "vitest";
import { compareDecimal } from "./compare-decimal";

const sign = (n: number) => (n < 0 ? -1 : n > 0 ? 1 : 0);

describe("[decimal] compareDecimal without big.js", () => {
  it("orders by value, not by text", () => {
    expect(compareDecimal("9", "10")).toBeLessThan(0);
    expect(compareDecimal("10.50", "10.5")).toBe(0);
    expect(compareDecimal("-1", "0.0001")).toBeLessThan(0);
    expect(compareDecimal("-2", "-10")).toBeGreaterThan(0);
    expect(compareDecimal("0.000", "-0")).toBe(0);
    expect(compareDecimal("1e-7", "0.0000001")).toBe(0);
    expect(compareDecimal("12345678901234567.00000002", "12345678901234567.00000001")).toBeGreaterThan(0);
    expect(["3", "", "1.5", "20", "x"].sort(compareDecimal)).toEqual(["", "x", "1.5", "3", "20"]);
  });

  it("agrees with big.js on every pair of a varied set", () => {
    const values = [
      "0",
      "-0",
      "0.0",
      "1",
      "01",
      "1.0",
      "1.01",
      "1.1",
      "-1.1",
      "10",
      "9.999",
      ".5",
      "0.5",
      "-.5",
      "5e-1",
      "1E3",
      "999.9",
      "1000",
      "-1000.0001",
      "2.5e+2",
      "250",
      "0.00000001",
      "1e-8",
      "-1e-8",
    ];
    for (const a of values) {
      for (const b of values) {
        expect(sign(compareDecimal(a, b)), `${a} vs ${b}`).toBe(new Big(a).cmp(new Big(b)));
      }
    }
  });

  it("treats what big.js cannot read as unreadable", () => {
    for (const bad of ["", " ", "1.2.3", "abc", "1e", "--1", " 1"]) {
      expect(compareDecimal(bad, "0"), bad).toBeLessThan(0);
    }
  });
});
