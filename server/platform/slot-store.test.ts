// The shared slot store across an outage of Redis: a restarted Redis is empty, so a slot taken before the
// outage must not be handed out again until every hold taken before it could have lapsed.
import { expect, it } from "vitest";
import { testRedisSuite } from "@/server/redis/testing";
import { redisSlotStore } from "./slot-store";

const { run, redis } = testRedisSuite(Boolean(process.env.CI));

const ready = (c: ReturnType<ReturnType<typeof redis>["client"]>) =>
  c.status === "ready" ? Promise.resolve() : new Promise<void>((r) => c.once("ready", () => r()));

run("[platform][rate budget] the Redis slot store", () => {
  it("[platform][rate budget] a slot is one taker's until its hold lapses", async () => {
    const client = redis().client();
    await ready(client);
    const store = redisSlotStore(client, `t${Date.now()}:`);
    expect(await store.take("a", 5_000)).toBe(0);
    expect(await store.take("a", 5_000)).toBeGreaterThan(0);
    await store.hold("a", 0);
    expect(await store.take("a", 5_000)).toBe(0);
  });

  it("[platform][rate budget] after Redis comes back empty, no slot is handed out until the holds taken before have lapsed", async () => {
    const client = redis().client();
    await ready(client);
    let t = 1_000_000;
    const store = redisSlotStore(client, `r${Date.now()}:`, () => t);
    expect(await store.take("a", 5_000)).toBe(0);
    // Redis restarts: its keys are gone and the connection breaks; the client reconnects.
    await client.flushall();
    const back = new Promise<void>((r) => client.once("ready", () => r()));
    client.disconnect(true);
    await back;
    // The slot's request may still be in flight: not taken again, though Redis no longer holds it.
    expect(await store.take("a", 5_000)).toBe(5_000);
    expect(await store.take("b", 5_000)).toBe(5_000);
    t += 5_000;
    expect(await store.take("a", 5_000)).toBe(0);
  });
});
