// The paged table's position, as a pure state machine so it can be tested without a browser.
// A position is (window, cursor): windows split a long range newest first (lib/platform/windows.ts),
// the cursor is the operation's `idLessThan` within that window (null = its first page). The stack
// holds every position the user stepped through, so "Newer" is a pop and "Latest" is an empty stack,
// and the whole stack lives in the URL (STYLE rule 10): back, forward and shared links all land on
// the same page.
import { splitRange, type TimeWindow } from "@/lib/platform/windows";
import { formatUtcMinutes } from "@/lib/format";

export type PagePosition = { window: number; cursor: string | null };
export type PageStack = readonly PagePosition[];

export const FIRST_POSITION: PagePosition = Object.freeze({ window: 0, cursor: null });

export function currentPosition(stack: PageStack): PagePosition {
  return stack.at(-1) ?? FIRST_POSITION;
}

/**
 * The stack one step older, or null when there is nothing older: the next cursor within the window
 * while the platform gives one, else the first page of the next (older) window.
 */
export function olderStack(
  stack: PageStack,
  page: { nextCursor: string | null; windowCount: number },
): PageStack | null {
  const here = currentPosition(stack);
  if (page.nextCursor !== null) return [...stack, { window: here.window, cursor: page.nextCursor }];
  if (here.window + 1 < page.windowCount) return [...stack, { window: here.window + 1, cursor: null }];
  return null;
}

export function newerStack(stack: PageStack): PageStack {
  return stack.slice(0, -1);
}

/** Keeps a stack only if every window it names exists for the current range (a hand-edited URL may not). */
export function validStack(stack: PageStack, windowCount: number): PageStack {
  return stack.every((p) => Number.isInteger(p.window) && p.window >= 0 && p.window < windowCount) ? stack : [];
}

// URL form of one position: "<window>~<cursor>"; "~" is unreserved, so links stay readable.
export function encodePosition(p: PagePosition): string {
  return `${p.window}~${p.cursor ?? ""}`;
}

export function decodePosition(token: string): PagePosition | null {
  const m = /^(\d{1,4})~([0-9A-Za-z_-]{0,64})$/.exec(token);
  if (!m) return null;
  return { window: Number(m[1]), cursor: m[2] ? m[2] : null };
}

// ---------------------------------------------------------------------------------------------
// Time range

export const RANGE_PRESETS = {
  "1h": { label: "Last hour", ms: 3_600_000 },
  "24h": { label: "Last 24 hours", ms: 86_400_000 },
  "7d": { label: "Last 7 days", ms: 7 * 86_400_000 },
  "30d": { label: "Last 30 days", ms: 30 * 86_400_000 },
  "90d": { label: "Last 90 days", ms: 90 * 86_400_000 },
} as const;
export type RangePreset = keyof typeof RANGE_PRESETS;
export const RANGE_CHOICES = [...(Object.keys(RANGE_PRESETS) as RangePreset[]), "custom"] as const;
export type RangeChoice = (typeof RANGE_CHOICES)[number];

export type RangeInput = {
  range: RangeChoice;
  from: number | null;
  to: number | null;
  /** The instant a preset was resolved at when the URL pinned it (`at`), else null. */
  at: number | null;
};

export type ResolvedRange = { start: number; end: number } | { problem: string };

/** A preset counts back from `at` (or the page's own "now"); custom needs both ends. */
export function resolveRange(input: RangeInput, now: number): ResolvedRange {
  if (input.range === "custom") {
    if (input.from === null || input.to === null)
      return { problem: "Choose both a start and an end for a custom range" };
    if (input.to < input.from) return { problem: "The end of the range is before its start" };
    return { start: input.from, end: input.to };
  }
  const end = input.at ?? now;
  return { start: end - RANGE_PRESETS[input.range].ms, end };
}

/**
 * The URL patch for a page move. "Latest" drops the walked path and the pin (the caller also moves its
 * "now" to the present); Older from a preset pins the preset's "now" in `at`, so a shared link shows the
 * very same page.
 */
export function pageMovePatch(
  q: { range: RangeChoice; at: number | null },
  now: number,
  next: PageStack,
  move: "older" | "newer" | "latest",
): { p: PagePosition[] | null; at: number | null } {
  if (move === "latest") return { p: null, at: null };
  const at = q.range !== "custom" && move === "older" ? (q.at ?? now) : q.at;
  return { p: next.length ? [...next] : null, at };
}

export function windowsFor(range: { start: number; end: number }, maxSpanMs: number | null): TimeWindow[] {
  return splitRange(range.start, range.end, maxSpanMs);
}

/** Says that (and how) a long range is walked, or null when one request covers it. */
export function describeWindows(
  windows: readonly TimeWindow[],
  index: number,
  maxSpanMs: number | null,
): string | null {
  if (windows.length <= 1 || maxSpanMs === null) return null;
  const w = windows[index];
  const days = Math.round(maxSpanMs / 86_400_000);
  const span = w ? ` (${formatUtcMinutes(w.startTime)} – ${formatUtcMinutes(w.endTime)} UTC)` : "";
  return `Range longer than ${days} days: showing window ${index + 1} of ${windows.length}${span}, newest first`;
}
