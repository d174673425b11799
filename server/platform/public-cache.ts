import "server-only";
import type { Redis } from "ioredis";

/**
 * A short cache for public market answers (E8 market trades, E11 OI limits). Their limits are per
 * egress IP, shared by every staff member and every instance, so fifty people looking at the same
 * symbol must not cost fifty platform requests. Only successful answers are kept, for `ttlMs`
 * (1 s by default: fresher than anyone reads a trade tape), keyed by operation and exact query.
 *
 * In this process identical concurrent calls share one request (single flight). With Redis the
 * answer is also stored there, so the other instances serve it too; a Redis failure only costs the
 * cache, never the call.
 */
export type PublicCacheOptions = { ttlMs: number; redis?: Redis; maxEntries?: number; now?: () => number };

type Entry = { expires: number; value: Promise<unknown> };

export class PublicCache {
  private readonly entries = new Map<string, Entry>();
  private readonly ttlMs: number;
  private readonly redis?: Redis;
  private readonly maxEntries: number;
  private readonly now: () => number;
  /** Counters for tests and the bench: answers served from memory, from Redis, and fetched. */
  readonly stats = { memory: 0, redis: 0, fetched: 0 };

  constructor(opts: PublicCacheOptions) {
    this.ttlMs = opts.ttlMs;
    this.redis = opts.redis;
    this.maxEntries = opts.maxEntries ?? 1_000;
    this.now = opts.now ?? Date.now;
  }

  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  /** The cached answer for `key`, or `fetch()`'s (stored only if it succeeds). */
  async get<T>(key: string, fetch: () => Promise<T>): Promise<{ value: T; cached: boolean }> {
    const now = this.now();
    const hit = this.entries.get(key);
    if (hit && hit.expires > now) {
      this.stats.memory++;
      return { value: (await hit.value) as T, cached: true };
    }
    let cached = false;
    const value = (async () => {
      const shared = await this.readShared<T>(key);
      if (shared !== undefined) {
        cached = true;
        this.stats.redis++;
        return shared;
      }
      this.stats.fetched++;
      const fresh = await fetch();
      await this.writeShared(key, fresh);
      return fresh;
    })();
    this.put(key, { expires: now + this.ttlMs, value });
    try {
      return { value: await value, cached };
    } catch (e) {
      // A failure is never served to the next caller.
      if (this.entries.get(key)?.value === value) this.entries.delete(key);
      throw e;
    }
  }

  private put(key: string, entry: Entry): void {
    if (this.entries.size >= this.maxEntries) {
      const now = this.now();
      for (const [k, v] of this.entries) if (v.expires <= now) this.entries.delete(k);
      // Still full of live entries: drop the oldest (Map keeps insertion order).
      while (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    }
    this.entries.delete(key);
    this.entries.set(key, entry);
  }

  private async readShared<T>(key: string): Promise<T | undefined> {
    if (!this.redis) return undefined;
    try {
      const raw = await this.redis.get(redisKey(key));
      return raw === null ? undefined : (JSON.parse(raw) as T);
    } catch {
      return undefined;
    }
  }

  private async writeShared(key: string, value: unknown): Promise<void> {
    if (!this.redis) return;
    try {
      await this.redis.set(redisKey(key), JSON.stringify(value), "PX", this.ttlMs);
    } catch {
      // The cache is an optimisation; the answer is still good.
    }
  }
}

const redisKey = (key: string) => `bd:pc:${key}`;
