import { describe, expect, it } from "vitest";
import {
  FIRST_POSITION,
  currentPosition,
  decodePosition,
  describeWindows,
  encodePosition,
  newerStack,
  olderStack,
  pageMovePatch,
  resolveRange,
  validStack,
  windowsFor,
  type PageStack,
} from "./paging";

const DAY = 86_400_000;

describe("[paging][stack] Older, Newer and Latest", () => {
  it("starts on the first page of the newest window", () => {
    expect(currentPosition([])).toEqual(FIRST_POSITION);
  });

  it("Older follows the cursor within a window", () => {
    const s1 = olderStack([], { nextCursor: "900", windowCount: 3 });
    expect(s1).toEqual([{ window: 0, cursor: "900" }]);
    const s2 = olderStack(s1!, { nextCursor: "800", windowCount: 3 });
    expect(currentPosition(s2!)).toEqual({ window: 0, cursor: "800" });
  });

  it("Older moves to the next window's first page when the window is exhausted", () => {
    const s: PageStack = [{ window: 0, cursor: "900" }];
    expect(olderStack(s, { nextCursor: null, windowCount: 3 })).toEqual([
      { window: 0, cursor: "900" },
      { window: 1, cursor: null },
    ]);
  });

  it("Older is impossible at the end of the last window", () => {
    expect(olderStack([{ window: 2, cursor: null }], { nextCursor: null, windowCount: 3 })).toBeNull();
    expect(olderStack([], { nextCursor: null, windowCount: 1 })).toBeNull();
  });

  it("Newer pops back through windows exactly as walked", () => {
    const walked: PageStack = [
      { window: 0, cursor: "900" },
      { window: 1, cursor: null },
      { window: 1, cursor: "500" },
    ];
    expect(currentPosition(newerStack(walked))).toEqual({ window: 1, cursor: null });
    expect(currentPosition(newerStack(newerStack(walked)))).toEqual({ window: 0, cursor: "900" });
    expect(newerStack([])).toEqual([]);
  });

  it("drops a stack naming a window the range does not have", () => {
    expect(validStack([{ window: 4, cursor: null }], 2)).toEqual([]);
    const ok: PageStack = [{ window: 1, cursor: "1" }];
    expect(validStack(ok, 2)).toBe(ok);
  });
});

describe("[paging][url] positions in the URL", () => {
  it("round-trips", () => {
    for (const p of [
      { window: 0, cursor: null },
      { window: 3, cursor: "1719000000000001" },
    ]) {
      expect(decodePosition(encodePosition(p))).toEqual(p);
    }
  });

  it("refuses what it did not write", () => {
    expect(decodePosition("x~1")).toBeNull();
    expect(decodePosition("1")).toBeNull();
    expect(decodePosition("1~a b")).toBeNull();
  });
});

describe("[paging][range] presets, custom ranges and windows", () => {
  const now = Date.UTC(2025, 5, 30, 12);

  it("a preset counts back from now, or from the pinned instant", () => {
    expect(resolveRange({ range: "24h", from: null, to: null, at: null }, now)).toEqual({ start: now - DAY, end: now });
    expect(resolveRange({ range: "7d", from: null, to: null, at: now - DAY }, now)).toEqual({
      start: now - 8 * DAY,
      end: now - DAY,
    });
  });

  it("a custom range needs both ends in order", () => {
    expect(resolveRange({ range: "custom", from: 1, to: 2, at: null }, now)).toEqual({ start: 1, end: 2 });
    expect(resolveRange({ range: "custom", from: null, to: 2, at: null }, now)).toHaveProperty("problem");
    expect(resolveRange({ range: "custom", from: 3, to: 2, at: null }, now)).toHaveProperty("problem");
  });

  it("a 30-day range is walked in five 7-day windows, newest first, and says so", () => {
    const ws = windowsFor({ start: now - 30 * DAY, end: now }, 7 * DAY);
    expect(ws).toHaveLength(5);
    expect(ws[0]!.endTime).toBe(now);
    expect(ws.at(-1)!.startTime).toBe(now - 30 * DAY);
    expect(describeWindows(ws, 1, 7 * DAY)).toMatch(
      /^Range longer than 7 days: showing window 2 of 5 \(.+ UTC\), newest first$/,
    );
  });

  it("says nothing when one request covers the range", () => {
    const ws = windowsFor({ start: now - DAY, end: now }, 7 * DAY);
    expect(ws).toHaveLength(1);
    expect(describeWindows(ws, 0, 7 * DAY)).toBeNull();
  });
});

describe("[paging][url] the URL patch of a page move", () => {
  const next: PageStack = [{ window: 0, cursor: "900" }];

  it("Older from a preset pins the page's now, so a shared link shows the same page", () => {
    expect(pageMovePatch({ range: "24h", at: null }, 1_000, next, "older")).toEqual({ p: next, at: 1_000 });
    expect(pageMovePatch({ range: "24h", at: 500 }, 1_000, next, "older")).toEqual({ p: next, at: 500 });
  });

  it("a custom range is never pinned; Newer keeps whatever pin there is", () => {
    expect(pageMovePatch({ range: "custom", at: null }, 1_000, next, "older")).toEqual({ p: next, at: null });
    expect(pageMovePatch({ range: "24h", at: null }, 1_000, next, "newer")).toEqual({ p: next, at: null });
    expect(pageMovePatch({ range: "24h", at: 500 }, 1_000, [], "newer")).toEqual({ p: null, at: 500 });
  });

  it("Latest drops the path and the pin", () => {
    expect(pageMovePatch({ range: "24h", at: 500 }, 1_000, next, "latest")).toEqual({ p: null, at: null });
  });

  it("hands the URL a copy, not the stack itself", () => {
    expect(pageMovePatch({ range: "24h", at: null }, 1_000, next, "older").p).not.toBe(next);
  });
});
