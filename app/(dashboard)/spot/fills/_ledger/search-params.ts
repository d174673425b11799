// The URL state of /spot/fills (the ledger view): every filter is applied by the server to the whole set.
import { parseAsArrayOf, parseAsInteger, parseAsString } from "nuqs";

export const LEDGER_FILL_PAGE_SIZE = 50;
export const LEDGER_FILL_FILTERS = ["key", "symbol", "side", "tradeScope", "orderId"] as const;

export const ledgerFillsSearchParams = {
  key: parseAsString,
  symbol: parseAsString,
  side: parseAsString,
  tradeScope: parseAsString,
  orderId: parseAsString,
  /** Created at or after / at or before, ms (UTC). */
  from: parseAsInteger,
  to: parseAsInteger,
  /** The cursors walked to reach this page; absent = the newest page. */
  p: parseAsArrayOf(parseAsString, ",").withDefault([]),
};
