// The URL state of /leverage's record table (STYLE rule 10): its filters and cursors, under keys of their own
// (the form's `account` and the history's `symbol` are already the page's).
import { parseAsString, parseAsStringLiteral, type UrlKeys } from "nuqs";
import { ledgerCursorsParser, parseAsMsTime } from "@/lib/client/paging-search-params";
import { PRODUCT_TYPES } from "@/lib/platform/values";

export const recordSearchParams = {
  subUid: parseAsString,
  symbol: parseAsString,
  productType: parseAsStringLiteral(PRODUCT_TYPES),
  /** Leverage strictly above / below (whole numbers). */
  above: parseAsString,
  below: parseAsString,
  /** Set strictly before this time (ms, UTC). */
  before: parseAsMsTime,
  p: ledgerCursorsParser,
};

export const recordUrlKeys: UrlKeys<typeof recordSearchParams> = {
  subUid: "rSub",
  symbol: "rSymbol",
  productType: "rProduct",
  above: "rAbove",
  below: "rBelow",
  before: "rBefore",
  p: "rp",
};
