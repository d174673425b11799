// The URL state of /spot/fills (STYLE rule 10): declared once, read by the page's client component.
import { parseAsString } from "nuqs";
import { pagedViewParsers } from "@/lib/client/paging-search-params";

export const FILL_SYMBOLS = ["BTCUSDT", "ETHUSDT", "SOLUSDT", "XRPUSDT", "DOGEUSDT"] as const;
/** The toolbar's choices (PagedTable). */
export const fillChoices = {
  symbols: FILL_SYMBOLS,
  // E4 allows at most 100 a page.
  pageSizes: [10, 20, 50, 100],
  // E4 keeps 90 days and refuses a start older than that, so "Last 90 days" would already be a few
  // seconds too old when it reached the platform: the longest preset is 30 days (custom goes further).
  presets: ["24h", "7d", "30d"],
} as const;

export const fillsSearchParams = {
  symbol: parseAsString.withDefault("BTCUSDT"),
  /** E4's own `orderId` parameter: the fills of one order. */
  orderId: parseAsString,
  ...pagedViewParsers({ limit: 100, range: "7d" }),
  // Filters on the loaded rows (column meta); E4 has no side or scope parameter.
  side: parseAsString,
  tradeScope: parseAsString,
};
