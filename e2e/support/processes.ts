// Processes a multi-instance test starts itself: redis-server, a standalone simulator, `next start`.
import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync } from "node:fs";
import net from "node:net";
import path from "node:path";

export const REDIS_SERVER_BIN = "/usr/bin/redis-server";

export type Proc = { name: string; url: string; proc: ChildProcess; stop(): Promise<void> };

/** A loopback port nothing listens on right now (the e2e suites, the Redis test support and the benchmarks). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** Starts `command args` with its output in reports/<name>.log; stop() ends it (SIGTERM, then SIGKILL). */
export function startProcess(name: string, url: string, command: string, args: string[], env: NodeJS.ProcessEnv): Proc {
  mkdirSync("reports", { recursive: true });
  const log = createWriteStream(path.join("reports", `${name}.log`));
  const proc = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  proc.stdout?.pipe(log);
  proc.stderr?.pipe(log);
  return {
    name,
    url,
    proc,
    async stop() {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise((r) => proc.once("exit", r));
      try {
        process.kill(-proc.pid!, "SIGTERM"); // the whole group: npx/node children too
      } catch {
        return;
      }
      const killer = setTimeout(() => {
        try {
          process.kill(-proc.pid!, "SIGKILL");
        } catch {
          /* already gone */
        }
      }, 5_000);
      await exited;
      clearTimeout(killer);
    },
  };
}

/** Polls `check` until it resolves true, or fails after `ms` naming `what`. */
export async function waitUntil(what: string, check: () => Promise<boolean>, ms = 60_000, proc?: Proc): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (proc && proc.proc.exitCode !== null)
      throw new Error(`${what}: the process exited with ${proc.proc.exitCode} (see reports/${proc.name}.log)`);
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what}: not ready after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** A private redis-server on loopback, no persistence; on `port` when given (a restart keeps its address). */
export async function startRedis(port?: number, name = "scale-redis"): Promise<Proc> {
  if (!existsSync(REDIS_SERVER_BIN))
    throw new Error(`${REDIS_SERVER_BIN} is missing: apt-get install redis-server (.ci/run does)`);
  port ??= await freePort();
  const p = startProcess(
    name,
    `redis://127.0.0.1:${port}`,
    REDIS_SERVER_BIN,
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    process.env,
  );
  await waitUntil("redis-server", () => pingRedis(port), 10_000, p);
  return p;
}

function pingRedis(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, "127.0.0.1");
    s.once("error", () => resolve(false));
    s.once("connect", () => s.write("PING\r\n"));
    s.once("data", (d) => {
      resolve(d.toString().startsWith("+PONG"));
      s.destroy();
    });
  });
}
