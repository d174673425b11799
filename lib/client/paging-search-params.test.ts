import { describe, expect, it } from "vitest";
import { parseUrlTime } from "./paging-search-params";

describe("[url][time] a time in a list's URL", () => {
  it.each([
    ["1795800000000", 1795800000000],
    ["2026-11-01", Date.UTC(2026, 10, 1)],
    ["2026-11-01T09:30", Date.UTC(2026, 10, 1, 9, 30)],
    ["2026-11-01T09:30:15Z", Date.UTC(2026, 10, 1, 9, 30, 15)],
    ["2026-11-01T09:30:15.250", Date.UTC(2026, 10, 1, 9, 30, 15, 250)],
  ])("%j is %d ms (UTC)", (v, ms) => {
    expect(parseUrlTime(v)).toBe(ms);
  });

  // A lenient integer read "2026-11-01" as 2026 ms (in 1970), and "abc" as nothing said.
  it.each(["abc", "", "2026-13-45", "2026-11-01 09:30", "1e12", "-5", "2026-11-01T09:30+05:30"])(
    "%j is no time",
    (v) => {
      expect(parseUrlTime(v)).toBeNull();
    },
  );
});
