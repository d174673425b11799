"use client";
// Cursor paging as the platform allows it: older pages by cursor (then older windows), Newer back
// along the walked path, Latest to the first page. There is no "page N of M": the platform gives no totals.
import type { PagedQueryResult } from "@/lib/client/use-paged-platform-query";
import { secondaryButton } from "@/components/ui/styles";
import { counted } from "@/lib/format";

/** The three buttons' words: newest-first lists walk older; a list by name walks forward. */
export type PagerWords = { first: string; back: string; next: string };
const NEWEST_FIRST: PagerWords = { first: "Latest", back: "← Newer", next: "Older →" };

export type PagerProps = {
  pageNumber: number;
  rowCount: number;
  /** Rows left after the client-side filters, when they hide some. */
  shownCount?: number;
  canOlder: boolean;
  canNewer: boolean;
  onOlder: () => void;
  onNewer: () => void;
  onLatest: () => void;
  /** Says when a long range is walked in windows. */
  windowNote?: string | null;
  busy?: boolean;
  words?: PagerWords;
};

export function DataTablePager({
  pageNumber,
  rowCount,
  shownCount,
  canOlder,
  canNewer,
  onOlder,
  onNewer,
  onLatest,
  windowNote,
  busy,
  words = NEWEST_FIRST,
}: PagerProps) {
  return (
    <nav aria-label="Pages" className="flex flex-wrap items-center gap-3 text-sm">
      <p className="text-slate-700 dark:text-slate-300" aria-live="polite">
        Page {pageNumber} · {counted(rowCount, "row")} loaded
        {shownCount !== undefined && shownCount !== rowCount
          ? ` · ${shownCount.toLocaleString("en-US")} shown after filters`
          : ""}
        {busy ? " · loading…" : ""}
      </p>
      <div className="ml-auto flex gap-2">
        <button type="button" className={secondaryButton} onClick={onLatest} disabled={!canNewer || busy}>
          {words.first}
        </button>
        <button type="button" className={secondaryButton} onClick={onNewer} disabled={!canNewer || busy}>
          {words.back}
        </button>
        <button type="button" className={secondaryButton} onClick={onOlder} disabled={!canOlder || busy}>
          {words.next}
        </button>
      </div>
      {windowNote ? (
        <p
          className="w-full rounded-md bg-sky-50 px-3 py-2 text-sky-950 dark:bg-sky-950 dark:text-sky-100"
          data-testid="window-note"
        >
          {windowNote}
        </p>
      ) : null}
    </nav>
  );
}

/** The pager's props for a page walked with usePagedPlatformQuery (one wiring for every paged view). */
export function pagerPropsOf(
  paged: Pick<
    PagedQueryResult<unknown>,
    "pageNumber" | "rows" | "canOlder" | "canNewer" | "older" | "newer" | "latest" | "windowNote" | "isFetching"
  >,
  shownCount: number,
): PagerProps {
  return {
    pageNumber: paged.pageNumber,
    rowCount: paged.rows.length,
    shownCount,
    canOlder: paged.canOlder,
    canNewer: paged.canNewer,
    onOlder: paged.older,
    onNewer: paged.newer,
    onLatest: paged.latest,
    windowNote: paged.windowNote,
    busy: paged.isFetching,
  };
}

/**
 * The pager's props for a list Brokerdesk pages itself (keyset `cursor` → `nextCursor`): the cursors walked
 * so far live in the URL (`walked`), Older adds the page's nextCursor, Newer drops the last, Latest clears
 * them. One wiring for the withdrawal ledger, the deposit ledger and the audit log.
 */
export function cursorPagerProps(
  walked: readonly string[],
  page: { nextCursor: string | null | undefined; rowCount: number; busy: boolean },
  setWalked: (next: string[] | null) => void,
): PagerProps {
  return {
    pageNumber: walked.length + 1,
    rowCount: page.rowCount,
    canOlder: Boolean(page.nextCursor),
    canNewer: walked.length > 0,
    onOlder: () => page.nextCursor && setWalked([...walked, page.nextCursor]),
    onNewer: () => setWalked(walked.length > 1 ? walked.slice(0, -1) : null),
    onLatest: () => setWalked(null),
    busy: page.busy,
  };
}
