import { describe, expect, it } from "vitest";
import { formatRatio, ratioToPercent } from "./ratio";

describe("[format][ratio] rebate ratios as percentages, exactly, one way everywhere", () => {
  it("turns the platform's ratio into a percentage without float noise", () => {
    expect(ratioToPercent("0.07")).toBe("7%");
    expect(ratioToPercent("0.1")).toBe("10%");
    expect(ratioToPercent("0.0007")).toBe("0.07%");
    expect(ratioToPercent("1")).toBe("100%");
    expect(formatRatio("0.1")).toBe("10% (ratio 0.1)");
  });

  it("gives nothing for what is not a number, rather than guessing", () => {
    expect(ratioToPercent("")).toBeNull();
    expect(ratioToPercent("n/a")).toBeNull();
    expect(formatRatio("n/a")).toBe("n/a");
    expect(formatRatio("")).toBe("—");
  });
});
