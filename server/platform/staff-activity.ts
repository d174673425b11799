import "server-only";
// What staff are doing with each platform operation, for the ledger's sync to make way: when a staff call of
// the operation was last asked for, and the staff walks (exports) of it under way. The sync spends idle rate
// budget beyond its share only while no staff call was asked for within the last window, and none at all
// while a walk of the operation runs (server/ledger/budget.ts). Both are kept in this process on globalThis, as
// the sync's own counts are, since Next bundles routes and the sync's start-up apart; and in Redis when
// REDIS_URL is set, so a staff call or walk on one instance makes the sync of every instance yield. The last
// call is a key per operation holding its time, kept a minute; a walk is a member of a sorted set per
// operation scored by when its lease ends, renewed while the walk runs, so a walk whose instance died stops
// pausing the others within a lease.
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
export const lastCallKey = (operation: string) => `${REDIS_PREFIX}staff-last-call:${operation}`;
/** How long a shared last call is kept: far beyond any quiet window, so a stale key never reads as recent. */
const LAST_CALL_KEEP_MS = 60_000;

/**
 * A staff call of `operation` is asked for (the platform client says it, before it queues for budget). With
 * Redis, shared with every instance (not awaited: a Redis error loses the sharing, never the call).
 */
export function staffCalled(operation: string, now: number = Date.now(), redis: Redis | undefined = getRedis()): void {
  state.lastCall.set(operation, now);
  if (redis) void redis.set(lastCallKey(operation), String(now), "PX", LAST_CALL_KEEP_MS).catch(() => undefined);
}

/**
 * When a staff call of `operation` was last asked for, in this process or (with Redis) any instance; -Infinity
 * when none is known. A Redis that cannot be answered counts as a call just now: the sync then keeps to its
 * share (fails towards staff), it does not take the whole rate on a guess.
 */
export async function lastStaffCallAnywhere(operation: string, redis: Redis | undefined): Promise<number> {
  const here = state.lastCall.get(operation) ?? -Infinity;
  if (!redis) return here;
  const shared = await redis.get(lastCallKey(operation)).then(
    (v) => (v === null ? -Infinity : Number(v)),
    () => Date.now(),
  );
  return Math.max(here, shared);
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

/** Forgets this process's last staff calls (tests: another instance's calls are known only through Redis). */
export function forgetStaffCalls(): void {
  state.lastCall.clear();
}

/** No staff call of `operation` asked for within `withinMs`, and no walk of it under way in this process. */
export const staffIdle = (operation: string, withinMs: number, now: number = Date.now()): boolean =>
  !staffWalking(operation) && now - (state.lastCall.get(operation) ?? -Infinity) > withinMs;
