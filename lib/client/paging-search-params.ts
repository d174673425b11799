// nuqs parsers shared by the paged read pages; each route's search-params.ts composes them with its own.
import { createParser, parseAsArrayOf, parseAsInteger, parseAsString, parseAsStringLiteral } from "nuqs";
import { RANGE_CHOICES, decodePosition, encodePosition, type PagePosition, type RangeChoice } from "./paging";

const parseAsPagePosition = createParser<PagePosition>({
  parse: decodePosition,
  serialize: encodePosition,
  eq: (a, b) => a.window === b.window && a.cursor === b.cursor,
});

/** `p=0~1719…,1~`: the walked path of (window, cursor) positions; absent = the latest page. */
export const pageStackParser = parseAsArrayOf(parseAsPagePosition, ",").withDefault([]);

/** `range` preset (or "custom" with `from`/`to` in ms); `at` pins a preset's "now" once paging starts. */
export function rangeParsers(defaultRange: RangeChoice) {
  return {
    range: parseAsStringLiteral(RANGE_CHOICES).withDefault(defaultRange),
    from: parseAsInteger,
    to: parseAsInteger,
    at: parseAsInteger,
  };
}

/** The keyset cursors a ledger view walked to reach its page (components/data-table/ledger-paged-view.tsx); absent = the first page. */
export const ledgerCursorsParser = parseAsArrayOf(parseAsString, ",").withDefault([]);

/** The URL state every ledger view with a range has: `from` and `to` in ms (UTC), and the cursors walked. */
export const ledgerRangeParsers = { from: parseAsInteger, to: parseAsInteger, p: ledgerCursorsParser };
