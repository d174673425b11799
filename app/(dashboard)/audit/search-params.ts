// The URL state of /audit (STYLE rule 10): the server-side filters, the page size and the keyset path.
import { parseAsArrayOf, parseAsInteger, parseAsString, parseAsStringLiteral } from "nuqs";
import { AUDIT_OUTCOME_VALUES } from "@/lib/api/audit";

export const AUDIT_PAGE_SIZES = [50, 100, 200] as const;

export const auditSearchParams = {
  /** Part of the e-mail, matched case-insensitively by the server. */
  actor: parseAsString,
  action: parseAsString,
  outcome: parseAsStringLiteral(AUDIT_OUTCOME_VALUES),
  /** UTC instants in ms; `from` inclusive, `to` exclusive (as the API reads them). */
  from: parseAsInteger,
  to: parseAsInteger,
  limit: parseAsInteger.withDefault(100),
  /**
   * Every cursor walked so far, oldest step last: Older pushes the page's nextCursor, Newer pops,
   * Latest clears. The whole path is in the URL so back, forward and shared links land on the same page.
   */
  before: parseAsArrayOf(parseAsString, ",").withDefault([]),
};

/** The filters the export takes too (no paging): the CSV is the whole filtered log. */
export const AUDIT_FILTER_KEYS = ["actor", "action", "outcome", "from", "to"] as const;
