import "server-only";
import type { OperationId } from "@/lib/platform/catalog";

export type OperationStats = {
  /** Every request that reached the operation, whatever its outcome. */
  requests: number;
  /** Requests let through by the rate limiter (with limits off: all that passed authentication). */
  accepted: number;
  http429: number;
  /** Answers by code ("00000", "40009", "429", ...). */
  codes: Record<string, number>;
  /** Most accepted requests seen in any sliding one-second window of one uid or IP. */
  peakPerSecond: number;
  /** Times (ms) of accepted requests, oldest first, capped to the most recent MAX_TIMES. */
  acceptedTimes: number[];
};

export type SimStats = {
  since: number;
  requests: number;
  http429: number;
  faults: number;
  operations: Partial<Record<OperationId, OperationStats>>;
};

const MAX_TIMES = 100_000;

type OpCounters = {
  requests: number;
  accepted: number;
  http429: number;
  codes: Record<string, number>;
  times: Map<string, number[]>;
};

/** Counters a benchmark or a multi-instance test reads to check that clients kept to the limits. */
export class StatsRecorder {
  private since = Date.now();
  private requests = 0;
  private http429 = 0;
  private faults = 0;
  private ops = new Map<OperationId, OpCounters>();

  private op(id: OperationId): OpCounters {
    let c = this.ops.get(id);
    if (!c) this.ops.set(id, (c = { requests: 0, accepted: 0, http429: 0, codes: {}, times: new Map() }));
    return c;
  }

  request(id: OperationId | null): void {
    this.requests++;
    if (id) this.op(id).requests++;
  }

  accepted(id: OperationId, scopeKey: string, nowMs: number): void {
    const c = this.op(id);
    c.accepted++;
    let t = c.times.get(scopeKey);
    if (!t) c.times.set(scopeKey, (t = []));
    t.push(nowMs);
    if (t.length > MAX_TIMES) t.splice(0, t.length - MAX_TIMES);
  }

  answered(id: OperationId | null, code: string, httpStatus: number): void {
    if (httpStatus === 429) this.http429++;
    if (!id) return;
    const c = this.op(id);
    c.codes[code] = (c.codes[code] ?? 0) + 1;
    if (httpStatus === 429) c.http429++;
  }

  fault(): void {
    this.faults++;
  }

  reset(): void {
    this.since = Date.now();
    this.requests = 0;
    this.http429 = 0;
    this.faults = 0;
    this.ops = new Map();
  }

  snapshot(): SimStats {
    const operations: SimStats["operations"] = {};
    for (const [id, c] of this.ops) {
      let peak = 0;
      const all: number[] = [];
      for (const times of c.times.values()) {
        peak = Math.max(peak, peakInWindow(times, 1000));
        all.push(...times);
      }
      operations[id] = {
        requests: c.requests,
        accepted: c.accepted,
        http429: c.http429,
        codes: { ...c.codes },
        peakPerSecond: peak,
        acceptedTimes: all.sort((a, b) => a - b),
      };
    }
    return { since: this.since, requests: this.requests, http429: this.http429, faults: this.faults, operations };
  }
}

/** Largest number of times within any window of `windowMs` (a time t counts for (t - windowMs, t]). */
export function peakInWindow(sortedTimes: readonly number[], windowMs: number): number {
  let peak = 0;
  let lo = 0;
  for (let hi = 0; hi < sortedTimes.length; hi++) {
    while ((sortedTimes[lo] as number) <= (sortedTimes[hi] as number) - windowMs) lo++;
    peak = Math.max(peak, hi - lo + 1);
  }
  return peak;
}
