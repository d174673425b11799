import { describe, expect, it } from "vitest";
import { describeDeduction, describeFee, signedAmount } from "./fee";

const fee = (
  f: Partial<{ deduction: string; feeCoin: string; totalDeductionFee: string; totalFee: string }>,
  tradeScope = "taker",
) => ({
  tradeScope,
  feeDetail: { deduction: "no", feeCoin: "BTC", totalDeductionFee: "", totalFee: "", ...f },
});

describe("[fills.list][fee] fee detail in words", () => {
  it("shows the fee exactly as sent, with a real minus, its coin and the trade scope", () => {
    expect(describeFee(fee({ totalFee: "-0.0000007" }))).toBe("−0.0000007 BTC (taker)");
    expect(describeFee(fee({ totalFee: "-1234.56000000", feeCoin: "USDT" }, "maker"))).toBe(
      "−1,234.56000000 USDT (maker)",
    );
    expect(describeFee(fee({}))).toBe("—");
    expect(signedAmount("0.1")).toBe("0.1");
  });

  it("says whether a deduction applied and how much, when the platform says", () => {
    expect(describeDeduction(fee({}))).toBe("no");
    expect(describeDeduction(fee({ deduction: "yes", totalDeductionFee: "-0.12" }))).toBe("yes, −0.12 deducted");
    expect(describeDeduction(fee({ deduction: "" }))).toBe("—");
  });
});
