// The URL state of /spot/plan-orders (STYLE rule 10): declared once, read by the page's client component.
import { parseAsInteger, parseAsString } from "nuqs";
import { pageStackParser, rangeParsers } from "@/lib/client/paging-search-params";
import type { RangePreset } from "@/lib/client/paging";

export const PLAN_ORDER_SYMBOLS = ["BTCUSDT", "ETHUSDT", "SOLUSDT", "XRPUSDT", "DOGEUSDT"] as const;
// E3 allows at most 100 a page.
export const PLAN_ORDER_PAGE_SIZES = [10, 20, 50, 100] as const;
// E3 states no retention; a range past 90 days (custom) is walked in 90-day windows.
export const PLAN_ORDER_RANGE_PRESETS: readonly RangePreset[] = ["24h", "7d", "30d", "90d"];
export const PLAN_ORDER_STATUSES = ["not_trigger", "executed", "fail_execute", "cancelled"] as const;

export const planOrdersSearchParams = {
  symbol: parseAsString.withDefault("BTCUSDT"),
  limit: parseAsInteger.withDefault(100),
  ...rangeParsers("7d"),
  p: pageStackParser,
  // Filters on the loaded rows (column meta); E3 has no status or side parameter.
  status: parseAsString,
  side: parseAsString,
};
