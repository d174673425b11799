import "server-only";
// The sync's share of an operation's rate budget (issue 14: "at most a configured share, default half").
// Every sync call takes a point here first, then goes through the platform client's own limiter like any
// staff call; so the sync never uses more than its share, and the rest is always there for staff. With
// REDIS_URL the share is counted across instances (one budget for all), else in this process.
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract, type RateLimiterRes } from "rate-limiter-flexible";
import { catalog, type OperationId } from "@/lib/platform/catalog";
import { getRedis, REDIS_PREFIX } from "@/server/redis";

export type Budget = () => Promise<void>;

/** Points per second the sync may use of `operation`'s limit: at least one. */
export function sharePerSecond(operation: OperationId, share: number): number {
  const limit = catalog[operation].rateLimit?.count ?? 1;
  return Math.max(1, Math.floor(limit * share));
}

export function syncBudget(operation: OperationId, share: number, opts: { redis?: boolean; signal?: AbortSignal } = {}): Budget {
  const points = sharePerSecond(operation, share);
  const redis = opts.redis === false ? undefined : getRedis();
  const keyPrefix = `ledger-share:${operation}`;
  const limiter: RateLimiterAbstract = redis
    ? new RateLimiterRedis({ storeClient: redis, keyPrefix: `${REDIS_PREFIX}${keyPrefix}`, points, duration: 1 })
    : new RateLimiterMemory({ keyPrefix, points, duration: 1 });
  return async () => {
    for (;;) {
      opts.signal?.throwIfAborted();
      try {
        await limiter.consume("sync");
        return;
      } catch (e) {
        if (e instanceof Error) throw e;
        await new Promise((r) => setTimeout(r, Math.max(5, (e as RateLimiterRes).msBeforeNext)));
      }
    }
  };
}
