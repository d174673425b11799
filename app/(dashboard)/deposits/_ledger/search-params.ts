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

export type LedgerDepositsUrl = {
  subUid: string | null; coin: string | null; status: string | null; minAmount: string | null; maxAmount: string | null; q: string | null;
  from: number | null; to: number | null;
};

/** The API's query for the URL's filters (and a page's cursor and size). */
export function ledgerDepositsQuery(q: LedgerDepositsUrl, extra: Record<string, string> = {}): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of ["subUid", "coin", "status", "minAmount", "maxAmount", "q"] as const) if (q[k]) out[k] = q[k]!;
  if (q.from !== null) out.from = String(q.from);
  if (q.to !== null) out.to = String(q.to);
  return { ...out, ...extra };
}
