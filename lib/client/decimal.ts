// Decimal arithmetic for the browser (STYLE rule 8): amounts arrive as strings and are summed with
// big.js, never as floats. Ordering needs no arithmetic and lives apart, without big.js (compare-decimal).
import Big from "big.js";

export { compareDecimal } from "@/lib/compare-decimal";

function big(v: string): Big | null {
  try {
    return v.trim() === "" ? null : new Big(v);
  } catch {
    return null;
  }
}

/** Digits after the point as written ("100.640" → 3): the scale the rows are shown with. */
function scaleOf(v: string): number {
  const m = /\.(\d+)$/.exec(v.trim());
  return m?.[1]?.length ?? 0;
}

/**
 * Exact sum of decimal strings, in plain notation ("0" for none), with as many decimals as the most precise
 * value summed: a total of "100.64" and "114.76" is "215.40", set as its rows are, not "215.4". Unreadable
 * values are counted apart.
 */
export function sumDecimals(values: Iterable<string>): { sum: string; skipped: number } {
  let total = new Big(0);
  let skipped = 0;
  let scale = 0;
  for (const v of values) {
    const b = big(v);
    if (b) {
      total = total.plus(b);
      scale = Math.max(scale, scaleOf(v));
    } else if (v.trim() !== "") skipped++;
  }
  return { sum: total.toFixed(scale), skipped };
}
