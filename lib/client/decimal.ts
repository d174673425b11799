// Decimal arithmetic for the browser (STYLE rule 8): amounts arrive as strings and are summed and
// compared with big.js, never as floats.
import Big from "big.js";

function big(v: string): Big | null {
  try {
    return v.trim() === "" ? null : new Big(v);
  } catch {
    return null;
  }
}

/** Ascending order of decimal strings; blanks and unreadable values sort first, among themselves as text. */
export function compareDecimal(a: string, b: string): number {
  const x = big(a);
  const y = big(b);
  if (x && y) return x.cmp(y);
  if (!x && !y) return a < b ? -1 : a > b ? 1 : 0;
  return x ? 1 : -1;
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
