// The URL state of /audit (STYLE rule 10): the server-side filters, the page size and the keyset path.
import { parseAsInteger, parseAsString, parseAsStringLiteral } from "nuqs";
import { ledgerRangeParsers } from "@/lib/client/paging-search-params";
import { AUDIT_OUTCOME_VALUES } from "@/lib/api/audit/words";

export const AUDIT_PAGE_SIZES = [50, 100, 200] as const;
/** The most rows a page may ask for (a size typed into the URL is held to it). */
export const AUDIT_PAGE_MAX = 500;

export const auditSearchParams = {
  /** Part of the e-mail, matched case-insensitively by the server. */
  actor: parseAsString,
  action: parseAsString,
  /** Entries about this sub-account (its UID). */
  subUid: parseAsString,
  outcome: parseAsStringLiteral(AUDIT_OUTCOME_VALUES),
  limit: parseAsInteger.withDefault(100),
  /**
   * `from` inclusive, `to` exclusive (as the API reads them), and every cursor walked so far, oldest step last:
   * Older pushes the page's nextCursor, Newer pops, Latest clears. The whole path is in the URL so back,
   * forward and shared links land on the same page.
   */
  ...ledgerRangeParsers,
};

/** The page stack keeps the URL key it has always had, so links staff saved still open the same page. */
export const auditUrlKeys = { p: "before" } as const;
