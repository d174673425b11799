// Ranges longer than an operation's maximum span are walked window by window, newest first.
import type { Paging } from "./define-endpoint";

export const DAY_MS = 86_400_000;
/** "Three months" (E1) read as 90 days: the shortest reading, so no strict server refuses our span. */
export const THREE_MONTHS_MS = 90 * DAY_MS;

export type TimeWindow = { startTime: number; endTime: number };

/** Splits [start, end] into windows of at most `maxSpanMs`, newest first. Windows do not overlap. */
export function splitRange(start: number, end: number, maxSpanMs: number | null): TimeWindow[] {
  if (!(end >= start)) throw new RangeError("end must not be before start");
  if (maxSpanMs === null || end - start <= maxSpanMs) return [{ startTime: start, endTime: end }];
  const windows: TimeWindow[] = [];
  for (let hi = end; hi >= start; hi -= maxSpanMs + 1) {
    windows.push({ startTime: Math.max(start, hi - maxSpanMs), endTime: hi });
  }
  return windows;
}

/** Why a range cannot be asked for at all (outside the retention), or null. */
export function retentionProblem(
  start: number,
  paging: Pick<Paging<unknown, unknown>, "retentionMs">,
  now = Date.now(),
): string | null {
  if (paging.retentionMs === null) return null;
  const oldest = now - paging.retentionMs;
  if (start >= oldest) return null;
  const days = Math.round(paging.retentionMs / 86_400_000);
  return (
    `The platform keeps only the last ${days} days: choose a start on or after ` +
    `${new Date(oldest).toISOString().slice(0, 10)} (UTC)`
  );
}
