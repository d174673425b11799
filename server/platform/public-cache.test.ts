import { describe, expect, it } from "vitest";
import { PublicCache } from "./public-cache";

describe("[platform][public cache] in one process", () => {
  it("serves a success for its TTL, then asks again", async () => {
    let t = 1_000;
    let calls = 0;
    const cache = new PublicCache({ ttlMs: 1_000, now: () => t });
    const fetch = async () => ++calls;
    expect(await cache.get("E11?", fetch)).toEqual({ value: 1, cached: false });
    t += 999;
    expect(await cache.get("E11?", fetch)).toEqual({ value: 1, cached: true });
    t += 1;
    expect(await cache.get("E11?", fetch)).toEqual({ value: 2, cached: false });
    expect(calls).toBe(2);
  });

  it("identical concurrent calls share one fetch; different keys do not", async () => {
    let calls = 0;
    const cache = new PublicCache({ ttlMs: 1_000 });
    const fetch = () => new Promise<number>((r) => setTimeout(() => r(++calls), 20));
    const results = await Promise.all([...Array(10)].map(() => cache.get("a", fetch)));
    expect(calls).toBe(1);
    expect(results.filter((r) => !r.cached)).toHaveLength(1);
    await cache.get("b", fetch);
    expect(calls).toBe(2);
  });

  it("never keeps a failure: every waiter sees it, the next call fetches again", async () => {
    let calls = 0;
    const cache = new PublicCache({ ttlMs: 60_000 });
    const failing = () =>
      new Promise<number>((_, reject) => setTimeout(() => reject(new Error(`boom ${++calls}`)), 10));
    const settled = await Promise.allSettled([cache.get("k", failing), cache.get("k", failing)]);
    expect(settled.every((s) => s.status === "rejected")).toBe(true);
    expect(calls).toBe(1);
    expect(await cache.get("k", async () => 42)).toEqual({ value: 42, cached: false });
  });

  it("holds at most maxEntries, dropping the oldest", async () => {
    let calls = 0;
    const cache = new PublicCache({ ttlMs: 60_000, maxEntries: 3 });
    for (const k of ["a", "b", "c", "d"]) await cache.get(k, async () => ++calls);
    await cache.get("a", async () => ++calls); // "a" was dropped for "d"
    await cache.get("d", async () => ++calls); // still there
    expect(calls).toBe(5);
  });

  it("is off with a TTL of 0", () => {
    expect(new PublicCache({ ttlMs: 0 }).enabled).toBe(false);
  });
});
