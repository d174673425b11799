// The URL state of /market/trades (STYLE rule 10): declared once, read by the page's client component.
import { parseAsInteger, parseAsString } from "nuqs";
import { pageStackParser, rangeParsers } from "@/lib/client/paging-search-params";
import type { RangePreset } from "@/lib/client/paging";

export const TRADE_SYMBOLS = ["BTCUSDT", "ETHUSDT", "SOLUSDT", "XRPUSDT", "DOGEUSDT"] as const;
export const TRADE_PAGE_SIZES = [100, 500, 1000] as const;
// E8 keeps 90 days: no preset reaches further back.
export const TRADE_RANGE_PRESETS: readonly RangePreset[] = ["1h", "24h", "7d", "30d", "90d"];

export const tradesSearchParams = {
  symbol: parseAsString.withDefault("BTCUSDT"),
  limit: parseAsInteger.withDefault(500),
  ...rangeParsers("24h"),
  p: pageStackParser,
  // Filters on the loaded rows (column meta); the platform has no side parameter.
  side: parseAsString,
};
