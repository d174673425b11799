import { describe, expect, it } from "vitest";
import { activeCount } from "./active-count";

describe("activeCount", () => {
  it("says the count is partial while some sub-accounts are not checked yet", () => {
    expect(activeCount(0, { checked: 1200, subaccounts: 5000 })).toBe("0 so far, among the 1,200 checked");
  });
  it("says the count alone once every sub-account has been checked", () => {
    expect(activeCount(1234, { checked: 5000, subaccounts: 5000 })).toBe("1,234");
  });
});
