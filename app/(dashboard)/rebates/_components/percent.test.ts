import { describe, expect, it } from "vitest";
import { ratioToPercent } from "./percent";

describe("[rebates.get][ratio] ratios as percentages, exactly", () => {
  it("turns the platform's ratio into a percentage without float noise", () => {
    expect(ratioToPercent("0.07")).toBe("7%");
    expect(ratioToPercent("0.1")).toBe("10%");
    expect(ratioToPercent("0.0007")).toBe("0.07%");
    expect(ratioToPercent("1")).toBe("100%");
  });

  it("gives nothing for what is not a number, rather than guessing", () => {
    expect(ratioToPercent("")).toBeNull();
    expect(ratioToPercent("n/a")).toBeNull();
  });
});
