"use client";
// "All known sub-accounts": E1 takes one userId per call, so each known sub-account is asked in turn
// for the current window and the answers are merged newest first. Paging here is per batch: one page
// per sub-account per window, and Older moves to the next window. Sub-accounts whose page was full are
// named, so nobody mistakes the batch for everything (open one alone to page through it).
import { useQuery } from "@tanstack/react-query";
import { depositsList, type DepositRecord } from "@/lib/platform/catalog";
import { isTransient } from "@/lib/client/api";
import { fetchPlatform } from "@/lib/client/platform";
import { compareDecimal } from "@/lib/client/compare-decimal";
import {
  currentPosition, describeWindows, newerStack, olderStack, validStack, windowsFor, type PageStack, type ResolvedRange,
} from "@/lib/client/paging";
import type { PageMove } from "@/lib/client/use-paged-platform-query";
import type { SubAccountItem } from "@/lib/client/sub-accounts";

const paging = depositsList.paging;

export function useAllSubaccountDeposits(input: {
  subs: readonly SubAccountItem[];
  range: ResolvedRange;
  limit: number;
  stack: PageStack;
  onNavigate: (next: PageStack, move: PageMove) => void;
  enabled: boolean;
}) {
  if (!paging) throw new Error("deposits.list must be paged");
  const range = "problem" in input.range ? null : input.range;
  const windows = range ? windowsFor(range, paging.maxSpanMs) : [];
  const stack = validStack(input.stack, windows.length);
  const position = currentPosition(stack);
  const win = windows[position.window] ?? null;
  const uids = input.subs.map((s) => s.subUid);

  const query = useQuery({
    queryKey: ["deposits.list", { all: uids, startTime: win?.startTime, endTime: win?.endTime, limit: input.limit }],
    enabled: input.enabled && win !== null && uids.length > 0,
    retry: (count, e) => count < 1 && isTransient(e),
    queryFn: async ({ signal }) => {
      if (!win) return { rows: [] as DepositRecord[], full: [] as string[] };
      const rows: DepositRecord[] = [];
      const full: string[] = [];
      // In turn, not all at once: E1's budget is per broker UID, shared by every sub-account.
      for (const userId of uids) {
        const data = await fetchPlatform(
          "deposits.list",
          { userId, startTime: String(win.startTime), endTime: String(win.endTime), limit: String(input.limit) },
          signal,
        );
        const page = paging.rows(data);
        rows.push(...page);
        if (paging.nextCursor(data, input.limit) !== null) full.push(userId);
      }
      rows.sort((a, b) => compareDecimal(b.cTime, a.cTime) || compareDecimal(b.orderId, a.orderId));
      return { rows, full };
    },
  });

  const older = olderStack(stack, { nextCursor: null, windowCount: windows.length });
  return {
    rows: query.data?.rows ?? EMPTY,
    /** Sub-accounts that have more records in this window than one page. */
    full: query.data?.full ?? EMPTY_UIDS,
    status: !win ? ("blocked" as const) : query.status,
    blockedReason: "problem" in input.range ? input.range.problem : null,
    error: query.error,
    isFetching: query.isFetching,
    retry: () => void query.refetch(),
    window: win,
    windowNote: describeWindows(windows, position.window, paging.maxSpanMs),
    pageNumber: stack.length + 1,
    canOlder: older !== null && query.isSuccess,
    canNewer: stack.length > 0,
    older: () => older && input.onNavigate(older, "older"),
    newer: () => input.onNavigate(newerStack(stack), "newer"),
    latest: () => input.onNavigate([], "latest"),
  };
}

const EMPTY: DepositRecord[] = [];
const EMPTY_UIDS: string[] = [];
