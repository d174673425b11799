// The URL state of /deposits (the ledger view): every filter is applied by the server to the whole set.
import { parseAsString } from "nuqs";
import { ledgerRangeParsers } from "@/lib/client/paging-search-params";

export const ledgerDepositsSearchParams = {
  subUid: parseAsString,
  coin: parseAsString,
  status: parseAsString,
  minAmount: parseAsString,
  maxAmount: parseAsString,
  /** The value in USDT at the deposit's day's price, across coins. */
  minValue: parseAsString,
  maxValue: parseAsString,
  /** An address, transaction ID or record ID. */
  q: parseAsString,
  /** Created at or after / at or before, and the cursors walked (absent = the newest page). */
  ...ledgerRangeParsers,
};
