import "server-only";
// One walk of a paged operation over [start, end] (E1 for a sub-account's deposits, E4 for a key's fills,
// E3 for a key's plan orders of a symbol), newest first, page by page, each page stored as it arrives. The
// catalog's paging entry says where a page's rows are and where the next (older) page starts, so the three
// sync runs walk alike and as the platform views page.
import { catalog } from "@/lib/platform/catalog";
import type { Paging } from "@/lib/platform/define-endpoint";
import type { LedgerRunDeps } from "./run-deps";

/** Rows per call: E1's, E3's and E4's most. */
export const PAGE = 100;

export type WalkedOperation = "deposits.list" | "fills.list" | "planOrders.history";
/** What a run adds up over its walks. */
export type WalkCounts = { calls: number; records: number; changes: number };
/** What one walk saw: its records, and the newest one's creation time (ms). */
export type Walk = { count: number; newest: number | null };

export type WalkSpec<Row> = {
  op: WalkedOperation;
  /** The request's parameters besides the span, the limit and the cursor. */
  params: Record<string, string>;
  /** The named key that signs (absent: the main account's). */
  key?: string;
  start: number;
  end: number;
  /** Stores a page; returns how many of its records were new or changed. */
  store: (rows: Row[]) => Promise<number>;
  /**
   * Stores the walk's last page (possibly empty), when given, instead of `store`: so what the whole walk
   * completes (the ledger's coverage) is written in the same transaction as the page that completes it.
   */
  storeLast?: (rows: Row[]) => Promise<number>;
};

export async function walkPages<Row extends { cTime: string }>(
  spec: WalkSpec<Row>,
  deps: LedgerRunDeps,
  out: WalkCounts,
): Promise<Walk> {
  const paging = catalog[spec.op].paging as unknown as Paging<unknown, Row>;
  const seen: Walk = { count: 0, newest: null };
  let cursor: string | undefined;
  for (;;) {
    deps.signal?.throwIfAborted();
    await deps.budget();
    const input = {
      ...spec.params,
      startTime: String(Math.floor(spec.start)),
      endTime: String(Math.floor(spec.end)),
      limit: String(PAGE),
      ...(cursor ? { idLessThan: cursor } : {}),
    };
    // Behind any staff call waiting for the operation's budget: a page never waits behind the backfill. A run
    // staff are waiting for queues as their call: behind the other sync calls granted a point, it waited about a
    // second a page at the whole limit.
    const { data } = await deps.client.call(spec.op, input, {
      key: spec.key,
      signal: deps.signal,
      priority: deps.urgent ? "staff" : "background",
    });
    const rows = paging.rows(data);
    out.calls++;
    const next = paging.nextCursor(data, PAGE);
    const last = next === null || next === cursor;
    if (last && spec.storeLast) out.changes += await spec.storeLast(rows);
    else if (rows.length) out.changes += await spec.store(rows);
    if (rows.length) {
      out.records += rows.length;
      seen.count += rows.length;
      for (const r of rows) seen.newest = Math.max(seen.newest ?? 0, Number(r.cTime));
    }
    if (last) return seen;
    cursor = next;
  }
}

/** A failed run's error as /sync shows it: the platform's code and message, at most 500 characters. */
export function failureText(error: unknown): string {
  const e = error as { code?: string; msg?: string; message?: string };
  return [e?.code, e?.msg ?? e?.message].filter(Boolean).join(" ").slice(0, 500) || String(error).slice(0, 500);
}
