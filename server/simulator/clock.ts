import "server-only";

/**
 * The simulated platform's clock: the wall clock (or a test's `now`) plus an offset that only grows
 * (`POST /__sim/clock {"advanceMs": n}`). Everything the platform decides by time reads `now`: requestTime,
 * record times, default windows, retention, pending → success. Authentication (ACCESS-TIMESTAMP skew) and
 * the rate limiter read `wall`, since clients cannot move their own clocks (README "Clock", **choice**).
 */
export class SimClock {
  private offset = 0;

  constructor(readonly wall: () => number) {}

  readonly now = (): number => this.wall() + this.offset;

  get offsetMs(): number {
    return this.offset;
  }

  /** Moves the clock forward by `ms` (a whole, non-negative number); returns the new time. */
  advance(ms: number): number {
    if (!Number.isSafeInteger(ms) || ms < 0)
      throw new RangeError("advanceMs must be a whole number of milliseconds ≥ 0");
    this.offset += ms;
    return this.now();
  }
}
