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

type Filters = {
  subUid: string | null; coin: string | null; state: string | null; requestedBy: string | null; from: number | null; to: number | null;
  amountMin: string | null; amountMax: string | null; address: string | null;
};

/** The ledger query string the API reads (lib/api/withdrawals's withdrawalFiltersSchema). */
export function ledgerQuery(q: Filters, extra: Record<string, string> = {}): URLSearchParams {
  const out = new URLSearchParams();
  if (q.subUid) out.set("subUid", q.subUid);
  if (q.coin) out.set("coin", q.coin);
  if (q.state) out.set("state", q.state);
  if (q.requestedBy) out.set("requestedBy", q.requestedBy);
  if (q.amountMin) out.set("amountMin", q.amountMin);
  if (q.amountMax) out.set("amountMax", q.amountMax);
  if (q.address) out.set("address", q.address);
  if (q.from !== null) out.set("from", String(q.from));
  if (q.to !== null) out.set("to", String(q.to));
  for (const [k, v] of Object.entries(extra)) out.set(k, v);
  return out;
}
