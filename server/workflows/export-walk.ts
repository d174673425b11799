import "server-only";
// The walk of one export: time slices newest first, cursor pages within each, rows emitted strictly newest
// first and de-duplicated across slice edges, with bounded read-ahead and an ETA.
import type { ExportEvent } from "@/lib/api/exports";
import { DomainError } from "@/lib/api/errors";
import type { ExportPlan, ExportableOperation } from "@/lib/platform/export-plan";
import type { TimeWindow } from "@/lib/platform/windows";
import type { PlatformClient } from "@/server/platform/client";
import { catalog } from "@/lib/platform/catalog";
import { EXPORT_COLUMNS, csvLines } from "./export-columns";
import { walksFor, type SlicedWindow } from "./export-slices";

export { initialWalks, sliceWindows } from "./export-slices";

/** What the walk needs of a run. */
export type WalkOptions = {
  client: PlatformClient;
  key?: string;
  signal?: AbortSignal;
  onEvent: (e: ExportEvent) => void | Promise<void>;
};

/** A call may queue this long for rate budget shared with other staff before the export fails. */
const EXPORT_QUEUE_DEADLINE_MS = 60_000;

/**
 * A page as its walk received it, its rows' CSV lines already made: the walk encodes while it waits for
 * rate budget, so rows buffered ahead of the slice being written (at the end, most of the export's) go out
 * without being encoded then (measured: 2 ms a page, 0.4 s at the end of a 32,000-row export).
 */
type Page = { rows: unknown[]; lines: string[] };
type Slice = {
  /** Its own copy: a steal moves its start (see `steal`). */
  window: TimeWindow;
  /** The plan's window it is part of. */
  of: number;
  /** Cut off the older part of another slice while it ran: counted in progress with that one. */
  stolen: boolean;
  /** The slice's producer has asked for its first page. */
  walking: boolean;
  /** Rows its walk has seen (with oldestMs, the density that says whether cutting it pays). */
  seen: number;
  pages: Page[];
  done: boolean;
  /** Oldest row time seen by the producer (for the ETA). */
  oldestMs: number | null;
  /** Why its walk failed: the export fails when this slice's turn to be written comes. */
  failed: { error: unknown } | null;
  wake: (() => void) | null;
};

/** A slice not walked yet: of the plan's window `of`, or (stolen) cut off the older part of another slice. */
const newSlice = (window: TimeWindow, of: number, stolen: boolean): Slice => ({
  window,
  of,
  stolen,
  walking: false,
  seen: 0,
  pages: [],
  done: false,
  oldestMs: null,
  failed: null,
  wake: null,
});

export async function walk(
  o: WalkOptions,
  plan: ExportPlan,
  windows: readonly SlicedWindow[],
  /** The plan's windows already exported by a failed run this one resumes. */
  skip: number,
  /** Walks at the start (`initialWalks`) and at the most (EXPORT_CONCURRENCY). */
  walks: { initial: number; most: number },
  columns: (typeof EXPORT_COLUMNS)[ExportableOperation],
  counters: { records: number; windowsDone: number; cuts: number },
  started: number,
  saveProgress: (force: boolean) => Promise<void>,
) {
  const { paging } = plan;
  const limit = paging.limit.max;
  const slices: Slice[] = windows.filter((w) => w.of >= skip).map(({ of, ...window }) => newSlice(window, of, false));
  const windowsTotal = new Set(windows.map((w) => w.of)).size;
  const totalSpan = slices.reduce((n, s) => n + (s.window.endTime - s.window.startTime + 1), 0);

  // One controller for every producer: the caller's abort stops them all.
  const stop = new AbortController();
  const onAbort = () => stop.abort(o.signal?.reason);
  if (o.signal?.aborted) stop.abort(o.signal.reason);
  o.signal?.addEventListener("abort", onAbort, { once: true });
  const wakeAll = () => slices.forEach((s) => s.wake?.());
  stop.signal.addEventListener("abort", wakeAll, { once: true });
  // A walk that fails does not stop the walks of the slices before it (newer rows): they finish and are
  // written, so a resume starts from the furthest whole window there can be. Walks after it stop, no new walk
  // starts, and the export fails when the failed slice's turn to be written comes.
  let failures = 0;
  const failedBefore = (slice: Slice) => {
    if (failures === 0) return false;
    for (const s of slices) {
      if (s.failed) return true;
      if (s === slice) return false;
    }
    return false;
  };
  const firstFailure = () => slices.find((s) => s.failed)?.failed?.error;

  // The first walks start together. The platform's window starts with its whole budget, and a request let
  // out later than it could be costs its slot that time at the start and, as the slot is then late every
  // window, at the end (the runs' first and last arrivals showed about 0.9 s of the two together at 300 ms
  // when the first walks started a slot apart). How many: `initialWalks`.
  const rate = catalog[plan.operation].rateLimit.count;
  const slotMs = 1000 / rate;
  const concurrency = walks.most;
  // How many walks the distance needs (`walksFor`). More cost a partial page each and buy nothing (at 0 ms six
  // walks wasted 1.5 % of the budget on them; at 300 ms one walk more than this took two partial pages more
  // and no less time), so the walk count follows the round trips this export measures (the slowest of recent
  // ones), from `walks.initial` up to `concurrency`.
  let roundTripMs: number | null = null;
  const wanted = () => Math.min(concurrency, roundTripMs === null ? walks.initial : walksFor(rate, roundTripMs));
  const produce = async (slice: Slice) => {
    let cursor: string | undefined;
    slice.walking = true;
    for (;;) {
      stop.signal.throwIfAborted();
      if (failedBefore(slice)) return;
      const retentionFloor = paging.retentionMs === null ? null : Date.now() - paging.retentionMs + RETENTION_MARGIN_MS;
      // A long export can reach its oldest window after it has aged past the retention: ask only for what is kept.
      const startTime =
        retentionFloor === null ? slice.window.startTime : Math.max(slice.window.startTime, retentionFloor);
      if (startTime > slice.window.endTime) break;
      const input = {
        ...plan.base,
        startTime: String(startTime),
        endTime: String(slice.window.endTime),
        limit: String(limit),
        ...(cursor ? { idLessThan: cursor } : {}),
      };
      const answer = await o.client.call(plan.operation, input as never, {
        key: o.key,
        signal: stop.signal,
        queueDeadlineMs: EXPORT_QUEUE_DEADLINE_MS,
        cache: "no-store",
      });
      const { data } = answer;
      if (failedBefore(slice)) return;
      // The slowest of recent round trips (decaying), so one quick answer does not take walks away.
      if (answer.roundTripMs !== undefined)
        roundTripMs =
          roundTripMs === null
            ? answer.roundTripMs
            : Math.max(answer.roundTripMs, roundTripMs * 0.9 + answer.roundTripMs * 0.1);
      const all = paging.rows(data);
      // A steal may have moved this slice's start while the page was on its way: what lies below it now is
      // the older slice's to fetch, so no row is ever walked by two slices that are not neighbours.
      const rows = all.filter((row) => Number(paging.rowTime(row)) >= slice.window.startTime);
      const last = rows.at(-1);
      if (last !== undefined) slice.oldestMs = Number(paging.rowTime(last));
      slice.seen += rows.length;
      slice.pages.push({ rows, lines: csvLines(columns, rows) });
      slice.wake?.();
      // A first round trip known, or a longer one: more walks may be wanted now, not when one ends.
      startMore();
      const next = paging.nextCursor(data, limit);
      if (!next || rows.length < all.length) break;
      // A cursor that does not move would loop forever against a misbehaving platform.
      if (next === cursor)
        throw new DomainError("platform_cursor_stuck", `${plan.operation} returned the same cursor twice (${next})`);
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
  const run = (slice: Slice) => {
    running++;
    produce(slice)
      .catch((error: unknown) => {
        if (stop.signal.aborted) return;
        slice.failed = { error };
        failures++;
        slice.wake?.();
      })
      .finally(() => {
        running--;
        startMore();
        // The slice being written may be waiting on walks that have all stopped.
        slices[head]?.wake?.();
      });
  };
  const startMore = () => {
    while (
      failures === 0 &&
      !stop.signal.aborted &&
      running < wanted() &&
      nextToStart < slices.length &&
      nextToStart < head + 2 * concurrency
    ) {
      run(slices[nextToStart++] as Slice);
    }
    // Nothing left to start while walks are still wanted: cut the older half off the walk with the most time
    // still ahead of it, so every walk stays busy to the end (without it, the densest slice ends alone at one
    // page per round trip: 0.78 of the bound at 300 ms).
    while (failures === 0 && !stop.signal.aborted && running < wanted() && nextToStart === slices.length) {
      const older = steal();
      if (!older) break;
      nextToStart = slices.length;
      run(older);
    }
  };
  /** Splits the running slice with the most unwalked time; the older part becomes a new slice after it. */
  const steal = (): Slice | null => {
    let best = -1;
    let bestLeft = 0;
    let bestPages = MIN_STEAL_PAGES;
    let totalPages = 0;
    for (let i = head; i < slices.length; i++) {
      const s = slices[i] as Slice;
      if (s.done || !s.walking || s.oldestMs === null) continue;
      const left = s.oldestMs - s.window.startTime;
      // Pages still ahead, at the density walked so far: a cut costs a partial page, so cut only long walks.
      const pagesLeft = (left * s.seen) / Math.max(1, s.window.endTime - s.oldestMs) / limit;
      totalPages += pagesLeft;
      if (pagesLeft > bestPages) [best, bestLeft, bestPages] = [i, left, pagesLeft];
    }
    if (best < 0) return null;
    // Only when that walk, at one page per round trip, would end after the rate budget has done all the pages
    // left: otherwise the budget is what the export waits for, and a cut buys nothing but its partial page (at
    // 300 ms the cuts near the end cost up to 8 requests past the full pages).
    if (roundTripMs !== null && bestPages * roundTripMs <= (totalPages * 1000) / rate + slotMs) return null;
    const victim = slices[best] as Slice;
    const mid = victim.window.startTime + Math.floor(bestLeft / 2);
    const older = newSlice({ startTime: victim.window.startTime, endTime: mid - 1 }, victim.of, true);
    victim.window.startTime = mid;
    // Right after the slice it came from: rows still leave newest first.
    slices.splice(best + 1, 0, older);
    counters.cuts++;
    return older;
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

  /** A progress event, then the progress saved (`force`: at a window's end, whatever the time since the last). */
  const progress = async (force: boolean) => {
    await o.onEvent({
      type: "progress",
      records: counters.records,
      windowsDone: counters.windowsDone,
      windowsTotal,
      etaMs: eta(),
    });
    await saveProgress(force);
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
        stop.signal.throwIfAborted();
        if (slice.failed) throw slice.failed.error;
        // Not started and never to be (a later slice failed before its walk began): the export ends here.
        if (failures > 0 && !slice.walking && !slice.done && !running) throw firstFailure();
        const page = slice.pages.shift();
        if (!page) {
          if (slice.done) break;
          await new Promise<void>((r) => (slice.wake = r));
          slice.wake = null;
          continue;
        }
        let csv = "";
        let count = 0;
        page.rows.forEach((row, i) => {
          const id = paging.rowId(row);
          if (seenNow.has(id) || seenBefore.has(id)) return;
          seenNow.add(id);
          csv += page.lines[i];
          count++;
        });
        if (count) {
          counters.records += count;
          await o.onEvent({ type: "rows", csv, count });
        }
        // Progress once the pages ready now are out (each page's own when they come one at a time).
        if (slice.pages.length) continue;
        await progress(false);
      }
      // A window counts once its last slice (and any part cut off one) is out.
      if (slices[head + 1]?.of !== slice.of) counters.windowsDone++;
      seenBefore = seenNow;
      seenNow = new Set();
      await progress(true);
    }
  } finally {
    o.signal?.removeEventListener("abort", onAbort);
    if (!stop.signal.aborted) stop.abort();
  }
}

/** A walk is cut in two only while more than this many pages are still ahead of it (each half then has one or more). */
const MIN_STEAL_PAGES = 2;

/** Asked-for starts are kept this far inside the retention, so a clock difference with the platform is not refused. */
const RETENTION_MARGIN_MS = 60_000;
