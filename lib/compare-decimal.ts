// Ordering of decimal strings (table sorting, the lists' amount ranges), exact and without big.js: comparing
// needs no arithmetic, only the digits and where the point is, and the sort sits on every list page (page
// weight). Isomorphic: the API's filter schemas use it too.
// Accepts what big.js accepts ("-1.5", ".5", "1e-7"); anything else is unreadable.
const NUMERIC = /^(-?)(\d+(?:\.\d*)?|\.\d+)(?:e([+-]?\d+))?$/i;

type Parsed = { sign: -1 | 0 | 1; digits: string; point: number };

/** The value as sign × 0.digits × 10^point, digits without leading or trailing zeros; null if unreadable. */
function parse(v: string): Parsed | null {
  const m = NUMERIC.exec(v);
  if (!m) return null;
  const [int = "", frac = ""] = (m[2] ?? "").split(".");
  const all = int + frac;
  const lead = all.search(/[^0]/);
  if (lead === -1) return { sign: 0, digits: "", point: 0 };
  return {
    sign: m[1] ? -1 : 1,
    digits: all.slice(lead).replace(/0+$/, ""),
    point: int.length + Number(m[3] ?? 0) - lead,
  };
}

/** Ascending order of decimal strings; blanks and unreadable values sort first, among themselves as text. */
export function compareDecimal(a: string, b: string): number {
  const x = parse(a);
  const y = parse(b);
  if (x && y) {
    if (x.sign !== y.sign) return x.sign < y.sign ? -1 : 1;
    const magnitude =
      x.point !== y.point ? (x.point < y.point ? -1 : 1) : x.digits < y.digits ? -1 : x.digits > y.digits ? 1 : 0;
    return x.sign * magnitude;
  }
  if (!x && !y) return a < b ? -1 : a > b ? 1 : 0;
  return x ? 1 : -1;
}
