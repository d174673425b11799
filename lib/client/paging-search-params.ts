// nuqs parsers shared by the paged read pages; each route's search-params.ts composes them with its own.
import { createParser, parseAsArrayOf, parseAsInteger, parseAsString, parseAsStringLiteral } from "nuqs";
import { RANGE_CHOICES, decodePosition, encodePosition, type PagePosition, type RangeChoice } from "./paging";

const parseAsPagePosition = createParser<PagePosition>({
  parse: decodePosition,
  serialize: encodePosition,
  eq: (a, b) => a.window === b.window && a.cursor === b.cursor,
});

/** `p=0~1719…,1~`: the walked path of (window, cursor) positions; absent = the latest page. */
const pageStackParser = parseAsArrayOf(parseAsPagePosition, ",").withDefault([]);

const ISO_UTC = /^\d{4}-\d\d-\d\d(?:T\d\d:\d\d(?::\d\d(?:\.\d{1,3})?)?Z?)?$/;

/**
 * A time in the URL: milliseconds, as the page writes it, or an ISO 8601 date or time typed into a link by hand
 * (2026-11-01, 2026-11-01T09:30), read in UTC as every time here is. Anything else is no time (null): a
 * lenient integer read "2026-11-01" as 2026 ms, in 1970, and the list answered nothing.
 */
export function parseUrlTime(v: string): number | null {
  if (/^\d{1,16}$/.test(v)) return Number(v);
  if (!ISO_UTC.test(v)) return null;
  const ms = Date.parse(v.length === 10 ? `${v}T00:00:00Z` : v.endsWith("Z") ? v : `${v}Z`);
  return Number.isNaN(ms) ? null : ms;
}

export const parseAsMsTime = createParser<number>({ parse: parseUrlTime, serialize: (ms) => String(ms) });

/**
 * The URL state every paged platform view reads (components/data-table/platform-paged-view.tsx) besides its
 * symbol and filters: the page size, the `range` preset (or "custom" with `from`/`to` in ms), `at`, which pins
 * a preset's "now" once paging starts, and `p`, the page stack.
 */
export function pagedViewParsers(defaults: { limit: number; range: RangeChoice }) {
  return {
    limit: parseAsInteger.withDefault(defaults.limit),
    range: parseAsStringLiteral(RANGE_CHOICES).withDefault(defaults.range),
    from: parseAsMsTime,
    to: parseAsMsTime,
    at: parseAsMsTime,
    p: pageStackParser,
  };
}

/**
 * The keyset cursors a ledger view walked to reach its page (components/data-table/ledger-paged-view.tsx); absent = the
 * first page.
 */
export const ledgerCursorsParser = parseAsArrayOf(parseAsString, ",").withDefault([]);

/** The URL state every ledger view with a range has: `from` and `to` in ms (UTC), and the cursors walked. */
export const ledgerRangeParsers = { from: parseAsMsTime, to: parseAsMsTime, p: ledgerCursorsParser };
