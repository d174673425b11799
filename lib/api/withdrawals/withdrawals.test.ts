import { describe, expect, it } from "vitest";
import { WITHDRAWAL_COINS } from "@/lib/platform/schemas";
import { DEFAULT_CHAINS, TAG_COINS } from "@/lib/withdrawal-chains";
import { STALE_APPROVED_MS, STALE_SUBMIT_MS, isReconcilable } from "@/lib/withdrawal-states";
import { withdrawalFiltersSchema, withdrawalFormSchema } from "./";

const base = {
  subUid: "1000001",
  coin: "USDT",
  dest: "on_chain",
  address: "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE",
  amount: "1.5",
  reason: "payout",
};
const errors = (input: Record<string, unknown>) => {
  const r = withdrawalFormSchema.safeParse(input);
  return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [String(i.path[0]), i.message]));
};

describe("[withdrawals][form]", () => {
  it("fills the coin's default chain on chain, and drops chain and tag for an internal transfer", () => {
    expect(withdrawalFormSchema.parse(base)).toMatchObject({ chain: "TRC20", amount: "1.5", reason: "payout" });
    expect(
      withdrawalFormSchema.parse({ ...base, chain: " BEP20 ", address: "0x32Be343B94f860124dC4fEe278FDCBD38C102D88" })
        .chain,
    ).toBe("BEP20");
    expect(withdrawalFormSchema.parse({ ...base, chain: "" }).chain).toBe("TRC20");
    const internal = withdrawalFormSchema.parse({
      ...base,
      dest: "internal_transfer",
      address: "2000002",
      chain: "TRC20",
      tag: "9",
    });
    expect(internal.chain).toBeUndefined();
    expect(internal.tag).toBeUndefined();
  });

  it("has a default chain for each of the 24 coins", () => {
    expect(Object.keys(DEFAULT_CHAINS).sort()).toEqual([...WITHDRAWAL_COINS].sort());
  });

  it("requires a tag on chain for coins that use one (XRP numeric, TON memo)", () => {
    expect(Object.keys(TAG_COINS).sort()).toEqual(["TON", "XRP"]);
    expect(errors({ ...base, coin: "XRP", address: "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh" })).toEqual({
      tag: "XRP withdrawals on chain need a destination tag",
    });
    expect(errors({ ...base, coin: "XRP", address: "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh", tag: "12ab" }).tag).toMatch(
      /whole number/,
    );
    expect(
      errors({ ...base, coin: "XRP", address: "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh", tag: "4294967296" }).tag,
    ).toMatch(/whole number/);
    expect(errors({ ...base, coin: "XRP", address: "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh", tag: "4294967295" })).toEqual(
      {},
    );
    expect(errors({ ...base, coin: "TON", address: "EQAABw4VHCMqMTg_Rk1UW2JpcHd-hYyTmqGor7a9xMvS2adL" })).toEqual({
      tag: "TON withdrawals on chain need a memo",
    });
    expect(
      errors({ ...base, coin: "TON", address: "EQAABw4VHCMqMTg_Rk1UW2JpcHd-hYyTmqGor7a9xMvS2adL", tag: "client 42" }),
    ).toEqual({});
    expect(errors({ ...base, coin: "XRP", dest: "internal_transfer", address: "2000002" })).toEqual({});
  });

  it("refuses what the platform would: bad amounts, non-numeric UID, self-transfer, short reason, unknown coin", () => {
    for (const amount of ["0", "0.0", "-1", "1e3", "1,5", "abc", "", "1.123456789"])
      expect(errors({ ...base, amount }), amount).toHaveProperty("amount");
    expect(errors({ ...base, amount: "0.00000001" })).toEqual({});
    expect(errors({ ...base, dest: "internal_transfer", address: "abc" })).toHaveProperty("address");
    expect(errors({ ...base, dest: "internal_transfer", address: base.subUid })).toHaveProperty("address");
    expect(errors({ ...base, address: "T Xyz" })).toHaveProperty("address");
    expect(errors({ ...base, reason: "  x " })).toHaveProperty("reason");
    expect(errors({ ...base, reason: "x".repeat(501) })).toHaveProperty("reason");
    expect(errors({ ...base, coin: "XLM" })).toHaveProperty("coin");
    expect(errors({ ...base, subUid: "desk01" })).toHaveProperty("subUid");
  });

  it("[withdrawals][amount] one rule for amounts: exactly a decimal string, no whitespace anywhere, at most 30 digits before the point", () => {
    // Surrounding whitespace is refused as "1 000" is, not trimmed.
    for (const amount of [" 1", "1\n", "1 ", "\t1", "1 000", "1\u00a0000"]) {
      expect(errors({ ...base, amount }), JSON.stringify(amount)).toEqual({
        amount: "amount must be a decimal number such as 12.5, without spaces or line breaks",
      });
    }
    // Was refused only after the platform (E2) had been asked for the balance.
    expect(errors({ ...base, amount: "1".repeat(40) })).toEqual({
      amount: "amount must have at most 30 digits before the decimal point",
    });
    expect(errors({ ...base, amount: `${"9".repeat(30)}.5` })).toEqual({});
    expect(withdrawalFormSchema.parse({ ...base, amount: "10.50" }).amount).toBe("10.50");
  });

  it("reconcile is offered for unknown, and for sends left behind", () => {
    const now = Date.parse("2026-01-01T00:10:00Z");
    const at = (ms: number) => new Date(now - ms).toISOString();
    expect(isReconcilable({ state: "unknown", submittedAt: at(1000), approvedAt: at(1000) }, now)).toBe(true);
    expect(isReconcilable({ state: "submitted", submittedAt: at(1000), approvedAt: at(1000) }, now)).toBe(false);
    expect(
      isReconcilable(
        { state: "submitted", submittedAt: at(STALE_SUBMIT_MS + 1), approvedAt: at(STALE_SUBMIT_MS + 1) },
        now,
      ),
    ).toBe(true);
    expect(isReconcilable({ state: "approved", submittedAt: null, approvedAt: at(1000) }, now)).toBe(false);
    expect(isReconcilable({ state: "approved", submittedAt: null, approvedAt: at(STALE_APPROVED_MS + 1) }, now)).toBe(
      true,
    );
    for (const state of ["requested", "confirmed", "failed", "rejected"] as const) {
      expect(
        isReconcilable({ state, submittedAt: at(STALE_SUBMIT_MS * 2), approvedAt: at(STALE_SUBMIT_MS * 2) }, now),
      ).toBe(false);
    }
  });

  it("ledger filters read the URL's strings; blanks are absent", () => {
    expect(
      withdrawalFiltersSchema.parse({ subUid: "", coin: "BTC", state: "unknown", from: "1700000000000", limit: "50" }),
    ).toEqual({
      coin: "BTC",
      state: "unknown",
      from: new Date(1700000000000),
      limit: 50,
    });
    expect(withdrawalFiltersSchema.safeParse({ state: "paid" }).success).toBe(false);
  });
});
