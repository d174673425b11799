// The one CSV encoder (RFC 4180), for every export: the server's CSV answers and export rows, the browser's
// header line. Values go out exactly as given (amounts stay strings, never through a float), and cells a
// spreadsheet would run as formulas are neutralised. Isomorphic.

// A plain decimal (optionally signed, optionally with an exponent) is data, not a formula: "-0.0000007"
// must reach the spreadsheet as a number, so it is exempt from the formula guard below.
const NUMERIC = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
// OWASP CSV injection: cells a spreadsheet may evaluate start with = + - @, or tab / CR (which some
// spreadsheets strip before looking at the next character).
const isFormulaStart = (c: number) =>
  c === 61 /* = */ || c === 43 /* + */ || c === 45 /* - */ || c === 64 /* @ */ || c === 9 || c === 13;
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
  // Most cells start with a letter or digit and hold no quote: a character test before any pattern.
  const safe = text !== "" && isFormulaStart(text.charCodeAt(0)) && !NUMERIC.test(text) ? `'${text}` : text;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** One line of cells, with its CRLF. */
export function csvLine(values: readonly unknown[]): string {
  return values.map(csvCell).join(",") + CSV_EOL;
}

/**
 * Columns holding identifiers (orderId, userId, subUid, clientOid, tradeId, id...): their digits are a name,
 * not a quantity. So are addresses (an internal transfer's address is the recipient's UID) and memo tags.
 */
export function isIdColumn(name: string): boolean {
  return /(?:^id|Id|Uid|Oid|^address|Address|^tag)$/.test(name);
}

const DIGITS = /^\d+$/;

/**
 * An identifier cell. Excel reads any all-digit cell of a CSV as a number whether or not it is quoted, keeps
 * 15 significant digits (a 16-digit order ID loses its last digit for good) and shows more than 11 in
 * scientific notation; the import has no per-file way to say "text". The one form Excel, LibreOffice Calc
 * and Google Sheets all open as text is the text formula ="…", so all-digit IDs are written so (quoted per
 * RFC 4180: "=""1234"""). It is a constant of digits we build, so the formula guard has nothing to
 * neutralise; a program reading the file strips the leading =" and the trailing ". Anything else is an
 * ordinary cell.
 */
export function csvIdCell(value: unknown): string {
  const text = cellText(value);
  return DIGITS.test(text) ? `"=""${text}"""` : csvCell(text);
}

/** One line of a table with named columns: identifier columns (isIdColumn) kept as text in a spreadsheet. */
export function csvRowLine(columns: readonly string[], values: readonly unknown[]): string {
  return csvRowEncoder(columns)(values);
}

/** One CSV row's values, in the columns' order. */
export type CsvRow = readonly unknown[];
/**
 * The rows, one at a time, or in batches (a large export read from the database page by page: one step of
 * the stream per batch, not per row; a million rows spent more on the steps than on the encoding).
 */
export type CsvRows =
  Iterable<CsvRow> | AsyncIterable<CsvRow> | { batches: AsyncIterable<readonly CsvRow[]>; digest?: CsvDigest };

/**
 * Takes every piece of a file's text in the order it is sent (the note, the header, then each batch's lines),
 * each before the next batch is asked for, so an export's last step can record the file's hash.
 */
export type CsvDigest = { update: (text: string) => void };

/**
 * csvRowLine for many rows of the same columns: which columns are IDs is decided once, not per cell (a
 * million-row export spent a regex per cell on it).
 */
export function csvRowEncoder(columns: readonly string[]): (values: readonly unknown[]) => string {
  const cells = columns.map((c) => (isIdColumn(c) ? csvIdCell : csvCell));
  return (values) => {
    let line = "";
    for (let i = 0; i < values.length; i++) line += (i ? "," : "") + (cells[i] ?? csvCell)(values[i]);
    return line + CSV_EOL;
  };
}

const fileDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
// Only what every file system and mail client keeps as is.
const filePart = (s: string) => s.replace(/[^A-Za-z0-9.-]+/g, "-").replace(/^-+|-+$/g, "") || "x";

/**
 * A file name that says what the file holds: what (deposits), whose (desk01, BTCUSDT, all) and the UTC days
 * it covers, e.g. deposits_desk01_2026-08-26_2026-11-24.csv. A range open at its start says "until" its end.
 */
export function exportFileName(
  kind: string,
  subject: string | null | undefined,
  from: number | null | undefined,
  to: number | null | undefined,
  now = Date.now(),
): string {
  const end = fileDay(to ?? now);
  const range = from === null || from === undefined ? `until_${end}` : `${fileDay(from)}_${end}`;
  return `${filePart(kind)}_${filePart(subject || "all")}_${range}.csv`;
}

/**
 * The filters of a filtered export as parts of its file name, in the order given, each "name-value"
 * (coin-USDT, value-min-10000): exportFileName puts them after whose it is. Empty values are left out.
 */
export function filterNameParts(filters: readonly (readonly [string, string | null | undefined])[]): string[] {
  return filters.filter(([, v]) => v !== null && v !== undefined && v !== "").map(([k, v]) => filePart(`${k}-${v}`));
}

/** exportFileName with the export's filters named (filterNameParts) between whose it is and its days. */
export function filteredExportFileName(
  kind: string,
  subject: string | null | undefined,
  filters: readonly string[],
  from: number | null | undefined,
  to: number | null | undefined,
  now = Date.now(),
): string {
  const name = exportFileName(kind, subject, from, to, now);
  if (!filters.length) return name;
  const head = `${filePart(kind)}_${filePart(subject || "all")}_`;
  return `${head}${filters.join("_")}_${name.slice(head.length)}`;
}

/** A sub-account's name as staff know it ("desk01" of "desk01@1234…"), for a file name. */
export function shortSubaccountName(name: string | null | undefined): string | null {
  const short = name?.split("@")[0]?.trim();
  return short ? short : null;
}
