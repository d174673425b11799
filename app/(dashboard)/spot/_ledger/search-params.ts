// The URL state of /spot/fills and /spot/plan-orders (the ledger views): every filter is applied by the
// server to the whole set. The two lists share every filter but one (a fill's scope, a plan order's status).
import { parseAsString } from "nuqs";
import { ledgerRangeParsers } from "@/lib/client/paging-search-params";

/** The URL key of the filter a list has of its own. */
export type OwnFilter = "tradeScope" | "status";

const searchParamsOf = (own: OwnFilter) => ({
  key: parseAsString,
  symbol: parseAsString,
  side: parseAsString,
  ...({ [own]: parseAsString } as Record<OwnFilter, typeof parseAsString>),
  orderId: parseAsString,
  /** Created at or after / at or before, and the cursors walked (absent = the newest page). */
  ...ledgerRangeParsers,
});

// Built once at load, so every render hands nuqs the same parsers.
export const ledgerTradeSearchParams = { tradeScope: searchParamsOf("tradeScope"), status: searchParamsOf("status") };

export type TradeParams = ReturnType<typeof searchParamsOf>;
