import "server-only";

export type RateLimitMode = "on" | "relaxed" | "off";
/** "relaxed" keeps limits (so a runaway client still shows) but high enough for benchmarks. */
export const RELAXED_FACTOR = 100;
const WINDOW_MS = 1000;

/** A sliding one-second window per (operation, uid or IP), counting the requests it let through. */
export class SlidingWindowLimiter {
  private readonly windows = new Map<string, number[]>();

  constructor(public mode: RateLimitMode = "on") {}

  /** Lets the request through (and counts it) or refuses it. */
  tryAcquire(bucket: string, limit: number, nowMs: number): boolean {
    if (this.mode === "off") return true;
    const allowed = this.mode === "relaxed" ? limit * RELAXED_FACTOR : limit;
    let times = this.windows.get(bucket);
    if (!times) this.windows.set(bucket, (times = []));
    let drop = 0;
    while (drop < times.length && (times[drop] as number) <= nowMs - WINDOW_MS) drop++;
    if (drop) times.splice(0, drop);
    if (times.length >= allowed) return false;
    // Requests are counted at arrival, which can precede an earlier-gated one's by a few ms (one waited on
    // its body): keep the times sorted so the front is always the oldest.
    let at = times.length;
    while (at > 0 && (times[at - 1] as number) > nowMs) at--;
    times.splice(at, 0, nowMs);
    return true;
  }

  reset(): void {
    this.windows.clear();
  }
}
