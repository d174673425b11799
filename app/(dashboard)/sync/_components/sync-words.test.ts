import { describe, expect, it } from "vitest";
import { activeCount, checkPace } from "./sync-words";

describe("activeCount", () => {
  it("says the count is a floor while some sub-accounts are still backfilling (only complete ones are counted)", () => {
    expect(activeCount(0, { backfilled: 1200, subaccounts: 5000 })).toBe(
      "0 so far, among the 1,200 with their history complete",
    );
  });
  it("says the count alone once every sub-account's history is complete", () => {
    expect(activeCount(1234, { backfilled: 5000, subaccounts: 5000 })).toBe("1,234");
  });
});

describe("checkPace", () => {
  it("gives both paces when they differ", () => {
    expect(checkPace(60, 3600)).toBe("are checked every 60 s, every other at least every 3,600 s");
  });
  it("says one pace once when the budget gives both the same", () => {
    expect(checkPace(400, 400)).toBe("are checked at least every 400 s, as every other is");
  });
});
