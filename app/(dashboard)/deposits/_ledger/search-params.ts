// The URL state of /deposits (the ledger view): every filter is applied by the server to the whole set.
import { parseAsArrayOf, parseAsInteger, parseAsString } from "nuqs";

export const LEDGER_PAGE_SIZE = 50;

export const ledgerDepositsSearchParams = {
  subUid: parseAsString,
  coin: parseAsString,
  status: parseAsString,
  minAmount: parseAsString,
  maxAmount: parseAsString,
  /** An address, transaction ID or record ID. */
  q: parseAsString,
  /** Created at or after / at or before, ms (UTC). */
  from: parseAsInteger,
  to: parseAsInteger,
  /** The cursors walked to reach this page; absent = the newest page. */
  p: parseAsArrayOf(parseAsString, ",").withDefault([]),
};

/** The URL keys the server filters by, besides the range (from, to). */
export const LEDGER_DEPOSIT_FILTERS = ["subUid", "coin", "status", "minAmount", "maxAmount", "q"] as const;
