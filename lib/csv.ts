// The one CSV encoder (RFC 4180), for every export: the server's CSV answers and export rows, the browser's
// header line. Values go out exactly as given (amounts stay strings, never through a float), and cells a
// spreadsheet would run as formulas are neutralised. Isomorphic.

// A plain decimal (optionally signed, optionally with an exponent) is data, not a formula: "-0.0000007"
// must reach the spreadsheet as a number, so it is exempt from the formula guard below.
const NUMERIC = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
// OWASP CSV injection: cells a spreadsheet may evaluate start with = + - @, or tab / CR (which some
// spreadsheets strip before looking at the next character).
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** RFC 4180 lines end in CRLF. */
export const CSV_EOL = "\r\n";

/** A value as cell text: "" for null and undefined, strings as they are, anything else as JSON. */
export function cellText(value: unknown): string {
  if (value === undefined || value === null) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** One cell: formula-neutralised, then quoted per RFC 4180 when it holds a quote, comma or line break. */
export function csvCell(value: unknown): string {
  const text = cellText(value);
  const safe = FORMULA_START.test(text) && !NUMERIC.test(text) ? `'${text}` : text;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** One line of cells, with its CRLF. */
export function csvLine(values: readonly unknown[]): string {
  return values.map(csvCell).join(",") + CSV_EOL;
}
