import "server-only";
import type { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from "rate-limiter-flexible";
import { getRedis, REDIS_PREFIX } from "@/server/redis";

/**
 * The one answer to every failed sign-in: wrong e-mail, wrong password, disabled account or throttled.
 * Telling them apart would let an attacker list staff e-mails or learn when to retry.
 */
export const SIGN_IN_FAILED_MESSAGE =
  "E-mail or password is wrong, or there were too many attempts: wait and try again.";

export const THROTTLE_LIMITS = Object.freeze({
  /** Failures per account (per e-mail typed, known or not) within the window. */
  accountFailures: 5,
  /** Failures per client IP within the window: one address guessing across many accounts. */
  ipFailures: 20,
  windowSeconds: 15 * 60,
});

export type SignInThrottle = {
  /** True when either the account or the IP has used up its failures in the current window. */
  isBlocked(email: string, ip: string | null): Promise<boolean>;
  recordFailure(email: string, ip: string | null): Promise<void>;
  /** A correct password clears the account's count (not the IP's: one valid account must not launder guesses). */
  recordSuccess(email: string): Promise<void>;
};

type Limits = { accountFailures: number; ipFailures: number; windowSeconds: number };

/**
 * Failure counters. With `redis` (REDIS_URL) they live in Redis, so every instance sees the same counts
 * and N instances do not allow N times the guesses; while Redis is unreachable each instance falls back
 * to its own in-memory counters (rate-limiter-flexible's insurance limiter) rather than refusing every
 * sign-in. Without Redis they are in-process, which is right for one instance.
 */
export function buildSignInThrottle(limits: Limits = THROTTLE_LIMITS, redis?: Redis, name = "signin"): SignInThrottle {
  const store = (keyPrefix: string, points: number): RateLimiterAbstract => {
    const memory = new RateLimiterMemory({ keyPrefix, points, duration: limits.windowSeconds });
    if (!redis) return memory;
    return new RateLimiterRedis({
      storeClient: redis,
      keyPrefix: `${REDIS_PREFIX}${keyPrefix}`,
      points,
      duration: limits.windowSeconds,
      insuranceLimiter: memory,
    });
  };
  const account = store(`${name}-account`, limits.accountFailures);
  const byIp = store(`${name}-ip`, limits.ipFailures);
  const accountKey = (email: string) => email.trim().toLowerCase();

  return {
    async isBlocked(email, ip) {
      const [a, i] = await Promise.all([account.get(accountKey(email)), ip ? byIp.get(ip) : Promise.resolve(null)]);
      return (a?.consumedPoints ?? 0) >= limits.accountFailures || (i?.consumedPoints ?? 0) >= limits.ipFailures;
    },
    async recordFailure(email, ip) {
      // penalty() counts without rejecting: isBlocked() is the gate, checked before any password work.
      await account.penalty(accountKey(email), 1);
      if (ip) await byIp.penalty(ip, 1);
    },
    async recordSuccess(email) {
      await account.delete(accountKey(email));
    },
  };
}

// One per process, shared by every route bundle (Next compiles routes separately).
const GLOBAL_KEY = Symbol.for("brokerdesk.sign-in-throttle");
type ThrottleGlobal = typeof globalThis & { [GLOBAL_KEY]?: SignInThrottle };

export function getSignInThrottle(): SignInThrottle {
  const g = globalThis as ThrottleGlobal;
  return (g[GLOBAL_KEY] ??= buildSignInThrottle(THROTTLE_LIMITS, getRedis()));
}

/**
 * Wrong second factors (TOTP codes, recovery codes, passkey assertions): counted apart from passwords, by user id and
 * IP.
 */
export const FACTOR_THROTTLE_LIMITS = Object.freeze({ accountFailures: 5, ipFailures: 20, windowSeconds: 15 * 60 });
const FACTOR_KEY = Symbol.for("brokerdesk.factor-throttle");
type FactorThrottleGlobal = typeof globalThis & { [FACTOR_KEY]?: SignInThrottle };

export function getFactorThrottle(): SignInThrottle {
  const g = globalThis as FactorThrottleGlobal;
  return (g[FACTOR_KEY] ??= buildSignInThrottle(FACTOR_THROTTLE_LIMITS, getRedis(), "factor"));
}
