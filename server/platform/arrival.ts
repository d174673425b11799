import "server-only";

/**
 * When does the platform see a request we send now? It counts requests against its rate limit at the
 * moment each one reaches it, and reports that moment in every answer as `requestTime`, on its own clock.
 * For a request sent at local time `s` that it saw at `R`, `R − s = θ + d` (θ: its clock minus ours; d: the
 * one-way trip in). A second request sent at `s'` arrives at `s' + θ + d'`. So if `lead ≤ θ + d'`, it
 * cannot arrive before `s' + lead`, and a slot whose last request arrived at `R_prev` may send again from
 * `R_prev − lead + window` without two of its requests ever falling inside one window of the platform's.
 * That is pacing by when the platform saw a request, not by when its answer came back: at 150 ms away
 * pacing from the answer would cost each slot a round trip per window.
 *
 * θ + d' cannot be measured: one-way times are unknowable with two unsynchronised clocks. The rule rests on
 * one stated assumption: **the inbound trip's jitter is bounded**: every request's `d` lies within
 * `[d₀, d₀ + 2·jitterMs]` for some floor `d₀`. Then every sample `x = R − s` lies within
 * `[θ + d₀, θ + d₀ + 2·jitterMs]`, so `max(x) − 2·jitterMs ≤ θ + d₀ ≤ θ + d'`: a lower bound that
 * becomes
 * tight as samples cover the jitter (`arrival.test.ts` proves the window rule over random delays). Samples
 * above `min(x) + 2·jitterMs` break the assumption (a queueing spike) and are left out, so an outlier can
 * cost at most what the plainer rule (`lead = min(x)`) would. A 429 still possible past the assumption is
 * answered by the limiter slowing down (its penalty), and the work goes on.
 *
 * The trip can change for good (a new route, a failover; the benchmark moves the simulator from 150 to 300 ms
 * away). A longer one leaves every new sample above the old floor + 2·jitterMs, where a queueing spike would be:
 * left out, the floor stays the old one and every slot waits the difference, until the old samples age out of
 * `keep` (6.4 s at 10/s). `rebaseSamples` such samples in a row are not a spike but the new trip, when they
 * look like one: they keep the assumption among themselves (all within one band of 2·jitterMs) and were sent
 * over at least `rebaseSpanMs`. Then the older samples are dropped (safe: the bound is again the assumption's,
 * on the trip as it is now). A queue draining is neither: sixteen reads let out at once after a burst came
 * back 186 down to 94 ms late, all sent within a few ms, and a rebase on them put the floor 90 ms above the
 * trip, so the next reads reached the platform that much early (four 429s in e2e's busy-then-metrics run). A shorter
 * trip breaks the assumption for the requests already paced by the old floor (they may arrive early by the
 * step: a 429, answered by the penalty); its first answer is the new minimum, and the bound never exceeds it.
 *
 * Never later than the assumption-free rule: a request arrived before its answer did, so one window after
 * the answer is always safe; the slot is free at whichever of the two comes first. Before `minSamples`
 * answers only that rule is used.
 */
export type ArrivalOptions = {
  /** The assumed bound on the inbound trip's jitter (± ms). */
  jitterMs: number;
  /** Added to every paced window: the platform's own rounding of requestTime to ms and its gate. */
  marginMs: number;
  /** Answers needed before pacing by requestTime (the bound is loose with few samples). */
  minSamples: number;
  /** Answers needed before the observed spread may tighten the bound (see `lead`). */
  spreadSamples: number;
  /** Samples kept (the newest); older ones age out, so a step of the platform's clock is followed. */
  keep: number;
  /**
   * Samples sent longer ago than this (ms) before the newest are dropped: a floor measured minutes ago says
   * nothing of the trip or the clocks now. After such a pause the first answers pace by the answer
   * (`minSamples`) and the floor is measured afresh, as at start-up.
   */
  maxAgeMs: number;
  /** This many samples in a row above the floor's jitter band, within one band of each other, are a longer trip... */
  rebaseSamples: number;
  /** ...when they were sent over at least this long (ms): a trip that lasted, not one burst. */
  rebaseSpanMs: number;
};

export const DEFAULT_ARRIVAL: ArrivalOptions = {
  jitterMs: 20,
  marginMs: 5,
  minSamples: 3,
  spreadSamples: 32,
  keep: 64,
  maxAgeMs: 60_000,
  rebaseSamples: 16,
  rebaseSpanMs: 1000,
};

export class ArrivalEstimator {
  /** Oldest first. */
  private samples: { x: number; sentAt: number }[] = [];
  /**
   * The newest samples, in a row, that lay above the floor's jitter band when they came, and within one band of each
   * other.
   */
  private run: { x: number; sentAt: number }[] = [];
  private cached: number | null | undefined;

  constructor(private readonly o: ArrivalOptions = DEFAULT_ARRIVAL) {}

  /** One answer: sent at `sentAt` (local ms), seen by the platform at `requestTime` (its ms). */
  observe(sentAt: number, requestTime: number): void {
    if (!Number.isFinite(sentAt) || !Number.isFinite(requestTime) || requestTime <= 0) return;
    const x = requestTime - sentAt;
    const spread = 2 * this.o.jitterMs;
    const stale = sentAt - this.o.maxAgeMs;
    while (this.samples.length > 0 && this.samples[0]!.sentAt < stale) this.samples.shift();
    if (this.run.length > 0 && this.run[0]!.sentAt < stale) this.run = [];
    if (this.samples.length > 0 && x > Math.min(...this.samples.map((p) => p.x)) + spread) {
      this.run.push({ x, sentAt });
      // The run keeps the assumption among its own samples, or its older ones were not the same trip.
      while (Math.max(...this.run.map((r) => r.x)) - Math.min(...this.run.map((r) => r.x)) > spread) this.run.shift();
    } else this.run = [];
    this.samples.push({ x, sentAt });
    const spanMs = this.run.length ? this.run[this.run.length - 1]!.sentAt - this.run[0]!.sentAt : 0;
    if (this.run.length >= this.o.rebaseSamples && spanMs >= this.o.rebaseSpanMs) {
      this.samples = [...this.run];
      this.run = [];
    } else if (this.samples.length > this.o.keep) this.samples.shift();
    this.cached = undefined;
  }

  /** A lower bound of (the platform's clock − ours + the trip in) for a request sent now; null while unknown. */
  lead(): number | null {
    if (this.cached !== undefined) return this.cached;
    if (this.samples.length < this.o.minSamples) return (this.cached = null);
    const spread = 2 * this.o.jitterMs;
    let min = Number.POSITIVE_INFINITY;
    for (const { x } of this.samples) min = Math.min(min, x);
    let max = min;
    for (const { x } of this.samples) if (x <= min + spread) max = Math.max(max, x);
    const bounded = max - spread;
    if (this.samples.length < this.o.spreadSamples) return (this.cached = bounded);
    // A network steadier than the assumed bound shows it: once many samples all lie within a narrow spread
    // S, a new one falls below their minimum by more than S again only if S is under half the true width,
    // which for 32 samples happens about once in 10^8. That tightens the bound to the jitter actually seen
    // (at 0 ms of jitter a slot waits 1,007 ms, not 1,045).
    const observed = min - (max - min) - 2;
    return (this.cached = Math.max(bounded, observed));
  }

  /**
   * The local time from which the slot that carried a request may send again. `requestTime` is when the
   * platform saw it (absent when no envelope came back), `answeredAt` when its answer arrived here.
   */
  slotFreeAt(a: { requestTime?: number; answeredAt: number; windowMs: number; safeWindowMs: number }): number {
    const safe = a.answeredAt + a.safeWindowMs;
    const lead = this.lead();
    if (lead === null || a.requestTime === undefined || !(a.requestTime > 0)) return safe;
    return Math.min(safe, a.requestTime - lead + a.windowMs + this.o.marginMs);
  }
}
