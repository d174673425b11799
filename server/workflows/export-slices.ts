import "server-only";
// The slices an export walks: each of the plan's windows cut in equal parts.
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
