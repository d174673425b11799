// A ratio as the platform sends it ("0.07") to a percentage ("7%"), with big.js so "0.0007" stays
// "0.07%" rather than a float's "0.06999999999999999%" (STYLE rule 8).
import Big from "big.js";

export function ratioToPercent(ratio: string): string | null {
  if (ratio.trim() === "") return null;
  try {
    return `${new Big(ratio).times(100).toFixed()}%`;
  } catch {
    return null;
  }
}
