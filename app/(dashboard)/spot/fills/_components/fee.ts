// E4's feeDetail in words staff read at a glance. The amount stays the platform's decimal string,
// grouped and with a real minus sign; nothing goes through a float (STYLE rule 8).
import type { Fill } from "@/lib/platform/catalog";
import { groupDecimal } from "@/lib/format";

/** "-0.0000007" → "−0.0000007" (U+2212 reads as minus, also to screen readers). */
export function signedAmount(value: string): string {
  const g = groupDecimal(value);
  return g.startsWith("-") ? `−${g.slice(1)}` : g;
}

/** "−0.0000007 BTC (taker)"; "—" when the platform sent no fee. */
export function describeFee(fill: Pick<Fill, "feeDetail" | "tradeScope">): string {
  const { totalFee, feeCoin } = fill.feeDetail;
  if (!totalFee) return "—";
  const coin = feeCoin ? ` ${feeCoin}` : "";
  const scope = fill.tradeScope ? ` (${fill.tradeScope})` : "";
  return `${signedAmount(totalFee)}${coin}${scope}`;
}

/** "no"; "yes"; "yes, −0.12 deducted" when totalDeductionFee is present. */
export function describeDeduction(fill: Pick<Fill, "feeDetail">): string {
  const { deduction, totalDeductionFee } = fill.feeDetail;
  const said = deduction === "yes" ? "yes" : deduction === "no" ? "no" : deduction || "—";
  return totalDeductionFee ? `${said}, ${signedAmount(totalDeductionFee)} deducted` : said;
}
