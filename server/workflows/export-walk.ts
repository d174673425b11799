import "server-only";
// The walk of one export: time slices newest first, cursor pages within each, rows emitted strictly newest
// first and de-duplicated across slice edges, with bounded read-ahead and an ETA.
import type { ExportEvent } from "@/lib/api/exports";
import { DomainError } from "@/lib/api/errors";
import type { ExportPlan, ExportableOperation } from "@/lib/platform/export-plan";
import type { TimeWindow } from "@/lib/platform/windows";
import type { PlatformClient } from "@/server/platform/client";
import { EXPORT_COLUMNS, csvRows } from "./export-columns";

/** What the walk needs of a run. */
export type WalkOptions = {
  client: PlatformClient;
  key?: string;
  signal?: AbortSignal;
  onEvent: (e: ExportEvent) => void | Promise<void>;
};

/** A call may queue this long for rate budget shared with other staff before the export fails. */
const EXPORT_QUEUE_DEADLINE_MS = 60_000;



type Page = { rows: unknown[] };
type Slice = {
  window: TimeWindow;
  pages: Page[];
  done: boolean;
  /** Oldest row time seen by the producer (for the ETA). */
  oldestMs: number | null;
  wake: (() => void) | null;
};

export async function walk(
  o: WalkOptions,
  plan: ExportPlan,
  windows: readonly TimeWindow[],
  /** Windows already exported by a failed run this one resumes. */
  skip: number,
  concurrency: number,
  columns: (typeof EXPORT_COLUMNS)[ExportableOperation],
  counters: { records: number; windowsDone: number },
  started: number,
  saveProgress: (force: boolean) => Promise<void>,
) {
  const { paging } = plan;
  const limit = paging.limit.max;
  const slices: Slice[] = windows.slice(skip).map((window) => ({ window, pages: [], done: false, oldestMs: null, wake: null }));
  const totalSpan = slices.reduce((n, s) => n + (s.window.endTime - s.window.startTime + 1), 0);

  // One controller for every producer: the caller's abort, or the first failure, stops them all.
  const stop = new AbortController();
  const onAbort = () => stop.abort(o.signal?.reason);
  if (o.signal?.aborted) stop.abort(o.signal.reason);
  o.signal?.addEventListener("abort", onAbort, { once: true });
  let failure = null as { error: unknown } | null;
  const wakeAll = () => slices.forEach((s) => s.wake?.());
  stop.signal.addEventListener("abort", wakeAll, { once: true });

  const produce = async (slice: Slice) => {
    let cursor: string | undefined;
    for (;;) {
      stop.signal.throwIfAborted();
      const retentionFloor = paging.retentionMs === null ? null : Date.now() - paging.retentionMs + RETENTION_MARGIN_MS;
      // A long export can reach its oldest window after it has aged past the retention: ask only for what is kept.
      const startTime = retentionFloor === null ? slice.window.startTime : Math.max(slice.window.startTime, retentionFloor);
      if (startTime > slice.window.endTime) break;
      const input = { ...plan.base, startTime: String(startTime), endTime: String(slice.window.endTime), limit: String(limit), ...(cursor ? { idLessThan: cursor } : {}) };
      const { data } = await o.client.call(plan.operation, input as never, { key: o.key, signal: stop.signal, queueDeadlineMs: EXPORT_QUEUE_DEADLINE_MS, cache: "no-store" });
      const rows = paging.rows(data);
      const last = rows.at(-1);
      if (last !== undefined) slice.oldestMs = Number(paging.rowTime(last));
      slice.pages.push({ rows });
      slice.wake?.();
      const next = paging.nextCursor(data, limit);
      if (!next) break;
      // A cursor that does not move would loop forever against a misbehaving platform.
      if (next === cursor) throw new DomainError("platform_cursor_stuck", `${plan.operation} returned the same cursor twice (${next})`);
      cursor = next;
    }
    slice.done = true;
    slice.wake?.();
  };

  // Producers run at most `concurrency` at a time and at most 2 × concurrency slices ahead of the one
  // being emitted, so buffered rows stay bounded however long the range is.
  let nextToStart = 0;
  let running = 0;
  let head = 0;
  const startMore = () => {
    while (!failure && running < concurrency && nextToStart < slices.length && nextToStart < head + 2 * concurrency) {
      const slice = slices[nextToStart++] as Slice;
      running++;
      produce(slice)
        .catch((error: unknown) => {
          if (!failure && !stop.signal.aborted) {
            failure = { error };
            stop.abort(error);
          }
        })
        .finally(() => {
          running--;
          startMore();
        });
    }
  };

  const eta = (): number | null => {
    let covered = 0;
    for (const s of slices) {
      if (s.done) covered += s.window.endTime - s.window.startTime + 1;
      else if (s.oldestMs !== null) covered += Math.max(0, s.window.endTime - s.oldestMs);
    }
    const share = covered / totalSpan;
    const elapsed = performance.now() - started;
    if (share <= 0 || counters.records === 0) return null;
    // Records per second so far, applied to the records the uncovered share of the range should hold.
    const perMs = counters.records / elapsed;
    const remaining = counters.records / share - counters.records;
    return Math.max(0, Math.round(remaining / perMs));
  };

  // De-duplication across window edges: a row can only repeat in the same or the adjacent slice, so two
  // sets of ids are kept rather than every id of a 400,000-row export.
  let seenBefore = new Set<string>();
  let seenNow = new Set<string>();

  try {
    startMore();
    for (head = 0; head < slices.length; head++) {
      startMore();
      const slice = slices[head] as Slice;
      for (;;) {
        if (failure) throw failure.error;
        stop.signal.throwIfAborted();
        const page = slice.pages.shift();
        if (!page) {
          if (slice.done) break;
          await new Promise<void>((r) => (slice.wake = r));
          slice.wake = null;
          continue;
        }
        const fresh = page.rows.filter((row) => {
          const id = paging.rowId(row);
          if (seenNow.has(id) || seenBefore.has(id)) return false;
          seenNow.add(id);
          return true;
        });
        if (fresh.length) {
          counters.records += fresh.length;
          await o.onEvent({ type: "rows", csv: csvRows(columns, fresh), count: fresh.length });
        }
        await o.onEvent({ type: "progress", records: counters.records, windowsDone: counters.windowsDone, windowsTotal: windows.length, etaMs: eta() });
        await saveProgress(false);
      }
      counters.windowsDone++;
      seenBefore = seenNow;
      seenNow = new Set();
      await o.onEvent({ type: "progress", records: counters.records, windowsDone: counters.windowsDone, windowsTotal: windows.length, etaMs: eta() });
      await saveProgress(true);
    }
  } finally {
    o.signal?.removeEventListener("abort", onAbort);
    if (!stop.signal.aborted) stop.abort();
  }
}

/**
 * With concurrency > 1, each window is cut into `concurrency` equal slices (newest first, no overlap),
 * so even a range of one window has that many cursor walks to run side by side.
 */
export function sliceWindows(windows: readonly TimeWindow[], concurrency: number): TimeWindow[] {
  if (concurrency <= 1) return [...windows];
  return windows.flatMap((w) => {
    const span = w.endTime - w.startTime + 1;
    const n = Math.max(1, Math.min(concurrency, span));
    const out: TimeWindow[] = [];
    for (let i = 0; i < n; i++) {
      const hi = w.endTime - Math.floor((span * i) / n);
      const lo = w.endTime - Math.floor((span * (i + 1)) / n) + 1;
      out.push({ startTime: lo, endTime: hi });
    }
    return out;
  });
}

/** Asked-for starts are kept this far inside the retention, so a clock difference with the platform is not refused. */
const RETENTION_MARGIN_MS = 60_000;
