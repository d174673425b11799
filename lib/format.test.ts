import { describe, expect, it } from "vitest";
import { formatDuration, formatLocal, formatUtc, formatUtcMinutes, groupDecimal } from "./format";

describe("[format][groupDecimal]", () => {
  it("groups the integer part and keeps the fraction exactly", () => {
    expect(groupDecimal("1234567.000100")).toBe("1,234,567.000100");
    expect(groupDecimal("1000")).toBe("1,000");
    expect(groupDecimal("999")).toBe("999");
    expect(groupDecimal("0.00000001")).toBe("0.00000001");
    expect(groupDecimal("100000.10")).toBe("100,000.10");
  });

  it("keeps digits a float would lose", () => {
    expect(groupDecimal("12345678901234567890.123456789012345678")).toBe("12,345,678,901,234,567,890.123456789012345678");
  });

  it("handles signs", () => {
    expect(groupDecimal("-1234567.5")).toBe("-1,234,567.5");
    expect(groupDecimal("+1234")).toBe("1,234");
    expect(groupDecimal("-0.5")).toBe("-0.5");
  });

  it("returns what it cannot read unchanged", () => {
    expect(groupDecimal("")).toBe("");
    expect(groupDecimal("abc")).toBe("abc");
    expect(groupDecimal("1e-7")).toBe("1e-7");
    expect(groupDecimal("1,000")).toBe("1,000");
  });
});

describe("[format][time]", () => {
  it("shows UTC to the second", () => {
    expect(formatUtc(0)).toBe("1970-01-01 00:00:00 UTC");
    expect(formatUtc("1700000000123")).toBe("2023-11-14 22:13:20 UTC");
    expect(formatUtc("")).toBe("");
    expect(formatUtc("x")).toBe("");
  });

  it("local time carries its offset", () => {
    expect(formatLocal(1700000000123)).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC[+-]\d{2}:\d{2}$/);
  });

  it("range descriptions drop the seconds", () => {
    expect(formatUtcMinutes(1700000000123)).toBe("2023-11-14 22:13");
  });
});

describe("[format][duration]", () => {
  it("[format][duration] says a length of time in the unit that keeps it short", () => {
    expect(formatDuration(24 * 3_600_000)).toBe("24 h");
    expect(formatDuration(1.5 * 3_600_000)).toBe("1.5 h");
    expect(formatDuration(90 * 60_000 + 1)).toBe("90 min");
    expect(formatDuration(3_600)).toBe("3.6 s");
  });
});
