// The DataTable props of a list the server pages by cursor (the ledgers): its status from the query, the
// error with a retry, and the pager over the cursors walked (the URL's page stack).
import type { UseQueryResult } from "@tanstack/react-query";
import type { DataTableStatus } from "./data-table";
import { DataTablePager, cursorPagerProps, type PagerWords } from "./data-table-pager";
import { DataTableError } from "./data-table-states";

/** Where a query stands, as a DataTable says it. */
export const queryStatus = (query: UseQueryResult<unknown, unknown>): DataTableStatus =>
  query.isPending ? "pending" : query.isError ? "error" : "success";

/** The DataTable props of a list one query answers: its status, whether it is fetching, its error with a retry. */
export function queryStateProps(query: UseQueryResult<unknown, unknown>) {
  return {
    status: queryStatus(query),
    busy: query.isFetching,
    errorState: <DataTableError error={query.error} onRetry={() => void query.refetch()} />,
  };
}

export function serverPageProps<P extends { nextCursor: string | null }>(
  page: UseQueryResult<P>,
  rowCount: number,
  walked: readonly string[],
  setWalked: (p: string[] | null) => void,
  words?: PagerWords,
) {
  return {
    ...queryStateProps(page),
    pager: (
      <DataTablePager
        {...cursorPagerProps(walked, { nextCursor: page.data?.nextCursor, rowCount, busy: page.isFetching }, setWalked)}
        words={words}
      />
    ),
  };
}
