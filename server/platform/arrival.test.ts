// The pacing rule of arrival.ts, proven over random delays: a model of the limiter's slots,
// walkers that send again as soon as an answer is in, and a platform whose clock is anywhere and whose
// inbound and outbound trips jitter within the assumed bound. What the platform's rate gate sees must never
// hold more than `limit` requests in one second, and with enough walkers the rule must reach the bound.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mulberry32 } from "@/server/simulator/prng";
import { ArrivalEstimator, DEFAULT_ARRIVAL } from "./arrival";

type Net = {
  limit: number;
  walkers: number;
  baseMs: number;
  jitterMs: number;
  thetaMs: number;
  processMs: number;
  seed: number;
  step?: { after: number; ms: number };
};
type FreeRule = (a: { sentAt: number; requestTime: number; answeredAt: number }) => number;

/**
 * Discrete-event run of `requests` requests: each walker asks for a slot as soon as its previous answer is
 * in; a free slot is taken at once, else the walker queues (FIFO) for the soonest. Returns the platform's
 * arrival times (its clock, whole ms, as its gate counts them).
 */
function run(net: Net, requests: number, freeAt: FreeRule): number[] {
  // Seeded, so a failing case can be replayed from its seed.
  const random = mulberry32(net.seed);
  // A step: from the `after`-th request on, every trip is `ms` longer (or shorter): a new route.
  const trip = () =>
    Math.max(0, net.baseMs + (net.step && sent > net.step.after ? net.step.ms : 0) + (random() * 2 - 1) * net.jitterMs);
  const slots = Array.from({ length: net.limit }, () => ({ freeAt: 0, inFlight: false }));
  const waiting: number[] = [];
  const arrivals: number[] = [];
  type Event = { at: number; kind: "want" | "answer" | "free"; slot?: number; sentAt?: number; requestTime?: number };
  const events: Event[] = Array.from({ length: net.walkers }, (_, i) => ({ at: i * 0.1, kind: "want" as const }));
  let sent = 0;

  const send = (slot: number, at: number) => {
    sent++;
    slots[slot]!.inFlight = true;
    const inbound = trip();
    const requestTime = Math.floor(at + net.thetaMs + inbound);
    arrivals.push(requestTime);
    events.push({ at: at + inbound + net.processMs + trip(), kind: "answer", slot, sentAt: at, requestTime });
  };
  const freeSlot = (at: number) => slots.findIndex((s) => !s.inFlight && s.freeAt <= at);

  while (events.length && sent < requests) {
    events.sort((a, b) => a.at - b.at);
    const e = events.shift()!;
    if (e.kind === "want") waiting.push(0);
    else if (e.kind === "answer") {
      const s = slots[e.slot!]!;
      s.inFlight = false;
      s.freeAt = freeAt({ sentAt: e.sentAt!, requestTime: e.requestTime!, answeredAt: e.at });
      events.push({ at: Math.max(e.at, s.freeAt), kind: "free", slot: e.slot });
      events.push({ at: e.at, kind: "want" });
    }
    // Waiters in order take whatever slot is free now.
    for (let slot = freeSlot(e.at); waiting.length && slot >= 0 && sent < requests; slot = freeSlot(e.at)) {
      waiting.shift();
      send(slot, e.at);
    }
  }
  return arrivals;
}

/** The most requests any one-second window of the platform's gate holds (a time ≤ t − 1000 has left it). */
function peakPerSecond(arrivals: number[]): number {
  const t = [...arrivals].sort((a, b) => a - b);
  let best = 0;
  for (let i = 0, j = 0; i < t.length; i++) {
    while (t[j]! <= t[i]! - 1000) j++;
    best = Math.max(best, i - j + 1);
  }
  return best;
}

/** The rule as the limiter applies it (limiter.ts: release → slotFreeAt). */
function arrivalRule(): FreeRule {
  const estimator = new ArrivalEstimator(DEFAULT_ARRIVAL);
  return ({ sentAt, requestTime, answeredAt }) => {
    estimator.observe(sentAt, requestTime);
    return estimator.slotFreeAt({ requestTime, answeredAt, windowMs: 1000, safeWindowMs: 1000 });
  };
}

const network = fc.record({
  limit: fc.constantFrom(1, 3, 10, 20),
  walkers: fc.integer({ min: 1, max: 16 }),
  baseMs: fc.integer({ min: 0, max: 300 }),
  jitterMs: fc.integer({ min: 0, max: DEFAULT_ARRIVAL.jitterMs }),
  // The platform's clock is epoch ms; ours, in the model, starts at 0: θ is the epoch give or take a lot of skew.
  thetaMs: fc.integer({ min: -1e9, max: 1e9 }).map((skew) => 1.7e12 + skew),
  processMs: fc.integer({ min: 0, max: 20 }),
  seed: fc.integer(),
});

describe("[platform][pacing] pacing by when the platform saw each request", () => {
  it("[platform][pacing] never lets a one-second window of the platform hold more than the limit, whatever the delays within the jitter bound", () => {
    fc.assert(
      fc.property(network, (net) => {
        expect(peakPerSecond(run(net, 40 * net.limit, arrivalRule()))).toBeLessThanOrEqual(net.limit);
      }),
      // A fixed seed: the same 300 random networks on every run (a failure names its case; CI never flakes).
      { numRuns: 300, seed: 15 },
    );
  });

  // A shorter trip is outside the assumption for the requests already paced by the old floor (they can reach
  // the platform early, by the step: a 429 the limiter's penalty answers); from its first answer the bound is right.
  it("[platform][pacing] still never exceeds the limit when the trip grows for good mid-run (by up to 300 ms)", () => {
    fc.assert(
      fc.property(network, fc.integer({ min: 1, max: 30 }), fc.integer({ min: 0, max: 300 }), (net, after, ms) => {
        const step = { after: after * net.limit, ms };
        expect(peakPerSecond(run({ ...net, step }, 40 * net.limit, arrivalRule()))).toBeLessThanOrEqual(net.limit);
      }),
      { numRuns: 300, seed: 15 },
    );
  });

  it("[platform][pacing] reaches at least 0.95 of the bound with enough walkers in flight, at any round trip up to 300 ms", () => {
    fc.assert(
      fc.property(network, fc.constantFrom(10, 20), (net, limit) => {
        // Enough walkers to keep every slot busy through a round trip: what exports and the ledger run.
        const baseMs = net.baseMs / 2;
        const walkers = Math.ceil((limit * (2 * (baseMs + net.jitterMs) + net.processMs + 100)) / 1000) + 2;
        const arrivals = run({ ...net, baseMs, limit, walkers }, 40 * limit, arrivalRule()).sort((a, b) => a - b);
        // After the warm-up (the first answers pace by the answer alone), requests per second over the rest.
        const from = 3 * limit;
        const perSecond = ((arrivals.length - 1 - from) * 1000) / (arrivals.at(-1)! - arrivals[from]!);
        expect(perSecond / limit).toBeGreaterThanOrEqual(0.95);
      }),
      { numRuns: 100, seed: 15 },
    );
  });

  it("[platform][pacing] the checker catches a rule that ignores the inbound trip's jitter (one window from the send)", () => {
    const naive: FreeRule = ({ sentAt }) => sentAt + 1000;
    const net: Net = { limit: 10, walkers: 8, baseMs: 75, jitterMs: 20, thetaMs: 1.7e12, processMs: 1, seed: 7 };
    expect(peakPerSecond(run(net, 400, naive))).toBeGreaterThan(10);
    expect(peakPerSecond(run(net, 400, arrivalRule()))).toBeLessThanOrEqual(10);
  });

  it("[platform][pacing] with few answers, or none with a requestTime, a slot waits one window from the answer", () => {
    const e = new ArrivalEstimator(DEFAULT_ARRIVAL);
    expect(e.slotFreeAt({ requestTime: 5_000, answeredAt: 2_000, windowMs: 1000, safeWindowMs: 1040 })).toBe(3_040);
    for (let i = 0; i < DEFAULT_ARRIVAL.minSamples; i++) e.observe(i * 1000, i * 1000 + 50_000 + (i % 2) * 20);
    // lead = max of the samples (50,020) − 2 × jitter (40): free one window after arrival − lead, plus the margin.
    expect(e.lead()).toBe(49_980);
    expect(e.slotFreeAt({ requestTime: 60_050, answeredAt: 10_150, windowMs: 1000, safeWindowMs: 1040 })).toBe(
      60_050 - 49_980 + 1000 + DEFAULT_ARRIVAL.marginMs,
    );
    expect(e.slotFreeAt({ answeredAt: 10_150, windowMs: 1000, safeWindowMs: 1040 })).toBe(11_190);
  });

  it("[platform][pacing] a queueing spike in one sample does not move the bound (it is left out)", () => {
    const e = new ArrivalEstimator(DEFAULT_ARRIVAL);
    for (let i = 0; i < 10; i++) e.observe(0, 100 + (i % 3));
    e.observe(0, 900);
    expect(e.lead()).toBe(102 - 2 * DEFAULT_ARRIVAL.jitterMs);
  });

  it("[platform][pacing] a longer trip is followed after rebaseSamples answers in a row, not after the old samples age out", () => {
    const { jitterMs, rebaseSamples, keep } = DEFAULT_ARRIVAL;
    const e = new ArrivalEstimator(DEFAULT_ARRIVAL);
    // A trip of 75 ± 20 ms, then 150 ± 20 (the samples alternate over the whole band), one send each 100 ms.
    const band = (i: number) => (i % 2 ? jitterMs : -jitterMs);
    let t = 0;
    const at = (x: number) => e.observe((t += 100), t + x);
    for (let i = 0; i < keep; i++) at(75 + band(i));
    expect(e.lead()).toBe(55);
    for (let i = 0; i < rebaseSamples - 1; i++) at(150 + band(i));
    // One short of a rebase: these could still be a queueing spike, and the old floor holds.
    expect(e.lead()).toBe(55);
    at(150 + band(1));
    expect(e.lead()).toBe(130);
    // A shorter trip again: its first sample is the new floor at once.
    at(60);
    expect(e.lead()).toBeLessThanOrEqual(60);
  });

  it("[platform][pacing] after a pause longer than maxAgeMs the old floor is forgotten: a longer trip is followed from its first answers", () => {
    const { maxAgeMs, minSamples } = DEFAULT_ARRIVAL;
    const e = new ArrivalEstimator(DEFAULT_ARRIVAL);
    // 75 ms away, 40 answers; then nothing for longer than maxAgeMs; then 150 ms away.
    for (let i = 0; i < 40; i++) e.observe(i * 100, i * 100 + 75);
    expect(e.lead()).toBeLessThanOrEqual(75);
    const later = 4_000 + maxAgeMs;
    e.observe(later, later + 150);
    // Too few answers to pace by: one window from the answer, as at start-up (never earlier than safe).
    expect(e.lead()).toBeNull();
    for (let i = 1; i < minSamples; i++) e.observe(later + i * 100, later + i * 100 + 150);
    expect(e.lead()).toBe(150 - 2 * DEFAULT_ARRIVAL.jitterMs);
    // Within maxAgeMs nothing is forgotten: the same pause a second shorter keeps the old floor.
    const f = new ArrivalEstimator(DEFAULT_ARRIVAL);
    for (let i = 0; i < 40; i++) f.observe(i * 100, i * 100 + 75);
    f.observe(3_900 + maxAgeMs - 1_000, 3_900 + maxAgeMs - 1_000 + 150);
    expect(f.lead()).toBeLessThanOrEqual(75);
  });

  it("[platform][pacing] a queue draining is not a longer trip: answers late by a falling amount do not move the floor", () => {
    const e = new ArrivalEstimator(DEFAULT_ARRIVAL);
    // Loopback (e2e's busy test, then its metrics test): 0-5 ms trips, then sixteen reads let out at once came
    // back 186 down to 94 ms late, all sent within 22 ms, then the trip was 1 ms again.
    for (let i = 0; i < 40; i++) e.observe(i * 100, i * 100 + (i % 6));
    const floor = e.lead()!;
    for (let i = 0; i < 18; i++) e.observe(4_000 + i, 4_000 + i + 186 - i * 5);
    expect(e.lead()).toBe(floor);
    // Had the floor moved up to ~90, a read sent now would reach the platform 90 ms before its slot's window.
    expect(
      e.slotFreeAt({ requestTime: 5_000, answeredAt: 5_002, windowMs: 1000, safeWindowMs: 1040 }),
    ).toBeGreaterThanOrEqual(5_000 + 1000 - 5);
  });

  it("[platform][pacing] a steady run of late answers sent within one burst is not a longer trip either (it did not last a window)", () => {
    const { rebaseSamples, rebaseSpanMs } = DEFAULT_ARRIVAL;
    const e = new ArrivalEstimator(DEFAULT_ARRIVAL);
    for (let i = 0; i < 40; i++) e.observe(i * 100, i * 100 + 2);
    const floor = e.lead()!;
    const burst = Math.floor(rebaseSpanMs / (rebaseSamples * 2));
    for (let i = 0; i < rebaseSamples * 2; i++) e.observe(4_000 + i * burst, 4_000 + i * burst + 150);
    expect(e.lead()).toBe(floor);
    // The same trip, still there a window later, is the trip.
    e.observe(4_000 + rebaseSpanMs + 1, 4_000 + rebaseSpanMs + 1 + 150);
    expect(e.lead()).toBeGreaterThan(100);
  });
});
