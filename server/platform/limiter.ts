import "server-only";
import { ArrivalEstimator, DEFAULT_ARRIVAL, type ArrivalOptions } from "./arrival";
import { RateBudgetExceededError, RateBudgetUnavailableError } from "./errors";
import type { LimiterOptions, Priority, Release, SlotAnswer, SlotHold, SlotRecorder } from "./limiter-types";
import { memorySlotStore, type SlotStore } from "./slot-store";
import { staffWalking } from "./staff-activity";

export type { LimiterOptions, Priority, Release, SlotAnswer } from "./limiter-types";

/** The platform's rate window. */
const PLATFORM_WINDOW_MS = 1000;

const PENALTY_MAX_MS = 1_000;

const IN_FLIGHT_POLL_MS = 50;

type Scope = {
  tail: Promise<void>;
  waiting: number;
  next: number;
  penaltyMs: number;
  /** Staff calls queued: background calls (the ledger's sync) wait until there are none. */
  staffWaiting: number;
  /** A background call is in the queue: the others wait outside it, so staff queue behind one at most. */
  backgroundQueued: boolean;
  /** Background calls waiting for the staff queue to empty or the background place to free. */
  yielding: (() => void)[];
  /** When a background call last took a slot (see `acquireBehindStaff`). */
  backgroundAt: number;
  /** Background calls waiting outside the queue, in the order they came: the first goes next. */
  backgroundLine: object[];
};

/**
 * The platform counts requests in a sliding one-second window, by when they reach it. A fixed-window
 * counter lets 2×limit through across a window edge, so the budget is kept as `limit` slots, each a key of
 * a SlotStore worth one request. A slot is taken when a request is sent and held while it is in flight
 * (`inFlightMs`: the client's timeout plus a window, so a slow answer does not free it early). When the
 * answer is in, `release` holds the slot until the next request through it cannot reach the platform within
 * one window of this one: by the platform's `requestTime` and the arrival rule of `arrival.ts` once enough
 * answers are known, and never later than one window (plus `safetyMs`) from the answer, which needs no
 * assumption at all, since a request reaches the platform before its answer leaves it. Either way no window
 * of the platform's ever sees more than `limit` requests.
 *
 * A request whose answer never came (a timeout) may still reach the platform later: its slot is held for
 * `extraHoldMs` more (the caller passes its timeout). A 429 from the platform means the rule's assumption
 * did not hold: the scope's `penaltyMs` grows (doubling) and every slot of it is then held that much longer,
 * shrinking again with each answer that was not refused; the caller retries and the work goes on.
 *
 * The store is in memory for one instance, Redis when several share one budget (slot-store.ts). A store
 * failure fails closed (RateBudgetUnavailableError): nothing is sent without a slot.
 */
export class SlidingWindowLimiter {
  private readonly scopes = new Map<string, Scope>();
  private readonly store: SlotStore;
  /** The assumption-free window: from an answer, the next request through its slot arrives this much later. */
  readonly windowMs: number;
  private readonly platformWindowMs: number;
  private readonly maxQueue: number;
  private readonly inFlightMs: number;
  /**
   * One per operation, shared by its scopes (keys): the trip may differ by operation. One shared by every operation
   * took its floor from the nearest: with E1 150 ms further than the sync's other operations, every E1 slot was held
   * the difference longer than its own trip needed (an export beside the sync reached 0.90 of the bound, not 0.96).
   */
  private readonly arrivals = new Map<string, ArrivalEstimator>();
  private readonly arrivalOptions: ArrivalOptions | null;
  private readonly onQueue: (scope: string, depth: number) => void;
  private readonly trace: SlotRecorder | undefined;
  /** Background calls granted and not yet answered, per operation, and the staff calls waiting for them to end. */
  private readonly backgroundInFlight = new Map<string, { n: number; ended: (() => void)[] }>();

  constructor(opts: LimiterOptions = {}) {
    this.onQueue = opts.onQueue ?? (() => undefined);
    this.trace = opts.trace;
    this.platformWindowMs = opts.platformWindowMs ?? PLATFORM_WINDOW_MS;
    this.windowMs = this.platformWindowMs + (opts.safetyMs ?? 40);
    this.maxQueue = opts.maxQueue ?? 500;
    this.inFlightMs = Math.max(opts.inFlightMs ?? 0, 2 * this.windowMs);
    this.store = opts.store ?? memorySlotStore();
    this.arrivalOptions = opts.arrival === false ? null : (opts.arrival ?? DEFAULT_ARRIVAL);
  }

  /**
   * Waits, in FIFO order per scope, until a request may be sent. Rejects with RateBudgetExceededError
   * if the queue is full or the slot would come after `deadlineAt` (ms epoch); never drops silently.
   */
  async acquire(
    scopeKey: string,
    limit: number,
    deadlineAt: number,
    operationId: string,
    priority: Priority = "staff",
    /** Background calls only: stop waiting (rejects with its reason) when this aborts. */
    signal?: AbortSignal,
  ): Promise<Release> {
    const scope = this.scope(scopeKey);
    if (priority === "background")
      return this.acquireBehindStaff(scope, scopeKey, limit, deadlineAt, operationId, signal);
    scope.staffWaiting++;
    try {
      if (staffWalking(operationId)) await this.backgroundSettled(operationId, deadlineAt);
      return (await this.acquireInTurn(scope, scopeKey, limit, deadlineAt, operationId, "staff"))!;
    } finally {
      scope.staffWaiting--;
      this.wakeYielding(scope);
    }
  }

  /**
   * Background work (the ledger's sync) joins the queue only while no staff call waits, and one at a time,
   * so a staff call queues behind one background call at most: a page never waits behind a backfill. Nor
   * while a staff walk (an export) of the operation runs in this process: the sync's budget stops granting
   * calls then, but calls granted just before would otherwise take every slot that frees while the walk's
   * own requests are in flight (measured: 11 such calls inside one 34-second export, a second of its rate).
   * Time paused for a walk does not count against the call's deadline: the walk, not the platform, holds it.
   * A call already queued for a slot when the walk is announced gives its place up and waits outside again; and
   * the walk's own calls wait (a round trip, a window at most) for the background calls already in flight to be
   * answered (`backgroundSettled`): from the walk's first request no sync call of the operation is in flight or
   * granted in this process.
   *
   * Background calls take slots at most one a `window / limit` apart. A sync that fills every slot as it frees
   * keeps the shape of its first burst: ten requests within a few ms, then nothing for a second, for as long as
   * it runs. A staff call or walk arriving in the silence then waits for the burst's slots to free together
   * (measured: an export's first request reached the platform 360-450 ms after it began). Spaced, a slot frees
   * every tenth of a window, and the sync's rate is the same. Two grants are never less than 19/20 of a step
   * apart.
   */
  private async acquireBehindStaff(
    scope: Scope,
    scopeKey: string,
    limit: number,
    deadlineAt: number,
    operationId: string,
    signal: AbortSignal | undefined,
  ): Promise<Release> {
    const ticket = {};
    const step = this.platformWindowMs / limit;
    scope.backgroundLine.push(ticket);
    try {
      for (;;) {
        const outside = await this.waitOutsideQueue(scope, ticket, step, deadlineAt, operationId, signal);
        deadlineAt = outside.deadlineAt;
        scope.backgroundQueued = true;
        try {
          const release = await this.acquireInTurn(scope, scopeKey, limit, deadlineAt, operationId, "background");
          if (release) {
            // On the spacing's own beat, up to a twentieth of a step: a grant a timer or a busy event loop let
            // out late does not push every later one back (that drift cost the sync 9.3 of 10 calls/s: 9.8 now).
            scope.backgroundAt = Math.max(outside.spacedAt, Date.now() - step / 20);
            return release;
          }
        } finally {
          scope.backgroundQueued = false;
        }
        // A staff walk of the operation began while this call waited in the queue for a slot: it gave its place up
        // (the walk's requests take the slot) and waits outside again, for the walk to end.
        this.wakeYielding(scope);
      }
    } finally {
      // Out of the line and out of the queue: the next in line may go (woken once, not while still first here).
      scope.backgroundLine.splice(scope.backgroundLine.indexOf(ticket), 1);
      this.wakeYielding(scope);
    }
  }

  /**
   * A background call waits outside the queue until it is first in line, no staff call waits, no other background
   * call is queued, no staff walk of its operation runs, and a step has passed since the last background grant.
   * Answers the deadline, moved on by the time paused for a walk.
   */
  private async waitOutsideQueue(
    scope: Scope,
    ticket: object,
    step: number,
    deadlineAt: number,
    operationId: string,
    signal: AbortSignal | undefined,
  ): Promise<{ spacedAt: number; deadlineAt: number }> {
    for (;;) {
      signal?.throwIfAborted();
      const walking = staffWalking(operationId);
      const spacedAt = scope.backgroundAt + step;
      const pausedAt = Date.now();
      const first = scope.backgroundLine[0] === ticket;
      if (first && !walking && scope.staffWaiting === 0 && !scope.backgroundQueued && pausedAt >= spacedAt)
        return { spacedAt, deadlineAt };
      const left = deadlineAt - pausedAt;
      if (!walking && left <= 0) throw new RateBudgetExceededError(operationId, this.windowMs, "deadline");
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(t);
          signal?.removeEventListener("abort", done);
          resolve();
        };
        // Only the first in line, with nothing else in its way, waits for the spacing alone; the others wait to be
        // woken (a poll at most), never a busy loop.
        const onlySpacing = first && !walking && scope.staffWaiting === 0 && !scope.backgroundQueued;
        const t = setTimeout(
          done,
          walking
            ? IN_FLIGHT_POLL_MS
            : onlySpacing
              ? Math.max(1, spacedAt - pausedAt)
              : Math.min(left, IN_FLIGHT_POLL_MS * 4),
        );
        signal?.addEventListener("abort", done, { once: true });
        scope.yielding.push(done);
      });
      if (walking) deadlineAt += Date.now() - pausedAt;
    }
  }

  private wakeYielding(scope: Scope) {
    if (scope.staffWaiting > 0 || scope.backgroundQueued) return;
    const woken = scope.yielding.splice(0);
    for (const wake of woken) wake();
  }

  /** A slot in FIFO order; null when a background call gave its place up to a staff walk that began meanwhile. */
  private async acquireInTurn(
    scope: Scope,
    scopeKey: string,
    limit: number,
    deadlineAt: number,
    operationId: string,
    priority: Priority,
  ): Promise<Release | null> {
    if (scope.waiting >= this.maxQueue) throw new RateBudgetExceededError(operationId, this.windowMs, "queue-full");
    // Those queued ahead take their slots `limit` to a window: when that already runs past the deadline the
    // answer is "busy" now, not after waiting for nothing (a 504 then
    // would blame the platform, which never saw the request).
    const queuedMs = Math.floor(scope.waiting / limit) * this.windowMs;
    if (Date.now() + queuedMs > deadlineAt) throw new RateBudgetExceededError(operationId, queuedMs, "busy");
    this.onQueue(scopeKey, ++scope.waiting);
    const prev = scope.tail;
    let release!: () => void;
    scope.tail = new Promise<void>((r) => (release = r));
    try {
      await prev;
      if (Date.now() > deadlineAt) throw new RateBudgetExceededError(operationId, this.windowMs, "deadline");
      const slot = await this.takeSlot(scopeKey, scope, limit, deadlineAt, operationId, priority);
      if (slot === null) return null;
      const slotKey = `${scopeKey}:${limit}:${slot}`;
      const hold: SlotHold | undefined = this.trace?.grant({ scope: scopeKey, slot, operation: operationId, priority });
      if (priority === "background") this.backgroundStarted(operationId);
      let released = false;
      return async (answer: SlotAnswer = {}) => {
        if (released) return;
        released = true;
        const answeredAt = Date.now();
        if (priority === "background") this.backgroundEnded(operationId);
        if (answer.throttled) scope.penaltyMs = Math.min(PENALTY_MAX_MS, scope.penaltyMs * 2 + 25);
        else scope.penaltyMs = Math.max(0, scope.penaltyMs - 1);
        const arrival = this.arrivalOf(operationId);
        if (answer.sentAt !== undefined && answer.requestTime !== undefined)
          arrival?.observe(answer.sentAt, answer.requestTime);
        const extra = (answer.extraHoldMs ?? 0) + scope.penaltyMs;
        const freeAt = arrival
          ? arrival.slotFreeAt({
              requestTime: answer.requestTime,
              answeredAt,
              windowMs: this.platformWindowMs,
              safeWindowMs: this.windowMs,
            })
          : answeredAt + this.windowMs;
        if (hold) {
          Object.assign(hold, { sentAt: answer.sentAt, answeredAt, requestTime: answer.requestTime });
          Object.assign(hold, { freeAt: freeAt + extra, throttled: answer.throttled });
        }
        try {
          await this.store.hold(slotKey, freeAt + extra - Date.now());
        } catch {
          // The in-flight hold (two windows) still covers the slot; the next acquire will report the store.
        }
      };
    } finally {
      this.onQueue(scopeKey, --scope.waiting);
      release();
    }
  }

  /** The slot taken; null for a background call once a staff walk of its operation has begun (none taken). */
  private async takeSlot(
    scopeKey: string,
    scope: Scope,
    limit: number,
    deadlineAt: number,
    operationId: string,
    priority: Priority,
  ): Promise<number | null> {
    for (;;) {
      if (priority === "background" && staffWalking(operationId)) return null;
      let soonest = Number.POSITIVE_INFINITY;
      for (let i = 0; i < limit; i++) {
        const slot = (scope.next + i) % limit;
        const slotKey = `${scopeKey}:${limit}:${slot}`;
        let busyMs: number;
        try {
          busyMs = await this.store.take(slotKey, this.inFlightMs);
        } catch (e) {
          throw new RateBudgetUnavailableError(operationId, e instanceof Error ? e.message : String(e));
        }
        if (busyMs === 0) {
          // The walk was announced while the store answered: the slot goes back, never used.
          if (priority === "background" && staffWalking(operationId)) {
            await this.store.hold(slotKey, 0).catch(() => undefined);
            return null;
          }
          scope.next = (slot + 1) % limit;
          return slot;
        }
        soonest = Math.min(soonest, busyMs);
      }
      // A slot whose request is still in flight reports the whole in-flight hold, though its answer (and
      // so its one-window hold) may come any moment: look again soon rather than sleep through it.
      const wait = Math.max(1, Math.min(soonest, IN_FLIGHT_POLL_MS));
      if (Date.now() + wait > deadlineAt) throw new RateBudgetExceededError(operationId, wait, "deadline");
      await new Promise((r) => setTimeout(r, wait));
    }
  }

  /** The operation's arrival rule (arrival.ts); null when pacing by answers only. */
  private arrivalOf(operation: string): ArrivalEstimator | null {
    if (!this.arrivalOptions) return null;
    let a = this.arrivals.get(operation);
    if (!a) this.arrivals.set(operation, (a = new ArrivalEstimator(this.arrivalOptions)));
    return a;
  }

  private backgroundStarted(operation: string): void {
    const b = this.backgroundInFlight.get(operation) ?? { n: 0, ended: [] };
    b.n++;
    this.backgroundInFlight.set(operation, b);
  }

  private backgroundEnded(operation: string): void {
    const b = this.backgroundInFlight.get(operation);
    if (!b || --b.n > 0) return;
    this.backgroundInFlight.delete(operation);
    for (const wake of b.ended.splice(0)) wake();
  }

  /**
   * A staff call of an operation being walked waits until no background call of it is in flight (granted, not
   * yet answered), in this process: from the walk's first request on, the operation's slots are the walk's alone.
   * Those calls were granted before the walk was announced and their requests already left; their answers come
   * within a round trip. Never longer than one platform window, nor past the call's deadline: a background request
   * that hangs (it holds its slot to its timeout) does not hold the export with it.
   */
  private async backgroundSettled(operation: string, deadlineAt: number): Promise<void> {
    const b = this.backgroundInFlight.get(operation);
    if (!b) return;
    const ms = Math.min(this.platformWindowMs, deadlineAt - Date.now());
    if (ms <= 0) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(t);
        resolve();
      };
      const t = setTimeout(done, ms);
      b.ended.push(done);
    });
  }

  private scope(key: string): Scope {
    let s = this.scopes.get(key);
    if (!s) {
      s = {
        tail: Promise.resolve(),
        waiting: 0,
        next: 0,
        penaltyMs: 0,
        staffWaiting: 0,
        backgroundQueued: false,
        yielding: [],
        backgroundAt: -Infinity,
        backgroundLine: [],
      };
      this.scopes.set(key, s);
    }
    return s;
  }
}
