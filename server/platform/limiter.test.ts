import { describe, expect, it } from "vitest";
import { RateBudgetExceededError } from "./errors";
import { SlidingWindowLimiter } from "./limiter";
import { SlotTrace } from "./slot-trace";
import { staffWalkStarted } from "./staff-activity";

function maxInWindow(times: number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (sorted[i]! - sorted[j]! >= windowMs) j++;
    best = Math.max(best, i - j + 1);
  }
  return best;
}

describe("[platform][limiter]", () => {
  it("never lets more than the limit through in any one-second window, and serves in order", async () => {
    const limiter = new SlidingWindowLimiter({ safetyMs: 20 });
    const times: number[] = [];
    const order: number[] = [];
    const deadline = Date.now() + 10_000;
    await Promise.all(
      Array.from({ length: 23 }, (_, i) =>
        limiter.acquire("uid:main:test", 5, deadline, "test").then(() => {
          times.push(performance.now());
          order.push(i);
        }),
      ),
    );
    expect(order).toEqual(Array.from({ length: 23 }, (_, i) => i));
    expect(maxInWindow(times, 1000)).toBe(5);
    // 23 calls at 5 per window need four full windows after the first burst.
    expect(times.at(-1)! - times[0]!).toBeGreaterThanOrEqual(4 * 1000);
  }, 15_000);

  it("[ledger][priority] staff calls go ahead of queued background calls (the sync): a staff call waits behind one at most", async () => {
    const limiter = new SlidingWindowLimiter({ safetyMs: 0, arrival: false });
    const deadline = Date.now() + 20_000;
    const order: string[] = [];
    const take = (who: string, priority: "staff" | "background") =>
      limiter.acquire("uid:main:prio", 2, deadline, "op", priority).then(async (release) => {
        order.push(who);
        await release();
      });
    // Both slots busy for a window; four background calls queue, then two staff calls come.
    const first = await Promise.all([
      limiter.acquire("uid:main:prio", 2, deadline, "op"),
      limiter.acquire("uid:main:prio", 2, deadline, "op"),
    ]);
    const background = ["b1", "b2", "b3", "b4"].map((b) => take(b, "background"));
    await new Promise((r) => setTimeout(r, 50));
    const staff = ["s1", "s2"].map((s) => take(s, "staff"));
    await Promise.all(first.map((release) => release()));
    await Promise.all([...background, ...staff]);
    // b1 was already in the queue when the staff came; every other background call went after them.
    expect(order).toEqual(["b1", "s1", "s2", "b2", "b3", "b4"]);
  }, 15_000);

  it("[ledger][priority] a background call that cannot get ahead of staff before its deadline says so, as any queued call does", async () => {
    const limiter = new SlidingWindowLimiter({ safetyMs: 0, arrival: false });
    const held = await limiter.acquire("uid:main:starve", 1, Date.now() + 20_000, "op");
    const staff = limiter.acquire("uid:main:starve", 1, Date.now() + 20_000, "op");
    const late = limiter.acquire("uid:main:starve", 1, Date.now() + 300, "op", "background").catch((e: unknown) => e);
    expect(await late).toBeInstanceOf(RateBudgetExceededError);
    await held();
    await (
      await staff
    )();
  }, 15_000);

  it("[ledger][priority] a background call granted before a staff walk began waits for the walk to end, past its deadline, and stops when its caller aborts", async () => {
    const limiter = new SlidingWindowLimiter({ safetyMs: 0, arrival: false });
    const op = "walk-pause-test";
    const order: string[] = [];
    // The sync's call, granted a point by its budget, is on its way to the limiter when the export starts.
    const ended = await staffWalkStarted(op, undefined);
    const background = limiter.acquire("uid:main:walk", 3, Date.now() + 200, op, "background").then(async (release) => {
      order.push("sync");
      await release();
    });
    const aborted = new AbortController();
    const stopped = limiter
      .acquire("uid:main:walk", 3, Date.now() + 20_000, op, "background", aborted.signal)
      .catch((e: unknown) => e);
    // Free slots and no staff call waiting (the walk's requests are in flight): still the walk's.
    await new Promise((r) => setTimeout(r, 400));
    expect(order).toEqual([]);
    const walkCall = await limiter.acquire("uid:main:walk", 3, Date.now() + 1_000, op);
    order.push("export");
    await walkCall();
    aborted.abort(new Error("the ledger stops"));
    expect(await stopped).toEqual(new Error("the ledger stops"));
    // Its 200 ms deadline has long passed, but the walk held it, not the platform's budget: it goes on.
    await ended();
    await background;
    expect(order).toEqual(["export", "sync"]);
  }, 15_000);

  it("[ledger][priority] background calls take free slots a tenth of a window apart, in the order they came, so a sync keeps no burst for staff to wait behind", async () => {
    const limiter = new SlidingWindowLimiter({ safetyMs: 0, arrival: false, platformWindowMs: 500 });
    const deadline = Date.now() + 10_000;
    const taken: { who: number; at: number }[] = [];
    await Promise.all(
      Array.from({ length: 5 }, (_, who) =>
        limiter.acquire("uid:main:spaced", 5, deadline, "op", "background").then(() => {
          taken.push({ who, at: performance.now() });
        }),
      ),
    );
    expect(taken.map((t) => t.who)).toEqual([0, 1, 2, 3, 4]);
    // Five slots free at once, yet one each 500 / 5 ms (less what a busy event loop may shift a callback by).
    for (let i = 1; i < taken.length; i++) expect(taken[i]!.at - taken[i - 1]!.at).toBeGreaterThanOrEqual(90);
  }, 15_000);

  it("a request whose answer never came holds its slot for the extra time its caller names (it may still arrive)", async () => {
    const limiter = new SlidingWindowLimiter({ safetyMs: 0 });
    const release = await limiter.acquire("lost", 1, Date.now() + 10_000, "op");
    const releasedAt = performance.now();
    await release({ extraHoldMs: 700 });
    await limiter.acquire("lost", 1, Date.now() + 10_000, "op");
    expect(performance.now() - releasedAt).toBeGreaterThanOrEqual(1_000 + 700 - 5);
  }, 10_000);

  it("a waiter takes the slot one window after the answer, not when the in-flight hold would have ended", async () => {
    const limiter = new SlidingWindowLimiter({ safetyMs: 0, inFlightMs: 10_000 });
    const release = await limiter.acquire("quick", 1, Date.now() + 20_000, "op");
    const next = limiter.acquire("quick", 1, Date.now() + 20_000, "op");
    await new Promise((r) => setTimeout(r, 200));
    const answeredAt = performance.now();
    await release();
    await next;
    const waited = performance.now() - answeredAt;
    expect(waited).toBeGreaterThanOrEqual(1_000 - 5);
    expect(waited).toBeLessThan(1_500);
  }, 15_000);

  it("keeps a slot taken for inFlightMs while its request has no answer", async () => {
    const limiter = new SlidingWindowLimiter({ safetyMs: 0, inFlightMs: 3_000 });
    const takenAt = performance.now();
    await limiter.acquire("hung", 1, Date.now() + 10_000, "op"); // never released: a request still in flight
    await limiter.acquire("hung", 1, Date.now() + 10_000, "op");
    expect(performance.now() - takenAt).toBeGreaterThanOrEqual(3_000 - 5);
  }, 10_000);

  it("holds a slot for a whole window after its answer, however late the answer came", async () => {
    const limiter = new SlidingWindowLimiter({ safetyMs: 0 });
    const deadline = Date.now() + 10_000;
    const release = await limiter.acquire("slow", 1, deadline, "op");
    const answeredAt = performance.now() + 600;
    await new Promise((r) => setTimeout(r, 600));
    await release();
    await limiter.acquire("slow", 1, deadline, "op");
    // Without the hold the slot would have freed 1000 ms after it was taken; with it, 1000 ms after the answer.
    expect(performance.now() - answeredAt).toBeGreaterThanOrEqual(990);
  });

  it("keeps scopes apart", async () => {
    const limiter = new SlidingWindowLimiter();
    const t0 = performance.now();
    const deadline = Date.now() + 5_000;
    await Promise.all([
      ...Array.from({ length: 3 }, () => limiter.acquire("a", 3, deadline, "a")),
      ...Array.from({ length: 3 }, () => limiter.acquire("b", 3, deadline, "b")),
    ]);
    expect(performance.now() - t0).toBeLessThan(200);
  });

  it("fails a call whose slot would come after its deadline, and keeps the queue moving", async () => {
    const limiter = new SlidingWindowLimiter();
    await limiter.acquire("one", 1, Date.now() + 1000, "op");
    await expect(limiter.acquire("one", 1, Date.now() + 100, "op")).rejects.toBeInstanceOf(RateBudgetExceededError);
    const t0 = performance.now();
    await limiter.acquire("one", 1, Date.now() + 5000, "op");
    expect(performance.now() - t0).toBeGreaterThan(700);
  });

  it("answers busy at once when those queued ahead would take the slots past the deadline", async () => {
    const limiter = new SlidingWindowLimiter();
    const far = Date.now() + 10_000;
    const held = await limiter.acquire("busy", 1, far, "op");
    const queued = [limiter.acquire("busy", 1, far, "op"), limiter.acquire("busy", 1, far, "op")];
    const err = await limiter.acquire("busy", 1, Date.now() + 1_500, "op").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateBudgetExceededError);
    // Two ahead at one a window: about two windows, said before queueing ("busy"), not after waiting for nothing.
    expect((err as RateBudgetExceededError).reason).toBe("busy");
    expect((err as RateBudgetExceededError).retryAfterMs).toBeGreaterThanOrEqual(2 * limiter.windowMs);
    await held();
    for (const release of await Promise.all(queued)) await release();
  });

  it("refuses at once when the queue is full", async () => {
    const limiter = new SlidingWindowLimiter({ maxQueue: 2 });
    const deadline = Date.now() + 5_000;
    const first = [limiter.acquire("q", 1, deadline, "op"), limiter.acquire("q", 1, deadline, "op")];
    const err = await limiter.acquire("q", 1, deadline, "op").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateBudgetExceededError);
    expect((err as RateBudgetExceededError).reason).toBe("queue-full");
    await Promise.all(first);
  });

  it("paces each operation by its own trip: a nearer operation's answers do not lengthen a farther one's holds", async () => {
    const trace = new SlotTrace();
    const limiter = new SlidingWindowLimiter({ safetyMs: 40, trace });
    const deadline = Date.now() + 10_000;
    // Answered 200 ms after leaving; the platform saw the request `tripMs` after it left (its clock = ours).
    const answered = async (op: string, tripMs: number) => {
      const release = await limiter.acquire(`uid:main:${op}`, 10, deadline, op);
      const sentAt = Date.now() - 200;
      await release({ sentAt, requestTime: sentAt + tripMs });
      return trace.holds.at(-1)!;
    };
    for (let i = 0; i < 5; i++) await answered("near-op", 0);
    for (let i = 0; i < 5; i++) await answered("far-op", 75);
    const far = await answered("far-op", 75);
    // Its own trip (75 ± the assumed 20 ms of jitter): free one window and the 5 ms margin after it arrived, less
    // the jitter band (75 - 40 = 35 ms early at most). Paced by the nearer one's floor it was held 75 ms more.
    expect(far.freeAt! - far.sentAt!).toBe(75 - 35 + 1000 + 5);
  });
});
