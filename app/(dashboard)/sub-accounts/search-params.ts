// The URL state of /sub-accounts (STYLE rule 10): every filter is sent to the server, which searches the
// whole registry (at 100,000 sub-accounts and more) and pages it by name.
import { parseAsString } from "nuqs";
import { ledgerCursorsParser } from "@/lib/client/paging-search-params";

export const subaccountsSearchParams = {
  /** The start of a name, a label or a UID. */
  q: parseAsString,
  status: parseAsString,
  source: parseAsString,
  /** The cursors walked to reach this page; absent = the first page by name. */
  p: ledgerCursorsParser,
};
