import { describe, expect, it } from "vitest";
import { rowWindow } from "./use-row-window";

describe("rowWindow", () => {
  it("is empty without rows", () => {
    expect(rowWindow(0, 36, 12, { top: 0, height: 720 })).toEqual({ first: 0, last: -1, padTop: 0, padBottom: 0 });
  });

  it("covers the view plus the overscan, and the spacers make up the rest", () => {
    const w = rowWindow(1000, 36, 12, { top: 3600, height: 720 });
    expect(w).toEqual({ first: 88, last: 131, padTop: 88 * 36, padBottom: (1000 - 132) * 36 });
  });

  it("renders the overscan before the box has a size, and clamps at both ends", () => {
    expect(rowWindow(1000, 36, 12, { top: 0, height: 0 })).toMatchObject({ first: 0, last: 11, padTop: 0 });
    const end = rowWindow(1000, 36, 12, { top: 1000 * 36 - 720, height: 720 });
    expect(end).toMatchObject({ last: 999, padBottom: 0 });
    expect(rowWindow(5, 36, 12, { top: 0, height: 720 })).toEqual({ first: 0, last: 4, padTop: 0, padBottom: 0 });
  });

  it("rendered rows and spacers always add up to the full height", () => {
    for (const top of [0, 17, 500, 35_000, 99_999]) {
      const w = rowWindow(1000, 36, 12, { top, height: 600 });
      expect(w.padTop + (w.last - w.first + 1) * 36 + w.padBottom).toBe(1000 * 36);
    }
  });
});
