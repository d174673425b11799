import "server-only";
// CSV for exports: one column list per paged operation, RFC 4180 quoting, values exactly as the
// platform sent them (amounts are strings end to end, never through a float), and spreadsheet
// formula injection neutralised.
import type { DepositRecord, Fill, MarketTrade, PlanOrder } from "@/lib/platform/catalog";

/** The paged operations an export can walk (the catalog's operations whose `paging` is set). */
export const EXPORTABLE_OPERATIONS = ["deposits.list", "planOrders.history", "fills.list", "market.trades"] as const;
export type ExportableOperation = (typeof EXPORTABLE_OPERATIONS)[number];

export function isExportableOperation(value: unknown): value is ExportableOperation {
  return typeof value === "string" && (EXPORTABLE_OPERATIONS as readonly string[]).includes(value);
}

/** Dotted paths to the leaves of a row, one level of nesting deep (E4's `feeDetail.totalFee`). */
type LeafPath<Row> = {
  [K in keyof Row & string]: Row[K] extends Record<string, unknown> ? `${K}.${keyof Row[K] & string}` : K;
}[keyof Row & string];

/** A column: a leaf of the row, or (`utc`) the ISO UTC rendering of a ms-timestamp leaf next to it. */
export type CsvColumn = { name: string; path: readonly string[]; utc: boolean };

/**
 * Builds the column list from the row's leaves; each `times` leaf is followed by `<leaf>Utc`.
 * Typed by the row so a renamed catalog field fails to compile here.
 */
function columns<Row>(leaves: readonly LeafPath<Row>[], times: readonly LeafPath<Row>[]): readonly CsvColumn[] {
  return leaves.flatMap((leaf): CsvColumn[] => {
    const col: CsvColumn = { name: leaf, path: leaf.split("."), utc: false };
    return (times as readonly string[]).includes(leaf) ? [col, { name: `${leaf}Utc`, path: col.path, utc: true }] : [col];
  });
}

export const EXPORT_COLUMNS: Readonly<Record<ExportableOperation, readonly CsvColumn[]>> = {
  "deposits.list": columns<DepositRecord>(
    ["orderId", "userId", "coin", "amount", "fee", "status", "type", "dest", "chain", "txId", "fromAddress", "toAddress", "tag", "confirm", "cTime", "uTime"],
    ["cTime", "uTime"],
  ),
  "planOrders.history": columns<PlanOrder>(
    ["orderId", "clientOid", "symbol", "side", "orderType", "planType", "triggerType", "triggerPrice", "executePrice", "size", "status", "enterPointSource", "cTime", "uTime"],
    ["cTime", "uTime"],
  ),
  "fills.list": columns<Fill>(
    [
      "tradeId", "orderId", "userId", "symbol", "side", "orderType", "priceAvg", "size", "amount", "tradeScope",
      "feeDetail.feeCoin", "feeDetail.totalFee", "feeDetail.deduction", "feeDetail.totalDeductionFee", "cTime", "uTime",
    ],
    ["cTime", "uTime"],
  ),
  "market.trades": columns<MarketTrade>(["tradeId", "symbol", "side", "price", "size", "ts"], ["ts"]),
};

// A plain decimal (optionally signed, optionally with an exponent) is data, not a formula: "-0.0000007"
// must reach the spreadsheet as a number, so it is exempt from the formula guard below.
const NUMERIC = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
// OWASP CSV injection: cells a spreadsheet may evaluate start with = + - @, or tab / CR (which some
// spreadsheets strip before looking at the next character).
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One cell: formula-neutralised, then quoted per RFC 4180 when it holds a quote, comma or line break. */
export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) && !NUMERIC.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** RFC 4180 lines end in CRLF. */
export const CSV_EOL = "\r\n";

export function csvHeader(cols: readonly CsvColumn[]): string {
  return cols.map((c) => csvCell(c.name)).join(",") + CSV_EOL;
}

function leaf(row: unknown, path: readonly string[]): unknown {
  let v: unknown = row;
  for (const key of path) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}

/** ISO 8601 UTC of a platform ms-timestamp string; "" when absent or not a timestamp. */
export function isoUtc(ms: string): string {
  if (!/^\d{1,16}$/.test(ms)) return "";
  const d = new Date(Number(ms));
  return Number.isNaN(d.getTime()) ? "" : d.toISOString();
}

function text(v: unknown): string {
  if (v === undefined || v === null) return "";
  // Catalog rows hold strings only; anything else is rendered as JSON rather than "[object Object]".
  return typeof v === "string" ? v : JSON.stringify(v);
}

/** CSV lines (no header) for rows of one operation, each line ending in CRLF. */
export function csvRows(cols: readonly CsvColumn[], rows: readonly unknown[]): string {
  let out = "";
  for (const row of rows) {
    out += cols.map((c) => csvCell(c.utc ? isoUtc(text(leaf(row, c.path))) : text(leaf(row, c.path)))).join(",") + CSV_EOL;
  }
  return out;
}

/** The dotted paths of every leaf of a row (to check a column list leaves nothing out). */
export function leafPaths(row: unknown, prefix = ""): string[] {
  if (row === null || typeof row !== "object" || Array.isArray(row)) return [];
  return Object.entries(row as Record<string, unknown>).flatMap(([k, v]) =>
    v !== null && typeof v === "object" && !Array.isArray(v) ? leafPaths(v, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
}
