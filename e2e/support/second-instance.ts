// A second Brokerdesk from the same build, for tests that must not touch the main run's server: short
// session limits, or locking accounts out. Own port, own embedded simulator (free port), own temporary
// database, the run's secrets (so the secret checks cover it too) and its log under reports/.
import { spawn } from "node:child_process";
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { seedDataDir } from "./pglite-template";
import { freePort } from "./processes";
import { secretsOfThisRun } from "./secrets";

export type Instance = { baseURL: string; logFile: string; stop(): Promise<void> };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Starts the built app (server/front-door.mjs) with `env` on a free port and waits until /api/health answers 200. */
export async function startInstance(name: string, env: Record<string, string>, timeoutMs = 60_000): Promise<Instance> {
  const { healthy, ...instance } = await launchInstance(name, env, timeoutMs);
  await healthy;
  return instance;
}

/**
 * Starts the built app as startInstance does, without waiting: `healthy` settles when /api/health answers 200
 * (or rejects, the instance stopped, when it exits first or is not healthy within `timeoutMs`).
 */
export async function launchInstance(
  name: string,
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<Instance & { healthy: Promise<void>; pid: number | undefined }> {
  const reports = process.env.E2E_REPORTS_DIR ?? path.resolve("reports");
  const root = path.dirname(reports);
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), `brokerdesk-e2e-${name}-`));
  // The run's migrated embedded database, when the global set-up made one (e2e/support/pglite-template.ts).
  if (!env.DATABASE_URL) seedDataDir(dataDir);
  const logFile = path.join(reports, `e2e-server-${name}.log`);
  // One log per run: a failed test's fresh worker starts a fresh instance, whose lines are added.
  const header = `# e2e run ${process.env.E2E_RUN_ID ?? "?"}\n`;
  const sameRun = existsSync(logFile) && readFileSync(logFile, "utf8").startsWith(header);
  const log = openSync(logFile, sameRun ? "a" : "w");
  if (!sameRun) writeSync(log, header);
  const child = spawn(process.execPath, ["server/front-door.mjs"], {
    cwd: root,
    env: {
      ...process.env,
      ...secretsOfThisRun(),
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      SIM_PORT: "0",
      DATA_DIR: dataDir,
      NEXTAUTH_URL: baseURL,
      LOG_LEVEL: "info",
      LEDGER_SYNC: "off",
      // A clean slate: no monitoring rule until a spec makes one (npm start's demo rules are on in simulator mode;
      // the shared synced instance turns them on, e2e/support/synced-instance.ts).
      MONITORING_DEMO_RULES: "off",
      // Nor a demo sub-account key (npm start mints a few hundred): a spec adds the keys it needs on /admin/keys.
      DEMO_SUBACCOUNT_KEYS: "0",
      // The generated deposits of the simulator's last 30 minutes settle at start, not mid-run, so no balance a
      // test asserts on moves under it (one credited desk01 during a withdrawal test: a debit of -7513.26 for 2.5).
      SIM_DEPOSIT_SETTLE_MS: "0",
      // bcrypt at its cheapest (simulator mode only, lib/env.js): the suite signs in hundreds of times, and at the
      // production cost each sign-in is a third of a second of the server's CPU.
      PASSWORD_HASH_COST: "4",
      ...env,
    },
    // Its own process group, so stop() ends the server and anything it started.
    detached: true,
    stdio: ["ignore", log, log],
  });
  closeSync(log);
  let exited: number | string | null = null;
  child.once("exit", (code, signal) => (exited = code ?? signal ?? "exit"));

  const stop = async () => {
    if (exited === null && child.pid) {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        // already gone
      }
      for (let i = 0; i < 50 && exited === null; i++) await sleep(100);
      if (exited === null) {
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {
          // already gone
        }
      }
    }
    rmSync(dataDir, { recursive: true, force: true });
  };

  const deadline = Date.now() + timeoutMs;
  const logTail = () => readFileSync(logFile, "utf8").slice(-2000);
  const healthy = (async () => {
    for (;;) {
      if (exited !== null) {
        await stop();
        throw new Error(`The ${name} instance exited (${exited}) before it was healthy:\n${logTail()}`);
      }
      if (await isHealthy(baseURL)) return;
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`The ${name} instance was not healthy within ${timeoutMs} ms:\n${logTail()}`);
      }
      await sleep(250);
    }
  })();
  // Whoever starts it waits on `healthy`; a failure is theirs to report, not an unhandled rejection here.
  healthy.catch(() => undefined);
  return { baseURL, logFile, stop, healthy, pid: child.pid };
}

/** Whether the instance at `baseURL` answers its health check with 200. */
export const isHealthy = (baseURL: string): Promise<boolean> =>
  fetch(`${baseURL}/api/health`).then(
    (r) => r.ok,
    () => false,
  );
