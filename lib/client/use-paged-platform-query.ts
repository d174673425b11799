"use client";
// One page of a paged platform operation, walked by cursor within a time window and window by window
// across a long range. The position comes from the URL (the caller owns it); this hook only
// fetches the page it names and works out where Older, Newer and Latest lead.
import { useQuery } from "@tanstack/react-query";
import type { Catalog, OperationId } from "@/lib/platform/catalog";
import { OPERATION_PAGING } from "@/lib/platform/catalog/paging";
import type { Paging } from "@/lib/platform/define-endpoint";
import { retentionProblem, type TimeWindow } from "@/lib/platform/windows";
import { isTransient } from "./api";
import { fetchPlatform } from "./platform";
import {
  currentPosition,
  describeWindows,
  newerStack,
  olderStack,
  validStack,
  windowsFor,
  type PagePosition,
  type PageStack,
  type ResolvedRange,
} from "./paging";

/** The row type an operation's paging yields (MarketTrade for market.trades, …). */
export type RowOf<Id extends OperationId> =
  NonNullable<Catalog[Id]["paging"]> extends Paging<never, infer R> ? R : never;

export type PageMove = "older" | "newer" | "latest";

export type PagedQueryInput<Id extends OperationId> = {
  operation: Id;
  /** Server-side parameters other than time, limit and cursor (symbol, userId, …). */
  params: Record<string, string>;
  range: ResolvedRange;
  limit: number;
  stack: PageStack;
  /** Writes the new stack (to the URL); `move` lets the page pin or refresh its "now". */
  onNavigate: (next: PageStack, move: PageMove) => void;
  /** The page's notion of now, for the retention check (render must stay pure). */
  now: number;
  enabled?: boolean;
};

export type PagedQueryResult<Row> = {
  rows: Row[];
  /** "blocked": nothing was asked for, `blockedReason` says why. */
  status: "blocked" | "pending" | "error" | "success";
  blockedReason: string | null;
  error: unknown;
  isFetching: boolean;
  retry: () => void;
  windows: TimeWindow[];
  window: TimeWindow | null;
  position: PagePosition;
  /** "Range longer than 7 days: showing window 2 of 5 …", or null. */
  windowNote: string | null;
  pageNumber: number;
  canOlder: boolean;
  canNewer: boolean;
  older: () => void;
  newer: () => void;
  latest: () => void;
};

type Page<Row> = { rows: Row[]; nextCursor: string | null };

export function usePagedPlatformQuery<Id extends OperationId>(input: PagedQueryInput<Id>): PagedQueryResult<RowOf<Id>> {
  // The catalog's schema-free view: a page walks its operation without building the catalog's schemas.
  const paging = ((OPERATION_PAGING as Partial<Record<OperationId, unknown>>)[input.operation] ?? null) as Paging<
    unknown,
    RowOf<Id>
  > | null;
  if (!paging) throw new Error(`${input.operation} is not a paged operation`);

  const range = "problem" in input.range ? null : input.range;
  const blockedReason =
    "problem" in input.range ? input.range.problem : retentionProblem(input.range.start, paging, input.now);
  const windows = range && !blockedReason ? windowsFor(range, paging.maxSpanMs) : [];
  const stack = validStack(input.stack, windows.length);
  const position = currentPosition(stack);
  const window = windows[position.window] ?? null;
  const enabled = (input.enabled ?? true) && window !== null;

  const request: Record<string, string> = {
    ...input.params,
    limit: String(input.limit),
    ...(window ? { startTime: String(window.startTime), endTime: String(window.endTime) } : {}),
    ...(position.cursor ? { [paging.cursorParam]: position.cursor } : {}),
  };

  const query = useQuery({
    // The catalog id heads the key (STYLE rule 4); the request is everything that shapes the answer.
    queryKey: [input.operation, request],
    enabled,
    retry: (count, e) => count < 1 && isTransient(e),
    queryFn: async ({ signal }): Promise<Page<RowOf<Id>>> => {
      const data: unknown = await fetchPlatform(input.operation, request, signal);
      return { rows: paging.rows(data), nextCursor: paging.nextCursor(data, input.limit) };
    },
  });

  const older = query.data
    ? olderStack(stack, { nextCursor: query.data.nextCursor, windowCount: windows.length })
    : null;
  return {
    rows: query.data?.rows ?? EMPTY,
    status: blockedReason || !window ? "blocked" : query.status,
    blockedReason: blockedReason ?? (window ? null : "Nothing to search yet"),
    error: query.error,
    isFetching: query.isFetching,
    retry: () => void query.refetch(),
    windows,
    window,
    position,
    windowNote: describeWindows(windows, position.window, paging.maxSpanMs),
    pageNumber: stack.length + 1,
    canOlder: older !== null,
    canNewer: stack.length > 0,
    older: () => older && input.onNavigate(older, "older"),
    newer: () => input.onNavigate(newerStack(stack), "newer"),
    latest: () => input.onNavigate([], "latest"),
  };
}

// One shared empty array: a fresh [] per render would make the table recompute its row models.
const EMPTY: never[] = [];
