// The sign-in throttle shared through a real Redis: failures counted on one instance count on all.
import { expect, it } from "vitest";
import { Redis } from "ioredis";
import { freePort, testRedisSuite } from "@/server/redis/testing";
import { THROTTLE_LIMITS, buildSignInThrottle } from "./throttle";

const { run, redis } = testRedisSuite(Boolean(process.env.CI));

run("[scale-out][throttle] sign-in failures are counted across instances", () => {
  it("5 failures for one account spread over three instances block it on every instance", async () => {
    const [a, b, c] = [0, 1, 2].map(() => buildSignInThrottle(THROTTLE_LIMITS, redis().client()));
    await a!.recordFailure("ana@example.com", "10.0.0.1");
    await b!.recordFailure("ana@example.com", "10.0.0.2");
    await c!.recordFailure("ana@example.com", "10.0.0.3");
    await a!.recordFailure("ana@example.com", "10.0.0.4");
    expect(await b!.isBlocked("ana@example.com", null)).toBe(false);
    await c!.recordFailure("ANA@example.com", "10.0.0.5");
    for (const t of [a!, b!, c!]) expect(await t.isBlocked("ana@example.com", null)).toBe(true);
    // A success on one instance clears the account everywhere.
    await b!.recordSuccess("ana@example.com");
    expect(await a!.isBlocked("ana@example.com", null)).toBe(false);
  });

  it("control: in-process counters do not see each other (so the test above can fail)", async () => {
    const [a, b] = [buildSignInThrottle(), buildSignInThrottle()];
    for (let i = 0; i < 5; i++) await a.recordFailure("bob@example.com", null);
    expect(await a.isBlocked("bob@example.com", null)).toBe(true);
    expect(await b.isBlocked("bob@example.com", null)).toBe(false);
  });

  it("with Redis unreachable each instance falls back to its own counters instead of failing sign-in", async () => {
    const dead = new Redis(`redis://127.0.0.1:${await freePort()}`, {
      maxRetriesPerRequest: 1,
      retryStrategy: (n) => Math.min(n * 50, 200),
    });
    dead.on("error", () => {});
    try {
      const t = buildSignInThrottle({ accountFailures: 2, ipFailures: 5, windowSeconds: 60 }, dead);
      await t.recordFailure("cy@example.com", "10.0.0.9");
      expect(await t.isBlocked("cy@example.com", null)).toBe(false);
      await t.recordFailure("cy@example.com", "10.0.0.9");
      expect(await t.isBlocked("cy@example.com", null)).toBe(true);
    } finally {
      dead.disconnect();
    }
  }, 20_000);
});
