import "server-only";
import { env } from "@/lib/env";
import { logger } from "@/server/log";
import { RateLimiterRedis } from "rate-limiter-flexible";
import { getRedis, REDIS_PREFIX } from "@/server/redis";
import { PlatformClient } from "./client";
import { CredentialStore } from "./credentials";
import { SlidingWindowLimiter } from "./limiter";
import { PublicCache } from "./public-cache";

/**
 * The process-wide platform client. In simulator mode (no PLATFORM_BASE_URL) the client points at
 * SIMULATOR_URL if set (one simulator for several instances), else at a simulator embedded in this
 * process, started on first use. Kept on globalThis so that
 * every route bundle and hot reload shares one client, one rate budget and one simulator.
 */
type Runtime = { client: PlatformClient; mode: "live" | "simulator"; baseUrl: string };
const g = globalThis as typeof globalThis & { __brokerdeskPlatform?: Promise<Runtime> };

export function getPlatform(): Promise<Runtime> {
  g.__brokerdeskPlatform ??= createRuntime().catch((e: unknown) => {
    g.__brokerdeskPlatform = undefined;
    throw e;
  });
  return g.__brokerdeskPlatform;
}

async function createRuntime(): Promise<Runtime> {
  // Live: the platform. Simulator mode: a standalone simulator (SIMULATOR_URL), or one embedded here.
  let baseUrl = env.platform.baseUrl ?? env.platform.simulatorUrl;
  if (!baseUrl) {
    const { startEmbeddedSimulator } = await import("@/server/simulator/embedded");
    baseUrl = await startEmbeddedSimulator();
  }
  // With REDIS_URL the rate budget and the public-data cache are shared by every instance.
  const redis = getRedis();
  // A slot stays taken while its request may be in flight: up to the timeout, plus a window.
  const inFlightMs = env.platform.timeoutMs + 1_000;
  const limiter = redis
    ? new SlidingWindowLimiter({
        safetyMs: 0,
        inFlightMs,
        storeFactory: (duration) => new RateLimiterRedis({ storeClient: redis, points: 1, duration, keyPrefix: `${REDIS_PREFIX}rl` }),
      })
    : new SlidingWindowLimiter({ inFlightMs });
  const client = new PlatformClient({
    baseUrl,
    limiter,
    publicCache: new PublicCache({ ttlMs: env.publicCacheMs, redis }),
    egressId: env.egressId,
    credentials: new CredentialStore(env.platform.keys),
    locale: env.platform.locale,
    timeoutMs: env.platform.timeoutMs,
    logger: logger.child({ component: "platform" }),
  });
  logger.info({ mode: env.mode, baseUrl, sharedBudget: Boolean(redis), publicCacheMs: env.publicCacheMs }, "platform client ready");
  return { client, mode: env.mode, baseUrl };
}
