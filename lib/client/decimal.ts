// Decimal arithmetic for the browser (STYLE rule 8): amounts arrive as strings and are summed with
// big.js, never as floats. Ordering needs no arithmetic and lives apart, without big.js (compare-decimal).
import Big from "big.js";

export { compareDecimal } from "./compare-decimal";

function big(v: string): Big | null {
  try {
    return v.trim() === "" ? null : new Big(v);
  } catch {
    return null;
  }
}

/** Exact sum of decimal strings, in plain notation ("0" for none). Unreadable values are counted apart. */
export function sumDecimals(values: Iterable<string>): { sum: string; skipped: number } {
  let total = new Big(0);
  let skipped = 0;
  for (const v of values) {
    const b = big(v);
    if (b) total = total.plus(b);
    else if (v.trim() !== "") skipped++;
  }
  return { sum: total.toFixed(), skipped };
}
