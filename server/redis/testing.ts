import "server-only";
// Test support: a real Redis on loopback for the suites that share state through it.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import net from "node:net";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe } from "vitest";

/** A loopback port nothing listens on right now: for the test Redis, and for a client that must find none. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer().once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

export const REDIS_SERVER_BIN = "/usr/bin/redis-server";

export type TestRedis = {
  url: string;
  /** A new client on it (closed by stop()). */
  client(): Redis;
  stop(): Promise<void>;
};

/** True when this machine can run the Redis suites (`.ci/run` installs redis-server from Debian). */
export const redisAvailable = (): boolean => existsSync(REDIS_SERVER_BIN);

/** Starts a private redis-server (no persistence) on a free loopback port. */
export async function startTestRedis(): Promise<TestRedis> {
  const port = await freePort();
  const proc: ChildProcess = spawn(
    REDIS_SERVER_BIN,
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    {
      stdio: "ignore",
    },
  );
  const url = `redis://127.0.0.1:${port}`;
  const clients: Redis[] = [];
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on("error", () => {}); // refused until redis-server listens; the loop below retries
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      await probe.connect();
      await probe.ping();
      break;
    } catch (e) {
      if (Date.now() > deadline) throw new Error(`redis-server did not start on ${port}: ${String(e)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  probe.disconnect();
  return {
    url,
    client() {
      const c = new Redis(url, { maxRetriesPerRequest: 1 });
      clients.push(c);
      return c;
    },
    async stop() {
      for (const c of clients) c.disconnect();
      proc.kill("SIGTERM");
      await new Promise((r) => proc.once("exit", r));
    },
  };
}

/**
 * A test file's own Redis: `run` is `describe` where redis-server is installed or where the caller says it
 * must be (on CI: a missing one fails rather than skips), else `describe.skip`; the server starts before the
 * file's tests and stops after them. `redis()` is it, inside a test.
 */
export function testRedisSuite(required: boolean): {
  run: typeof describe | typeof describe.skip;
  redis: () => TestRedis;
} {
  const on = redisAvailable() || required;
  let redis: TestRedis | undefined;
  beforeAll(async () => {
    if (on) redis = await startTestRedis();
  }, 30_000);
  afterAll(async () => {
    await redis?.stop();
  });
  return {
    run: on ? describe : describe.skip,
    redis: () => {
      if (!redis) throw new Error("the test Redis has not started");
      return redis;
    },
  };
}
