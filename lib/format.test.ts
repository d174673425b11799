import { describe, expect, it } from "vitest";
import { counted, formatDuration, formatLocal, formatUtc, formatUtcMinutes, groupDecimal } from "./format";

describe("[format][groupDecimal]", () => {
  it.each([
    // The integer part grouped, the fraction kept exactly.
    ["1234567.000100", "1,234,567.000100"],
    ["1000", "1,000"],
    ["999", "999"],
    ["0.00000001", "0.00000001"],
    ["100000.10", "100,000.10"],
    // Digits a float would lose.
    ["12345678901234567890.123456789012345678", "12,345,678,901,234,567,890.123456789012345678"],
    // Signs.
    ["-1234567.5", "-1,234,567.5"],
    ["+1234", "1,234"],
    ["-0.5", "-0.5"],
    // What it cannot read, unchanged.
    ["", ""],
    ["abc", "abc"],
    ["1e-7", "1e-7"],
    ["1,000", "1,000"],
  ])("%j is shown as %j", (amount, shown) => {
    expect(groupDecimal(amount)).toBe(shown);
  });
});

describe("[format][time]", () => {
  it("shows UTC to the second", () => {
    expect(formatUtc(0)).toBe("1970-01-01 00:00:00 UTC");
    expect(formatUtc("1700000000123")).toBe("2023-11-14 22:13:20 UTC");
    expect(formatUtc("")).toBe("");
    expect(formatUtc("x")).toBe("");
    // Brokerdesk's own routes answer ISO 8601 times: the same instant, said the same way.
    expect(formatUtc("2026-12-07T13:35:54.042Z")).toBe("2026-12-07 13:35:54 UTC");
    expect(formatUtc("2026-13-40T00:00:00Z")).toBe("");
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

describe("[format][counted]", () => {
  it("says one as one, and groups a count in thousands", () => {
    expect(counted(1, "daily snapshot")).toBe("1 daily snapshot");
    expect(counted(0, "row")).toBe("0 rows");
    expect(counted(1000, "row")).toBe("1,000 rows");
    expect(counted(2, "match", "matches")).toBe("2 matches");
  });
});
