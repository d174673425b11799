import "server-only";
// The sync's share of an operation's rate budget (a configured share, default half). Every sync call takes a
// point here first, then goes through the platform client's own limiter as background work (behind any staff
// call waiting); beyond its share only while staff leave the rate unused, and not at all while a staff walk
// of the operation runs. With REDIS_URL the points are counted across instances (one budget for all), else
// in this process; so are staff walks and the last staff call (server/platform/staff-activity.ts), so a staff
// call on one instance makes the sync of every instance keep to its share.
import {
  RateLimiterMemory,
  RateLimiterRedis,
  type RateLimiterAbstract,
  type RateLimiterRes,
} from "rate-limiter-flexible";
import { catalog, type OperationId } from "@/lib/platform/catalog";
import type { Redis } from "ioredis";
import { lastStaffCallAnywhere, staffIdle, staffWalking, staffWalkingAnywhere } from "@/server/platform/staff-activity";
import { getRedis, REDIS_PREFIX } from "@/server/redis";
import { DEPOSITS_JOB } from "./deposits/sync";
import { ASSETS_SNAPSHOT_JOB, REBATE_SNAPSHOT_JOB } from "./snapshots/sync";
import { FILLS_JOB, PLAN_ORDERS_JOB } from "./trades/store";

/** Points per second the sync may use of `operation`'s limit: at least one. */
export function sharePerSecond(operation: OperationId, share: number): number {
  const limit = catalog[operation].rateLimit?.count ?? 1;
  return Math.max(1, Math.floor(limit * share));
}

/**
 * Waits until the sync may make one call of its operation. An urgent call (a sub-account staff are looking
 * at) goes ahead of every other sync call waiting in this process.
 */
export type Budget = (opts?: { urgent?: boolean }) => Promise<void>;

/** The window after a staff call in which the sync keeps to its share (the platform's rate window). */
export const STAFF_QUIET_MS = 1_000;
const WAIT_MS = 25;

/**
 * The sync's budget of `operation`: its share of the rate (points per second) always; while no staff call of
 * the operation was asked for within the last window (work-conserving), up to the whole limit, so the backfill
 * is not held to its share while the rate goes unused; nothing at all while a staff walk (an export) of the
 * operation is under way. Both staff signals are read across instances when counted in Redis. A staff call
 * arriving while the sync takes the whole limit waits for one slot at most: every sync call goes through the
 * platform client's limiter as background work, which joins the queue only while no staff call waits and one
 * at a time (server/platform/limiter.ts), so the next slot to free is the staff call's. Keeping a slot of the
 * limit free instead held the backfill to nine tenths of the rate, a tenth of the physical bound lost for good.
 */
export function syncBudget(
  operation: OperationId,
  share: number,
  /** redis: false for this process only; a client to count in (tests); else REDIS_URL's when set. */
  opts: { redis?: boolean | Redis; signal?: AbortSignal; workConserving?: boolean } = {},
): Budget {
  const points = sharePerSecond(operation, share);
  const limit = catalog[operation].rateLimit?.count ?? 1;
  const idlePoints = Math.max(points, limit);
  const redis = opts.redis === false ? undefined : opts.redis === true || !opts.redis ? getRedis() : opts.redis;
  const counter = callCounter(redis);
  const keyPrefix = `ledger-share:${operation}`;
  const make = (prefix: string, n: number): RateLimiterAbstract =>
    redis
      ? new RateLimiterRedis({ storeClient: redis, keyPrefix: `${REDIS_PREFIX}${prefix}`, points: n, duration: 1 })
      : new RateLimiterMemory({ keyPrefix: prefix, points: n, duration: 1 });
  const shareLimiter = make(keyPrefix, points);
  // Every sync call of the operation is counted here too: beyond the share, this is the bound.
  const allLimiter = make(`${keyPrefix}:all`, idlePoints);
  const workConserving = opts.workConserving ?? true;
  let urgentWaiting = 0;
  // A walk of another instance is seen through Redis, asked at most once a wait (it pauses the sync anyway).
  let walkSeen = { at: -Infinity, walking: false };
  const walkingAnywhere = async (): Promise<boolean> => {
    if (staffWalking(operation)) return true;
    const t = Date.now();
    if (t - walkSeen.at >= WAIT_MS) walkSeen = { at: t, walking: await staffWalkingAnywhere(operation, redis) };
    return walkSeen.walking;
  };
  // So is another instance's last staff call, asked only when the sync would go beyond its share.
  let callSeen = { at: -Infinity, last: -Infinity };
  const idleAnywhere = async (): Promise<boolean> => {
    if (!staffIdle(operation, STAFF_QUIET_MS)) return false;
    if (!redis) return true;
    const t = Date.now();
    if (t - callSeen.at >= WAIT_MS) callSeen = { at: t, last: await lastStaffCallAnywhere(operation, redis) };
    return t - callSeen.last > STAFF_QUIET_MS;
  };
  const wait = (ms: number) => new Promise((r) => setTimeout(r, Math.max(5, Math.min(ms, WAIT_MS * 4))));
  const take = async (urgent: boolean): Promise<number> => {
    if (redis ? await walkingAnywhere() : staffWalking(operation)) return WAIT_MS;
    if (!urgent && urgentWaiting > 0) return WAIT_MS;
    try {
      await allLimiter.consume("sync");
    } catch (e) {
      if (e instanceof Error) throw e;
      return (e as RateLimiterRes).msBeforeNext;
    }
    try {
      await shareLimiter.consume("sync");
      return 0;
    } catch (e) {
      if (workConserving && (await idleAnywhere())) return 0;
      await allLimiter.reward("sync", 1).catch(() => undefined);
      if (e instanceof Error) throw e;
      return (e as RateLimiterRes).msBeforeNext;
    }
  };
  return async ({ urgent = false } = {}) => {
    if (urgent) urgentWaiting++;
    try {
      for (;;) {
        opts.signal?.throwIfAborted();
        const ms = await take(urgent);
        if (ms === 0) {
          void counter.count(operation);
          return;
        }
        await wait(ms);
      }
    } finally {
      if (urgent) urgentWaiting--;
    }
  };
}

/** The operation whose budget each sync job spends. */
export const JOB_OPERATION = {
  [DEPOSITS_JOB]: "deposits.list",
  [FILLS_JOB]: "fills.list",
  [PLAN_ORDERS_JOB]: "planOrders.history",
  [ASSETS_SNAPSHOT_JOB]: "subaccounts.assets",
  [REBATE_SNAPSHOT_JOB]: "rebates.get",
} as const satisfies Record<string, OperationId>;
export type SyncJob = keyof typeof JOB_OPERATION;

/** Each job's budget: the share of its operation (JOB_OPERATION), or the one a test gives them all. */
export function jobBudgets<J extends SyncJob>(jobs: readonly J[], share: number, given?: Budget): Record<J, Budget> {
  return Object.fromEntries(jobs.map((job) => [job, given ?? syncBudget(JOB_OPERATION[job], share)])) as Record<
    J,
    Budget
  >;
}

const MINUTE_MS = 60_000;
const minuteKey = (operation: OperationId, minute: number) => `${REDIS_PREFIX}ledger-calls:${operation}:${minute}`;
/**
 * This process's counts when there is no Redis: operation → calls this minute and the last. On globalThis, as
 * the ledger itself is (engine.ts): Next bundles the sync's start-up and the /sync route apart, each with its
 * own copy of this module, and a module-level map counted in one was read empty in the other.
 */
const g = globalThis as typeof globalThis & {
  __brokerdeskSyncCalls?: Map<string, { minute: number; calls: number; last: number }>;
};
const localCounts = (g.__brokerdeskSyncCalls ??= new Map());

/**
 * The sync's calls per operation and minute, counted where its share is counted (Redis across instances,
 * else this process), so /sync can say how much of the share a job used: the platform's rate limiter keeps no
 * history. Counting never slows or fails a sync call: a Redis error loses a count, not a call.
 */
export function callCounter(redis: ReturnType<typeof getRedis> | undefined, now: () => number = Date.now) {
  return {
    /** Resolves when counted (callers need not wait; it never rejects). */
    async count(operation: OperationId): Promise<void> {
      const minute = Math.floor(now() / MINUTE_MS);
      if (redis) {
        const key = minuteKey(operation, minute);
        await redis
          .multi()
          .incr(key)
          .pexpire(key, 3 * MINUTE_MS)
          .exec()
          .catch(() => undefined);
        return;
      }
      const c = localCounts.get(operation);
      if (!c || c.minute < minute)
        localCounts.set(operation, { minute, calls: 1, last: c && c.minute === minute - 1 ? c.calls : 0 });
      else c.calls++;
    },
    /**
     * Calls in the last 60 s: this minute's so far, plus the part of the last minute still inside the window
     * (its calls taken as even over it). A whole-minute count read 0 for up to a minute after the sync began.
     */
    async lastSixtySeconds(operation: OperationId): Promise<number> {
      const t = now();
      const minute = Math.floor(t / MINUTE_MS);
      const [cur, prev] = redis
        ? (await redis.mget(minuteKey(operation, minute), minuteKey(operation, minute - 1))).map((v) => Number(v ?? 0))
        : local(operation, minute);
      return Math.round(cur! + prev! * (1 - (t - minute * MINUTE_MS) / MINUTE_MS));
    },
  };
}

/** This process's counts of this minute and the last. */
function local(operation: OperationId, minute: number): [number, number] {
  const c = localCounts.get(operation);
  if (!c) return [0, 0];
  if (c.minute === minute) return [c.calls, c.last];
  return [0, c.minute === minute - 1 ? c.calls : 0];
}

/** Each job's use of its share over the last 60 s: calls per second against the points per second it may take. */
export async function budgetUse(
  job: string,
  share: number,
  counter = callCounter(getRedis()),
): Promise<{ usedPerSecond: number; allowedPerSecond: number } | null> {
  if (!Object.hasOwn(JOB_OPERATION, job)) return null;
  const operation = JOB_OPERATION[job as SyncJob];
  const calls = await counter.lastSixtySeconds(operation).catch(() => null);
  if (calls === null) return null;
  return { usedPerSecond: Math.round((calls / 60) * 100) / 100, allowedPerSecond: sharePerSecond(operation, share) };
}
