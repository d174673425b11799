// The URL state of /withdrawals (STYLE rule 10): the ledger's filters and its cursor path, declared once.
import { parseAsArrayOf, parseAsInteger, parseAsString, parseAsStringLiteral } from "nuqs";
import { WITHDRAWAL_STATES } from "@/lib/withdrawal-states";

export const WITHDRAWAL_PAGE_SIZE = 50;

export const withdrawalsSearchParams = {
  subUid: parseAsString,
  coin: parseAsString,
  state: parseAsStringLiteral(WITHDRAWAL_STATES),
  requestedBy: parseAsString,
  /** Amount at least / at most (decimal strings), and text the address or recipient UID holds. */
  amountMin: parseAsString,
  amountMax: parseAsString,
  address: parseAsString,
  /** Requested at or after / before, ms (UTC). */
  from: parseAsInteger,
  to: parseAsInteger,
  /** The cursors walked to reach this page; absent = the newest page. */
  p: parseAsArrayOf(parseAsString, ",").withDefault([]),
};

/** The URL keys the server filters the ledger by, besides the range (from, to). */
export const WITHDRAWAL_FILTERS = ["subUid", "coin", "state", "requestedBy", "amountMin", "amountMax", "address"] as const;
