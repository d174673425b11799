// The URL state of /spot/plan-orders (STYLE rule 10): declared once, read by the page's client component.
import { parseAsString } from "nuqs";
import { pagedViewParsers } from "@/lib/client/paging-search-params";

export const PLAN_ORDER_SYMBOLS = ["BTCUSDT", "ETHUSDT", "SOLUSDT", "XRPUSDT", "DOGEUSDT"] as const;
export const PLAN_ORDER_STATUSES = ["not_trigger", "executed", "fail_execute", "cancelled"] as const;
/** The toolbar's choices (PagedTable). */
export const planOrderChoices = {
  symbols: PLAN_ORDER_SYMBOLS,
  // E3 allows at most 100 a page.
  pageSizes: [10, 20, 50, 100],
  // E3 states no retention; a range past 90 days (custom) is walked in 90-day windows.
  presets: ["24h", "7d", "30d", "90d"],
} as const;

export const planOrdersSearchParams = {
  symbol: parseAsString.withDefault("BTCUSDT"),
  ...pagedViewParsers({ limit: 100, range: "7d" }),
  // Filters on the loaded rows (column meta); E3 has no status or side parameter.
  status: parseAsString,
  side: parseAsString,
};
