import { describe, expect, it } from "vitest";
import { compareDecimal as compareWithoutBig } from "@/lib/compare-decimal";
import { compareDecimal, sumDecimals } from "./decimal";

describe("[decimal] compare and sum without floats", () => {
  // Its cases (by value, not by text; unreadable first; agreeing with big.js) are in compare-decimal.test.ts.
  it("orders by value, not by text: the compareDecimal of compare-decimal.ts", () => {
    expect(compareDecimal).toBe(compareWithoutBig);
  });

  it("sums exactly where floats drift", () => {
    expect(sumDecimals(["0.1", "0.2"]).sum).toBe("0.3");
    expect(sumDecimals(["12345678901234567.00000001", "0.00000002"]).sum).toBe("12345678901234567.00000003");
    expect(sumDecimals([]).sum).toBe("0");
    // A total is set with its rows' scale ("215.40" beside "100.64"), never shortened.
    expect(sumDecimals(["100.64", "114.76"]).sum).toBe("215.40");
    expect(sumDecimals(["1.5", "2.250", "3"]).sum).toBe("6.750");
  });

  it("counts what it could not read instead of hiding it", () => {
    expect(sumDecimals(["1", "x", ""])).toEqual({ sum: "1", skipped: 1 });
  });
});
