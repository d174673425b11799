import "server-only";
import { env } from "@/lib/env";
import { logger } from "@/server/log";
import { metrics } from "@/server/metrics";
import { redisSlotStore } from "./slot-store";
import { getRedis, REDIS_PREFIX } from "@/server/redis";
import { PlatformClient } from "./client";
import { CredentialStore } from "./credentials";
import { configuredKeyRoles } from "./key-access";
import { platformHealth } from "./health";
import { sealerOf } from "./key-seal";
import { databaseKeySource } from "./key-store";
import { getDb } from "@/server/db";
import { DEFAULT_ARRIVAL } from "./arrival";
import { SlidingWindowLimiter } from "./limiter";
import { PublicCache } from "./public-cache";

/**
 * The process-wide platform client and the credential store it signs with. Live: PLATFORM_BASE_URL.
 * Simulator mode: SIMULATOR_URL (one simulator for several instances), or the simulator the start-up module
 * (instrumentation.ts, or a CLI) embedded in this process and handed over with setEmbeddedSimulator: the
 * client never starts one itself. Kept on globalThis so that every route bundle and hot reload shares one
 * client, one rate budget and one credential store.
 */
type Runtime = { client: PlatformClient; mode: "live" | "simulator"; baseUrl: string };
const g = globalThis as typeof globalThis & {
  __brokerdeskPlatform?: Promise<Runtime>;
  __brokerdeskCredentials?: CredentialStore;
  __brokerdeskEmbeddedSimulator?: string;
};

/**
 * The configured keys, by name: the one store the client signs with and the routes check key names against. The
 * environment's keys, and the sub-account keys approved in the database (server/platform/key-store.ts).
 */
export function getCredentials(): CredentialStore {
  g.__brokerdeskCredentials ??= new CredentialStore(
    env.platform.keys,
    configuredKeyRoles(),
    databaseKeySource(getDb, sealerOf(env.keySealingSecret)),
  );
  return g.__brokerdeskCredentials;
}

/** The start-up module hands over the address of the simulator it embedded in this process. */
export function setEmbeddedSimulator(baseUrl: string): void {
  g.__brokerdeskEmbeddedSimulator = baseUrl;
}

/** Where the client sends: the platform, a standalone simulator, or the embedded one; null before start-up. */
export function platformBaseUrl(): string | null {
  return env.platform.baseUrl ?? env.platform.simulatorUrl ?? g.__brokerdeskEmbeddedSimulator ?? null;
}

export function getPlatform(): Promise<Runtime> {
  g.__brokerdeskPlatform ??= createRuntime().catch((e: unknown) => {
    g.__brokerdeskPlatform = undefined;
    throw e;
  });
  return g.__brokerdeskPlatform;
}

/** The client alone (what route handlers ask for). */
export async function getPlatformClient(): Promise<PlatformClient> {
  return (await getPlatform()).client;
}

async function createRuntime(): Promise<Runtime> {
  const baseUrl = platformBaseUrl();
  if (!baseUrl) {
    throw new Error(
      "Simulator mode without SIMULATOR_URL, and no simulator was started in this process: start-up " +
        "(instrumentation.ts) starts it",
    );
  }
  // With REDIS_URL the rate budget and the public-data cache are shared by every instance.
  const redis = getRedis();
  // A slot stays taken while its request may be in flight: up to the timeout, plus a window.
  const inFlightMs = env.platform.timeoutMs + 1_000;
  const arrival = { ...DEFAULT_ARRIVAL, jitterMs: env.platform.jitterMs };
  const { observer } = metrics();
  const onQueue = (scope: string, depth: number) => observer.queue({ scope, depth });
  const limiter = redis
    ? new SlidingWindowLimiter({
        safetyMs: 0,
        inFlightMs,
        store: redisSlotStore(redis, `${REDIS_PREFIX}rl:`),
        arrival,
        onQueue,
      })
    : new SlidingWindowLimiter({ inFlightMs, arrival, onQueue });
  const client = new PlatformClient({
    baseUrl,
    limiter,
    publicCache: new PublicCache({ ttlMs: env.publicCacheMs, redis }),
    egressId: env.egressId,
    credentials: getCredentials(),
    locale: env.platform.locale,
    timeoutMs: env.platform.timeoutMs,
    logger: logger.child({ component: "platform" }),
    // Each call's outcome also feeds this process's record for platform.down (./health.ts).
    observer: {
      ...observer,
      request: (e) => {
        observer.request(e);
        platformHealth().record(e);
      },
    },
  });
  logger.info(
    { mode: env.mode, baseUrl, sharedBudget: Boolean(redis), publicCacheMs: env.publicCacheMs },
    "platform client ready",
  );
  return { client, mode: env.mode, baseUrl };
}
