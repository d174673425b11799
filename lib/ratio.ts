// Rebate ratios as percentages. Apart from lib/format so that big.js loads only on the pages that show a
// ratio, not with every table that formats a time or an amount (page weight).
import Big from "big.js";

/**
 * A ratio as the platform sends it ("0.07") as a percentage ("7%"), with big.js so "0.0007" stays "0.07%"
 * rather than a float's "0.06999999999999999%". Null for what is not a number.
 */
export function ratioToPercent(ratio: string): string | null {
  if (ratio.trim() === "") return null;
  try {
    return `${new Big(ratio).times(100).toFixed()}%`;
  } catch {
    return null;
  }
}

/** A rebate ratio, the one way every page shows it: "10% (ratio 0.1)"; as sent when it is not a number. */
export function formatRatio(ratio: string): string {
  const pct = ratioToPercent(ratio);
  return pct ? `${pct} (ratio ${ratio})` : ratio || "—";
}
