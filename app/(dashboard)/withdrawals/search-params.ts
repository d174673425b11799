// The URL state of /withdrawals (STYLE rule 10): the ledger's filters and its cursor path, declared once.
import { parseAsString, parseAsStringLiteral } from "nuqs";
import { ledgerRangeParsers } from "@/lib/client/paging-search-params";
import { WITHDRAWAL_STATES } from "@/lib/withdrawal-states";

export const withdrawalsSearchParams = {
  subUid: parseAsString,
  coin: parseAsString,
  state: parseAsStringLiteral(WITHDRAWAL_STATES),
  requestedBy: parseAsString,
  /** Amount at least / at most (decimal strings), and text the address or recipient UID holds. */
  amountMin: parseAsString,
  amountMax: parseAsString,
  address: parseAsString,
  /** Requested at or after / before, and the cursors walked (absent = the newest page). */
  ...ledgerRangeParsers,
};
