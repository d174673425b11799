import { describe, expect, it } from "vitest";
import { formatRatio, ratioToPercent } from "./ratio";

describe("[format][ratio] rebate ratios as percentages, exactly, one way everywhere", () => {
  it.each([
    // Without float noise.
    ["0.07", "7%"],
    ["0.1", "10%"],
    ["0.0007", "0.07%"],
    ["1", "100%"],
    // Nothing for what is not a number, rather than a guess.
    ["", null],
    ["n/a", null],
  ])("the platform's ratio %j is the percentage %j", (ratio, percent) => {
    expect(ratioToPercent(ratio)).toBe(percent);
  });

  it.each([
    ["0.1", "10% (ratio 0.1)"],
    ["n/a", "n/a"],
    ["", "—"],
  ])("the ratio %j is shown as %j", (ratio, shown) => {
    expect(formatRatio(ratio)).toBe(shown);
  });
});
