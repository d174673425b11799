// The URL state of /market/trades (STYLE rule 10): declared once, read by the page's client component.
import { parseAsString } from "nuqs";
import { pagedViewParsers } from "@/lib/client/paging-search-params";

/** The toolbar's choices (PagedTable). */
export const tradeChoices = {
  symbols: ["BTCUSDT", "ETHUSDT", "SOLUSDT", "XRPUSDT", "DOGEUSDT"],
  pageSizes: [100, 500, 1000],
  // E8 keeps 90 days: no preset reaches further back.
  presets: ["1h", "24h", "7d", "30d", "90d"],
} as const;

export const tradesSearchParams = {
  symbol: parseAsString.withDefault("BTCUSDT"),
  ...pagedViewParsers({ limit: 500, range: "24h" }),
  // Filters on the loaded rows (column meta); the platform has no side parameter.
  side: parseAsString,
};
