// The platform client of a chaos instance (and of the run's quiet phase): as server/platform/runtime.ts makes it
// for several instances, its rate budget in the shared Redis (slots in ms, failing closed while Redis is down).
import type { Redis } from "ioredis";
import type { PlatformKey } from "@/lib/env";
import { DEFAULT_ARRIVAL } from "@/server/platform/arrival";
import { PlatformClient } from "@/server/platform/client";
import { CredentialStore } from "@/server/platform/credentials";
import { SlidingWindowLimiter } from "@/server/platform/limiter";
import { redisSlotStore } from "@/server/platform/slot-store";
import { REDIS_PREFIX } from "@/server/redis";

export const CLIENT_TIMEOUT_MS = 1_500;
/**
 * The bound on the trip's jitter the instances state, as the scale suite does on this machine: three instances,
 * the run's simulator, Redis and PostgreSQL share two cores with other work (the scale suite's comment).
 */
export const CHAOS_JITTER_MS = 150;

export function chaosClient(baseUrl: string, key: PlatformKey, redis: Redis): PlatformClient {
  return new PlatformClient({
    baseUrl,
    credentials: new CredentialStore({ main: key }),
    timeoutMs: CLIENT_TIMEOUT_MS,
    backoffBaseMs: 20,
    limiter: new SlidingWindowLimiter({
      safetyMs: 0,
      inFlightMs: CLIENT_TIMEOUT_MS + 1_000,
      store: redisSlotStore(redis, `${REDIS_PREFIX}rl:`),
      arrival: { ...DEFAULT_ARRIVAL, jitterMs: CHAOS_JITTER_MS },
    }),
  });
}
