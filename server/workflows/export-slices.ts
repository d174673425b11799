import "server-only";
// The slices an export walks (each of the plan's windows cut in equal parts) and how many walks it runs.
import type { ExportableOperation } from "@/lib/platform/export-plan";
import { catalog } from "@/lib/platform/catalog";
import type { TimeWindow } from "@/lib/platform/windows";

/**
 * Each of the plan's windows cut into `walks` equal slices (newest first, no overlap), so the walks work on one
 * window at a time, newest first: progress and a resume after a failure then go window by window (a walk per
 * window at once would finish them together and lose the most to a failure). More walks come by cutting.
 */
export function sliceWindows(windows: readonly TimeWindow[], walks: number): SlicedWindow[] {
  return windows.flatMap((w, of) => {
    const span = w.endTime - w.startTime + 1;
    const n = Math.max(1, Math.min(walks, span));
    const out: SlicedWindow[] = [];
    for (let i = 0; i < n; i++) {
      const hi = w.endTime - Math.floor((span * i) / n);
      const lo = w.endTime - Math.floor((span * (i + 1)) / n) + 1;
      out.push({ startTime: lo, endTime: hi, of });
    }
    return out;
  });
}

/** A slice of the plan's window number `of` (progress counts the plan's windows, as staff asked for them). */
export type SlicedWindow = TimeWindow & { of: number };

/** Added to the measured round trip when counting the walks it needs: the walk's own work between pages. */
const ROUND_TRIP_SLACK_MS = 30;

/**
 * Each walk has one request in flight at a time, so keeping every slot busy takes rate × (round trip + the
 * walk's own work) of them: one while the platform is a few ms away (one walk then sends a whole window's
 * budget within a few ms of its start).
 */
export const walksFor = (rate: number, roundTripMs: number): number =>
  Math.max(1, Math.ceil((rate * (roundTripMs + ROUND_TRIP_SLACK_MS)) / 1000));

/**
 * Walks an export starts with, together, from the client's latest answer to the operation (`recentRoundTripMs`;
 * the ledger's sync and staff keep it fresh). Near (one walk is enough): one, and no partial page more than the
 * range needs. Otherwise, or not known: half the operation's rate; their answers come back before the first
 * window is over at any distance under about 500 ms, and the same walks take the other half then. All ten at
 * once at 300 ms took 7-9 requests past the full pages, against 3-5, and no less time. The walk then follows
 * the round trips it measures. runExport in a scratch harness (not kept), 3 runs each at 0/150/300 ms:
 * three a slot apart 0.976-0.981 / 0.956-0.963 / 0.947-0.951; five together 0.976-0.981 / 0.964-0.965 /
 * 0.954-0.962; one at 0 ms 1.009-1.016 (320 requests, not 322: a partial page past a multiple of the rate
 * costs a whole window when the platform is near).
 */
export function initialWalks(operation: ExportableOperation, recentRoundTripMs: number | null): number {
  const rate = catalog[operation].rateLimit.count;
  if (recentRoundTripMs !== null && walksFor(rate, recentRoundTripMs) === 1) return 1;
  return Math.max(2, Math.ceil(rate / 2));
}
