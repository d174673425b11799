// /sync's "budget used": the sync's calls per operation over the last 60 s, in this process or shared through Redis.
import { describe, expect, it } from "vitest";
import { testRedisSuite } from "@/server/redis/testing";
import { budgetUse, callCounter, sharePerSecond } from "./budget";
import { DEPOSITS_JOB } from "./deposits";

const MINUTE = 60_000;
const T0 = 1_790_000_000_000 - (1_790_000_000_000 % MINUTE);

function clock() {
  let t = T0 + 5_000;
  return { now: () => t, to: (ms: number) => (t = T0 + ms) };
}

describe("[ledger][sync] budget used per job", () => {
  it("counts the calls of the last 60 s: this minute's, and the last minute's part still inside the window", async () => {
    const c = clock();
    const counter = callCounter(undefined, c.now);
    for (let i = 0; i < 120; i++) await counter.count("fills.list");
    // 5 s into the first minute: the 120 just made count at once (a whole-minute count said 0 here).
    expect(await counter.lastSixtySeconds("fills.list")).toBe(120);
    c.to(MINUTE + 15_000);
    await counter.count("fills.list");
    // 15 s into the next: 1 of this minute and three quarters of the last one's 120.
    expect(await counter.lastSixtySeconds("fills.list")).toBe(91);
    c.to(2 * MINUTE + 30_000);
    expect(await counter.lastSixtySeconds("fills.list")).toBe(1);
    c.to(4 * MINUTE);
    expect(await counter.lastSixtySeconds("fills.list")).toBe(0);
  });

  it("says a job's calls per second against the share it may take; a job it does not know is not counted", async () => {
    const c = clock();
    const counter = callCounter(undefined, c.now);
    for (let i = 0; i < 150; i++) await counter.count("deposits.list");
    c.to(MINUTE);
    expect(await budgetUse(DEPOSITS_JOB, 0.5, counter)).toEqual({
      usedPerSecond: 2.5,
      allowedPerSecond: sharePerSecond("deposits.list", 0.5),
    });
    expect(sharePerSecond("deposits.list", 0.5)).toBe(5);
    expect(await budgetUse("no-such-job", 0.5, counter)).toBeNull();
  });
});

const { run, redis } = testRedisSuite(Boolean(process.env.CI));

run("[ledger][sync][scale-out] budget used across instances", () => {
  it("calls counted on two instances add up in Redis", async () => {
    const c = clock();
    const [a, b] = [callCounter(redis().client(), c.now), callCounter(redis().client(), c.now)];
    for (let i = 0; i < 30; i++) await a.count("planOrders.history");
    for (let i = 0; i < 12; i++) await b.count("planOrders.history");
    c.to(MINUTE);
    expect(await a.lastSixtySeconds("planOrders.history")).toBe(42);
    expect(await b.lastSixtySeconds("planOrders.history")).toBe(42);
    // Without Redis the counts are the process's own: every budget in it adds to one count per operation.
    const c2 = clock();
    const [x, y] = [callCounter(undefined, c2.now), callCounter(undefined, c2.now)];
    await x.count("rebates.get");
    c2.to(MINUTE);
    expect(await y.lastSixtySeconds("rebates.get")).toBe(1);
  });
});
