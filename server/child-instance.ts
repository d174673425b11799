import "server-only";
// Test support for the crash suites: an instance of Brokerdesk's code in a child process (forked under tsx
// with the react-server condition) that is sent its configuration, says "started", then reports its progress
// as messages, so a test can kill it with SIGKILL at a moment it chooses and start another on the same database.
import { fork, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { openDb, type Db } from "@/server/db";
import { createTestDatabase, testEngines, type TestDatabase } from "@/server/db/testing";

export type ChildInstance<Progress> = { child: ChildProcess; last: () => Progress | null };

/** Forks `file`, sends it `config` and resolves once it says "started"; a child that fails first rejects. */
export function startChildInstance<Progress>(
  file: string,
  config: unknown,
  startMs: number,
): Promise<ChildInstance<Progress>> {
  const child = fork(file, [], {
    execArgv: ["--conditions=react-server", "--import", "tsx"],
    stdio: ["ignore", "ignore", "pipe", "ipc"],
  });
  let stderr = "";
  let last: Progress | null = null;
  child.stderr?.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2_000)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the instance did not start in ${startMs / 1000} s: ${stderr}`)),
      startMs,
    );
    child.on("message", (m) => {
      if (typeof m === "object" && m !== null) last = m as Progress;
      else if (m === "started") {
        clearTimeout(timer);
        resolve({ child, last: () => last });
      } else reject(new Error(`${String(m)} ${stderr}`));
    });
    child.once("exit", (code) => reject(new Error(`the instance exited (${code}) before it started: ${stderr}`)));
    child.send(config as never);
  });
}

/** Sends `signal` and waits for the exit (at once when the child has already gone). */
export const stopChild = (child: ChildProcess, signal: NodeJS.Signals) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill(signal);
  });

/** Waits until `test` holds, polling every 50 ms; past `ms`, fails saying `what` and the last `state()`. */
export async function until(
  what: string,
  ms: number,
  test: () => boolean,
  state: () => unknown = () => null,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!test()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms / 1000} s (${JSON.stringify(state())})`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The engines a crash suite runs on: PGlite on a data folder always (its files must survive the kill too), and
 * PostgreSQL when the suite is given one. */
export const crashEngines = (url: string | undefined) => [
  { engine: "pglite" as const, label: "PGlite on a data folder" },
  ...testEngines(url)
    .filter((e) => e.engine === "postgres")
    .map((e) => ({ ...e, label: "PostgreSQL" })),
];

/**
 * In a describe block: a database of the suite's own on `engine` (a data folder or a PostgreSQL schema), made
 * before its tests and removed after. `config()` is what a child instance opens; `withDb` opens it here while
 * no instance runs (PGlite has one writer).
 */
export function crashDatabase(engine: ReturnType<typeof crashEngines>[number], prefix: string) {
  let dataDir: string | null = null;
  let tdb: TestDatabase | null = null;
  let config: { url: string } | { dataDir: string };
  beforeAll(async () => {
    if (engine.engine === "postgres") {
      tdb = await createTestDatabase(engine);
      config = { url: tdb.urlFor!("brokerdesk_ci", "brokerdesk_ci") };
    } else {
      dataDir = mkdtempSync(path.join(tmpdir(), prefix));
      config = { dataDir };
    }
  });
  afterAll(async () => {
    await tdb?.dispose();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });
  const withDb = async <T>(fn: (db: Db) => Promise<T>): Promise<T> => {
    const db = tdb ? await tdb.open() : await openDb(config as { dataDir: string });
    try {
      return await fn(db);
    } finally {
      await db.close();
    }
  };
  return { config: () => config, withDb };
}
