// The URL state of /spot/plan-orders (the ledger view): every filter is applied by the server to the whole set.
import { parseAsArrayOf, parseAsInteger, parseAsString } from "nuqs";

export const LEDGER_PLAN_ORDER_PAGE_SIZE = 50;
export const LEDGER_PLAN_ORDER_FILTERS = ["key", "symbol", "side", "status", "orderId"] as const;

export const ledgerPlanOrdersSearchParams = {
  key: parseAsString,
  symbol: parseAsString,
  side: parseAsString,
  status: parseAsString,
  orderId: parseAsString,
  /** Created at or after / at or before, ms (UTC). */
  from: parseAsInteger,
  to: parseAsInteger,
  /** The cursors walked to reach this page; absent = the newest page. */
  p: parseAsArrayOf(parseAsString, ",").withDefault([]),
};
