// The DataTable props of a list the server pages by cursor (the ledgers): its status from the query, the
// error with a retry, and the pager over the cursors walked (the URL's page stack).
import type { UseQueryResult } from "@tanstack/react-query";
import type { DataTableStatus } from "./data-table";
import { DataTablePager, cursorPagerProps, type PagerWords } from "./data-table-pager";
import { DataTableError } from "./data-table-states";

export function serverPageProps<P extends { nextCursor: string | null }>(
  page: UseQueryResult<P>,
  rowCount: number,
  walked: readonly string[],
  setWalked: (p: string[] | null) => void,
  words?: PagerWords,
) {
  const status: DataTableStatus = page.isPending ? "pending" : page.isError ? "error" : "success";
  return {
    status,
    busy: page.isFetching,
    errorState: <DataTableError error={page.error} onRetry={() => void page.refetch()} />,
    pager: <DataTablePager {...cursorPagerProps(walked, { nextCursor: page.data?.nextCursor, rowCount, busy: page.isFetching }, setWalked)} words={words} />,
  };
}
