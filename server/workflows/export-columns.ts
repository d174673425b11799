import "server-only";
// The columns of each exportable operation's CSV, and its rows as CSV lines through the one encoder
// (lib/csv): values exactly as the platform sent them (amounts are strings end to end, never through a
// float), each timestamp followed by its UTC rendering.
import { cellText, csvLine, csvRowEncoder } from "@/lib/csv";
import type { DepositRecord, Fill, MarketTrade, PlanOrder } from "@/lib/platform/catalog";
import type { ExportableOperation } from "@/lib/platform/export-plan";

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
    return (times as readonly string[]).includes(leaf)
      ? [col, { name: `${leaf}Utc`, path: col.path, utc: true }]
      : [col];
  });
}

export const EXPORT_COLUMNS: Readonly<Record<ExportableOperation, readonly CsvColumn[]>> = {
  "deposits.list": columns<DepositRecord>(
    [
      "orderId",
      "userId",
      "coin",
      "amount",
      "fee",
      "status",
      "type",
      "dest",
      "chain",
      "txId",
      "fromAddress",
      "toAddress",
      "tag",
      "confirm",
      "cTime",
      "uTime",
    ],
    ["cTime", "uTime"],
  ),
  "planOrders.history": columns<PlanOrder>(
    [
      "orderId",
      "clientOid",
      "symbol",
      "side",
      "orderType",
      "planType",
      "triggerType",
      "triggerPrice",
      "executePrice",
      "size",
      "status",
      "enterPointSource",
      "cTime",
      "uTime",
    ],
    ["cTime", "uTime"],
  ),
  "fills.list": columns<Fill>(
    [
      "tradeId",
      "orderId",
      "userId",
      "symbol",
      "side",
      "orderType",
      "priceAvg",
      "size",
      "amount",
      "tradeScope",
      "feeDetail.feeCoin",
      "feeDetail.totalFee",
      "feeDetail.deduction",
      "feeDetail.totalDeductionFee",
      "cTime",
      "uTime",
    ],
    ["cTime", "uTime"],
  ),
  "market.trades": columns<MarketTrade>(["tradeId", "symbol", "side", "price", "size", "ts"], ["ts"]),
};

export function csvHeader(cols: readonly CsvColumn[]): string {
  return csvLine(cols.map((c) => c.name));
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

/** CSV lines (no header) for rows of one operation, each line ending in CRLF. */
export function csvRows(cols: readonly CsvColumn[], rows: readonly unknown[]): string {
  return csvLines(cols, rows).join("");
}

/** Each row's CSV line (with its line end), in order. */
export function csvLines(cols: readonly CsvColumn[], rows: readonly unknown[]): string[] {
  const line = csvRowEncoder(cols.map((c) => c.name));
  return rows.map((row) => line(cols.map((c) => (c.utc ? isoUtc(cellText(leaf(row, c.path))) : leaf(row, c.path)))));
}

/** The dotted paths of every leaf of a row (to check a column list leaves nothing out). */
export function leafPaths(row: unknown, prefix = ""): string[] {
  if (row === null || typeof row !== "object" || Array.isArray(row)) return [];
  return Object.entries(row as Record<string, unknown>).flatMap(([k, v]) =>
    v !== null && typeof v === "object" && !Array.isArray(v) ? leafPaths(v, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
}
