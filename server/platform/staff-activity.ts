import "server-only";
// What staff are doing with each platform operation, for the ledger's sync to make way: when a staff call of
// the operation was last asked for, and the staff walks (exports) of it under way. The sync spends idle rate
// budget beyond its share only while no staff call was asked for within the last window, and none at all
// while a walk of the operation runs (server/ledger/budget.ts). The last call is this process's view: on
// globalThis, as the sync's own counts are, since Next bundles routes and the sync's start-up apart. A walk is
// also announced in Redis when REDIS_URL is set, so the sync of every instance pauses for it: a member of a
// sorted set per operation scored by when its lease ends, renewed while the walk runs, so a walk whose instance
// died stops pausing the others within a lease.
import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import { logger } from "@/server/log";
import { getRedis, REDIS_PREFIX } from "@/server/redis";

const g = globalThis as typeof globalThis & {
  __brokerdeskStaffActivity?: { lastCall: Map<string, number>; walks: Map<string, number> };
};
const state = (g.__brokerdeskStaffActivity ??= { lastCall: new Map(), walks: new Map() });

/** How long a walk's announcement holds without renewal, and how often a running walk renews it. */
export const WALK_LEASE_MS = 15_000;
const WALK_RENEW_MS = 5_000;
const walksKey = (operation: string) => `${REDIS_PREFIX}staff-walks:${operation}`;

/** A staff call of `operation` is asked for (the platform client says it, before it queues for budget). */
export function staffCalled(operation: string, now: number = Date.now()): void {
  state.lastCall.set(operation, now);
}

/**
 * A staff walk of `operation` starts: the sync of it pauses, in this process and (with Redis) every instance,
 * until every walk has ended. Resolves once the walk is announced; call the answer once, at its end. A Redis
 * that cannot be reached never stops the walk: it runs, paused for in this process only, and says so in the log.
 */
export async function staffWalkStarted(
  operation: string,
  redis: Redis | undefined = getRedis(),
): Promise<() => Promise<void>> {
  state.walks.set(operation, (state.walks.get(operation) ?? 0) + 1);
  const shared = redis
    ? await announceWalk(redis, operation).catch((e: unknown) => {
        logger.warn({ operation, err: e instanceof Error ? e.message : String(e) }, "staff walk not shared");
        return null;
      })
    : null;
  let ended = false;
  return async () => {
    if (ended) return;
    ended = true;
    const n = (state.walks.get(operation) ?? 1) - 1;
    if (n > 0) state.walks.set(operation, n);
    else state.walks.delete(operation);
    await shared?.();
  };
}

/**
 * Announces a walk of `operation` to every instance through Redis (what staffWalkStarted does besides this
 * process's own count) and renews its lease while it runs; the answer withdraws it.
 */
export async function announceWalk(
  redis: Redis,
  operation: string,
  leaseMs: number = WALK_LEASE_MS,
): Promise<() => Promise<void>> {
  const key = walksKey(operation);
  const id = randomUUID();
  const renew = async () => {
    const until = Date.now() + leaseMs;
    // Expired members (their instance died) are dropped on the way; the key itself outlives no lease.
    await redis.multi().zremrangebyscore(key, "-inf", Date.now()).zadd(key, until, id).pexpire(key, leaseMs).exec();
  };
  await renew();
  const timer = setInterval(() => void renew().catch(() => undefined), Math.min(WALK_RENEW_MS, leaseMs / 3));
  timer.unref();
  return async () => {
    clearInterval(timer);
    await redis.zrem(key, id).catch(() => undefined);
  };
}

/** A staff walk of `operation` is under way in this process. */
export const staffWalking = (operation: string): boolean => (state.walks.get(operation) ?? 0) > 0;

/** A staff walk of `operation` is under way in this process or, through Redis, in any instance. */
export async function staffWalkingAnywhere(operation: string, redis: Redis | undefined): Promise<boolean> {
  if (staffWalking(operation)) return true;
  if (!redis) return false;
  return (await redis.zcount(walksKey(operation), Date.now(), "+inf")) > 0;
}

/** No staff call of `operation` asked for within `withinMs`, and no walk of it under way in this process. */
export const staffIdle = (operation: string, withinMs: number, now: number = Date.now()): boolean =>
  !staffWalking(operation) && now - (state.lastCall.get(operation) ?? -Infinity) > withinMs;
