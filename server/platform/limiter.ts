import "server-only";
import { RateLimiterMemory, type RateLimiterAbstract, RateLimiterRes } from "rate-limiter-flexible";
import { RateBudgetExceededError, RateBudgetUnavailableError } from "./errors";

/**
 * The platform counts requests in a sliding one-second window, by when they reach it. A fixed-window
 * counter lets 2×limit through across a window edge, so the budget is kept as `limit` slots, each a
 * rate-limiter-flexible key worth one request. A slot is taken when a request is sent and, once its
 * answer is in, held for another `windowMs` from that moment (`release`). A request reaches the
 * platform before its answer leaves it, so the next request through the same slot reaches it at least
 * `windowMs` later, however long the first one queued or waited on the platform's side: no window of
 * that length ever sees more than `limit` requests. `safetyMs` widens the window for clock jitter.
 *
 * While a request is in flight its slot is held (`consume`) for `inFlightMs` (the client's timeout plus a
 * window), so a slow answer does not free it early; the answer then sets the hold to one window
 * (`block`). A request whose answer never came (a timeout) may still reach the platform later, so
 * its slot is held for `extraHoldMs` more (the caller passes its timeout).
 *
 * The store is rate-limiter-flexible's: in memory for one instance, `RateLimiterRedis` when several share
 * one budget (`redisLimiterOptions`). Redis expiries are whole seconds in that store, so there the window
 * is exactly 1 s from the answer (`safetyMs: 0`); the margin is then the request's own round trip, since
 * the platform saw it before its answer left. A store failure fails closed (RateBudgetUnavailableError):
 * nothing is sent without a slot.
 */
export type LimiterOptions = {
  /** Builds the store whose consume holds a slot for `durationSec`. Memory by default; Redis for scale-out. */
  storeFactory?: (durationSec: number) => RateLimiterAbstract;
  safetyMs?: number;
  maxQueue?: number;
  /** How long a slot stays taken while its request is in flight (default two windows). */
  inFlightMs?: number;
};

const IN_FLIGHT_POLL_MS = 50;

type Scope = { tail: Promise<void>; waiting: number; next: number };

export class SlidingWindowLimiter {
  private readonly scopes = new Map<string, Scope>();
  private readonly store: RateLimiterAbstract;
  readonly windowMs: number;
  private readonly maxQueue: number;

  constructor(opts: LimiterOptions = {}) {
    this.windowMs = 1000 + (opts.safetyMs ?? 40);
    this.maxQueue = opts.maxQueue ?? 500;
    const inFlightSec = Math.max(opts.inFlightMs ?? 0, 2 * this.windowMs) / 1000;
    this.store = opts.storeFactory?.(inFlightSec) ?? new RateLimiterMemory({ points: 1, duration: inFlightSec, keyPrefix: "bd-rl" });
  }

  /**
   * Waits, in FIFO order per scope, until a request may be sent. Rejects with RateBudgetExceededError
   * if the queue is full or the slot would come after `deadlineAt` (ms epoch); never drops silently.
   */
  async acquire(scopeKey: string, limit: number, deadlineAt: number, operationId: string): Promise<(extraHoldMs?: number) => Promise<void>> {
    const scope = this.scope(scopeKey);
    if (scope.waiting >= this.maxQueue) throw new RateBudgetExceededError(operationId, this.windowMs, "queue-full");
    // Those queued ahead take their slots `limit` to a window: when that already runs past the deadline the
    // answer is "busy" now, not after waiting for nothing (issue 15: a queued read used to end as a 504 that
    // blamed the platform, which had never seen it).
    const queuedMs = Math.floor(scope.waiting / limit) * this.windowMs;
    if (Date.now() + queuedMs > deadlineAt) throw new RateBudgetExceededError(operationId, queuedMs, "busy");
    scope.waiting++;
    const prev = scope.tail;
    let release!: () => void;
    scope.tail = new Promise<void>((r) => (release = r));
    try {
      await prev;
      if (Date.now() > deadlineAt) throw new RateBudgetExceededError(operationId, this.windowMs, "deadline");
      const slotKey = await this.takeSlot(scopeKey, scope, limit, deadlineAt, operationId);
      let released = false;
      return async (extraHoldMs = 0) => {
        if (released) return;
        released = true;
        try {
          await this.store.block(slotKey, (this.windowMs + extraHoldMs) / 1000);
        } catch {
          // The in-flight hold (two windows) still covers the slot; the next acquire will report the store.
        }
      };
    } finally {
      scope.waiting--;
      release();
    }
  }

  private async takeSlot(scopeKey: string, scope: Scope, limit: number, deadlineAt: number, operationId: string): Promise<string> {
    for (;;) {
      let soonest = Number.POSITIVE_INFINITY;
      for (let i = 0; i < limit; i++) {
        const slot = (scope.next + i) % limit;
        const slotKey = `${scopeKey}:${limit}:${slot}`;
        try {
          await this.store.consume(slotKey, 1);
          scope.next = (slot + 1) % limit;
          return slotKey;
        } catch (e) {
          if (!(e instanceof RateLimiterRes)) throw new RateBudgetUnavailableError(operationId, e instanceof Error ? e.message : String(e));
          soonest = Math.min(soonest, e.msBeforeNext);
        }
      }
      // A slot whose request is still in flight reports the whole in-flight hold, though its answer (and
      // so its one-window hold) may come any moment: look again soon rather than sleep through it.
      const wait = Math.max(1, Math.min(soonest, IN_FLIGHT_POLL_MS));
      if (Date.now() + wait > deadlineAt) throw new RateBudgetExceededError(operationId, wait, "deadline");
      await new Promise((r) => setTimeout(r, wait));
    }
  }

  private scope(key: string): Scope {
    let s = this.scopes.get(key);
    if (!s) {
      s = { tail: Promise.resolve(), waiting: 0, next: 0 };
      this.scopes.set(key, s);
    }
    return s;
  }
}
