import { describe, expect, it } from "vitest";
import { activeCount, backfillWords, checkPace } from "./sync-words";

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
  it("says the schedule as what holds once every history is complete while the backfill goes first", () => {
    expect(checkPace(60, 3600, true)).toBe(
      "will be checked, once every history is complete, every 60 s, every other at least every 3,600 s",
    );
  });
});

describe("backfillWords", () => {
  const base = {
    registry: 10_000,
    recentComplete: 10_000,
    historyComplete: 4_100,
    callsPerSecond: 9.6,
    recentCompleteAt: null,
    historyCompleteAt: "2026-11-28T22:41:00.000Z",
    checkShare: 0.05,
  };
  it("says when every history will be complete, and the pace of checks until then", () => {
    expect(backfillWords({ ...base, checkEverySeconds: 10_417 }, true)).toBe(
      "Deposit history: the last three months complete for 10,000 of 10,000 (all of them); the whole history for " +
        "4,100 of 10,000 (all by 2026-11-28 22:41:00 UTC), at the sync's measured 9.6 calls/s. Until then the backfill " +
        "goes first and checks take at most 5% of the calls: a sub-account is checked again about every 10,417 s.",
    );
  });
  it("says no pace of its own once every history is complete", () => {
    const done = { ...base, historyComplete: 10_000, historyCompleteAt: null, checkEverySeconds: null };
    expect(backfillWords(done, true)).toBe(
      "Deposit history: the last three months complete for 10,000 of 10,000 (all of them); the whole history for " +
        "10,000 of 10,000 (all of them), at the sync's measured 9.6 calls/s.",
    );
  });
});
