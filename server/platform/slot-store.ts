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

/** Slots shared by every instance through Redis (SET NX PX: one taker, expiry in ms). */
export function redisSlotStore(redis: Redis, prefix: string): SlotStore {
  return {
    async take(key, holdMs) {
      const k = prefix + key;
      if ((await redis.set(k, "1", "PX", Math.max(1, Math.ceil(holdMs)), "NX")) === "OK") return 0;
      const left = await redis.pttl(k);
      // -2: gone since the SET (try again now); -1 cannot happen (every SET has PX), treated alike.
      return Math.max(1, left);
    },
    async hold(key, holdMs) {
      const k = prefix + key;
      if (holdMs <= 0) await redis.del(k);
      else await redis.set(k, "1", "PX", Math.ceil(holdMs));
    },
  };
}
