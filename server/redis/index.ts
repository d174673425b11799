import "server-only";
import { Redis } from "ioredis";
import { env } from "@/lib/env";
import { logger } from "@/server/log";

/**
 * The one Redis connection of this process, when REDIS_URL is set: the platform rate budget
 * (server/platform/limiter.ts), the sign-in throttle (server/auth/throttle.ts) and the public-data
 * cache (server/platform/public-cache.ts) keep what several instances must share in it. Undefined
 * without REDIS_URL: each of them then keeps its state in this process, as a single instance may.
 *
 * Commands fail fast while Redis is unreachable (one retry, 2 s to connect) instead of queueing
 * forever: each user decides what a failure means (the rate budget fails closed, the cache skips it).
 */
const g = globalThis as typeof globalThis & { __brokerdeskRedis?: Redis | null };

export function getRedis(): Redis | undefined {
  if (g.__brokerdeskRedis === undefined) g.__brokerdeskRedis = env.redisUrl ? connect(env.redisUrl) : null;
  return g.__brokerdeskRedis ?? undefined;
}

/** Prefix of every key Brokerdesk writes, so one Redis can serve other tools too. */
export const REDIS_PREFIX = "bd:";

function connect(url: string): Redis {
  const client = new Redis(url, {
    connectTimeout: 2_000,
    maxRetriesPerRequest: 1,
    // Reconnect with a capped backoff; commands in between fail after one retry.
    retryStrategy: (times) => Math.min(times * 200, 2_000),
    lazyConnect: false,
  });
  const where = redactUrl(url);
  let healthy = true;
  client.on("ready", () => {
    healthy = true;
    logger.info({ redis: where }, "redis ready");
  });
  client.on("error", (e: Error) => {
    // One line per outage, not one per reconnect attempt.
    if (healthy) logger.error({ redis: where, err: e.message }, "redis unreachable");
    healthy = false;
  });
  return client;
}

/** The URL without its password (never logged). */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "redis://?";
  }
}
