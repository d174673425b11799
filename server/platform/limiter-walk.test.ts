import { describe, expect, it } from "vitest";
import { SlidingWindowLimiter } from "./limiter";
import { SlotTrace, summarizeWalk } from "./slot-trace";
import { staffWalkStarted } from "./staff-activity";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("[platform][limiter] a staff walk has its operation's slots to itself", () => {
  it("[ledger][priority] a background call already queued for a slot when a walk begins gives its place up: no background call is granted until the walk ends, and the walk never waits behind one", async () => {
    const limiter = new SlidingWindowLimiter({ safetyMs: 0, arrival: false, platformWindowMs: 300 });
    const op = "walk-queued-test";
    const scope = "uid:main:walk-queued";
    const order: string[] = [];
    // A page's call holds the one slot; the sync's call, with no staff call waiting, is in the queue for it.
    const page = await limiter.acquire(scope, 1, Date.now() + 10_000, op);
    const sync = limiter.acquire(scope, 1, Date.now() + 10_000, op, "background").then((release) => {
      order.push("sync");
      return release;
    });
    await sleep(30);
    const ended = await staffWalkStarted(op, undefined);
    await page();
    const walkCall = await limiter.acquire(scope, 1, Date.now() + 10_000, op);
    order.push("walk");
    await walkCall();
    // The slot is free again and no staff call waits, but the walk goes on: still none of the sync's.
    await sleep(500);
    expect(order).toEqual(["walk"]);
    await ended();
    await (
      await sync
    )();
    expect(order).toEqual(["walk", "sync"]);
  }, 15_000);

  it("[ledger][priority] the walk's first call waits for the background calls in flight when it began to be answered, and no longer", async () => {
    const limiter = new SlidingWindowLimiter({ safetyMs: 0, arrival: false, platformWindowMs: 300 });
    const op = "walk-in-flight-test";
    const scope = "uid:main:walk-in-flight";
    // The sync's request left before the export began; two slots of three are free.
    const inFlight = await limiter.acquire(scope, 3, Date.now() + 10_000, op, "background");
    const ended = await staffWalkStarted(op, undefined);
    let grantedAt = 0;
    const walkCall = limiter.acquire(scope, 3, Date.now() + 10_000, op).then((release) => {
      grantedAt = performance.now();
      return release;
    });
    await sleep(150);
    expect(grantedAt).toBe(0);
    const answeredAt = performance.now();
    await inFlight();
    await (
      await walkCall
    )();
    expect(grantedAt).toBeGreaterThanOrEqual(answeredAt);
    expect(grantedAt - answeredAt).toBeLessThan(100);
    await ended();
  }, 15_000);

  it("[ledger][priority] a background request that hangs holds the walk one window at most, and a call of another operation not at all", async () => {
    const limiter = new SlidingWindowLimiter({ safetyMs: 0, arrival: false, platformWindowMs: 300 });
    const op = "walk-hung-test";
    const hung = await limiter.acquire("uid:main:walk-hung", 3, Date.now() + 10_000, op, "background");
    const ended = await staffWalkStarted(op, undefined);
    const other = performance.now();
    await (
      await limiter.acquire("uid:main:other", 3, Date.now() + 10_000, "another-op")
    )();
    expect(performance.now() - other).toBeLessThan(100);
    const t0 = performance.now();
    await (
      await limiter.acquire("uid:main:walk-hung", 3, Date.now() + 10_000, op)
    )();
    const waited = performance.now() - t0;
    expect(waited).toBeGreaterThanOrEqual(290);
    expect(waited).toBeLessThan(1_000);
    await ended();
    await hung();
  }, 15_000);

  it("[ledger] the trace says who held each slot, from when to when, and what a walk saw of the sync", async () => {
    const trace = new SlotTrace();
    const limiter = new SlidingWindowLimiter({ safetyMs: 0, arrival: false, platformWindowMs: 300, trace });
    const op = "walk-trace-test";
    const scope = "uid:main:walk-trace";
    const sync = await limiter.acquire(scope, 2, Date.now() + 10_000, op, "background");
    const from = Date.now();
    const ended = await staffWalkStarted(op, undefined);
    setTimeout(() => void sync({ sentAt: from - 5 }), 50);
    const walkCall = await limiter.acquire(scope, 2, Date.now() + 10_000, op);
    await walkCall({ sentAt: Date.now() });
    await ended();
    const to = Date.now();
    expect(trace.holds.map((h) => [h.priority, h.slot])).toEqual([
      ["background", 0],
      ["staff", 1],
    ]);
    const [b, s] = trace.holds;
    expect(b!.answeredAt! - b!.grantedAt).toBeGreaterThanOrEqual(45);
    expect(b!.freeAt! - b!.answeredAt!).toBeGreaterThanOrEqual(295);
    expect(s!.grantedAt).toBeGreaterThanOrEqual(b!.answeredAt!);
    const summary = summarizeWalk(trace.holds, { operation: op, limit: 2, from, to });
    expect(summary).toMatchObject({ staffGrants: 1, syncInFlightAtStart: 1, syncHeldAtStart: 1, syncGrantedInWalk: 0 });
    expect(summary.firstStaffGrantMs).toBeGreaterThanOrEqual(45);
    expect(summary.syncSlotS).toBeGreaterThan(0);
  }, 15_000);
});
