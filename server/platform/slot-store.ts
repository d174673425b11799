import "server-only";
import type { Redis } from "ioredis";

/**
 * Where the limiter's slots are kept: a key taken for a while. The pacing rule (arrival.ts) frees a slot to
 * the millisecond, often less than a second after its answer; rate-limiter-flexible's Redis store keeps
 * expiries in whole seconds (and a block under one second never expires), so both stores here keep ms.
 */
export type SlotStore = {
  /** Takes `key` for `holdMs` if it is free: 0. Otherwise the ms until it frees (at least 1). */
  take(key: string, holdMs: number): Promise<number>;
  /** Keeps `key` taken for `holdMs` from now; 0 or less frees it at once. */
  hold(key: string, holdMs: number): Promise<void>;
};

/** One process's slots. */
export function memorySlotStore(now: () => number = Date.now): SlotStore {
  const until = new Map<string, number>();
  return {
    async take(key, holdMs) {
      const t = now();
      const busyUntil = until.get(key) ?? 0;
      if (busyUntil > t) return Math.max(1, busyUntil - t);
      until.set(key, t + holdMs);
      return 0;
    },
    async hold(key, holdMs) {
      if (holdMs <= 0) until.delete(key);
      else until.set(key, now() + holdMs);
    },
  };
}

/**
 * Slots shared by every instance through Redis (SET NX PX: one taker, expiry in ms).
 *
 * A Redis that restarts comes back empty: the slots taken before it went away are gone while their requests
 * may still be in flight, so handing them out again at once would let two requests through one slot (the
 * chaos run saw 17 E1 calls in one second against a limit of 10). After every reconnect this store hands out
 * no slot for the longest hold it has been asked for: by then every slot taken before the outage has lapsed.
 * Every instance sees the same outage (its connection broke too), so each waits alike.
 */
export function redisSlotStore(redis: Redis, prefix: string, now: () => number = Date.now): SlotStore {
  let longestHoldMs = 0;
  let connectedBefore = redis.status === "ready";
  let quietUntil = 0;
  redis.on("ready", () => {
    if (connectedBefore) quietUntil = now() + longestHoldMs;
    connectedBefore = true;
  });
  const quietMs = () => Math.max(0, quietUntil - now());
  return {
    async take(key, holdMs) {
      longestHoldMs = Math.max(longestHoldMs, holdMs);
      if (quietMs()) return quietMs();
      const k = prefix + key;
      const taken = (await redis.set(k, "1", "PX", Math.max(1, Math.ceil(holdMs)), "NX")) === "OK";
      // A reconnect while the SET waited: the slot is taken but not used (it lapses with its hold).
      if (quietMs()) return quietMs();
      if (taken) return 0;
      const left = await redis.pttl(k);
      // -2: gone since the SET (try again now); -1 cannot happen (every SET has PX), treated alike.
      return Math.max(1, left);
    },
    async hold(key, holdMs) {
      longestHoldMs = Math.max(longestHoldMs, holdMs);
      const k = prefix + key;
      if (holdMs <= 0) await redis.del(k);
      else await redis.set(k, "1", "PX", Math.ceil(holdMs));
    },
  };
}
