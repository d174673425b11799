import { describe, expect, it } from "vitest";
import { retentionProblem, splitRange } from "./windows";

const DAY = 86_400_000;

describe("[paging][windows]", () => {
  it("keeps a short range whole", () => {
    expect(splitRange(0, 5 * DAY, 7 * DAY)).toEqual([{ startTime: 0, endTime: 5 * DAY }]);
  });

  it("walks a long range newest first, in windows no longer than the span, covering every ms once", () => {
    const start = 1_000;
    const end = start + 30 * DAY + 123;
    const w = splitRange(start, end, 7 * DAY);
    expect(w).toHaveLength(5);
    expect(w[0]!.endTime).toBe(end);
    expect(w.at(-1)!.startTime).toBe(start);
    for (const x of w) expect(x.endTime - x.startTime).toBeLessThanOrEqual(7 * DAY);
    for (let i = 1; i < w.length; i++) expect(w[i]!.endTime).toBe(w[i - 1]!.startTime - 1);
  });

  it("refuses an inverted range", () => {
    expect(() => splitRange(10, 5, DAY)).toThrow(RangeError);
  });

  it("says when a start is outside the retention, with the first allowed day", () => {
    const now = Date.UTC(2026, 10, 21);
    expect(retentionProblem(now - 10 * DAY, { retentionMs: 90 * DAY }, now)).toBeNull();
    expect(retentionProblem(now - 91 * DAY, { retentionMs: 90 * DAY }, now)).toMatch(/last 90 days.*2026-08-23/);
    expect(retentionProblem(0, { retentionMs: null }, now)).toBeNull();
  });
});
