// One Brokerdesk with the ledger's sync on, shared by the specs that need a synced ledger (monitoring, ledger,
// ledger-trades; layout-stability and monitoring-evidence keep one each, below, since each needs a queue or a
// rule no other spec sees). The sync of a fresh instance waits on the simulator's rate limits for 20-45 s; each of
// those specs used to start its own and wait it out. The run's global set-up (e2e/support/global-setup.ts) starts
// this one and the two specs' own before the first spec, so they sync while other specs run; each spec stops its
// own, the last of the shared one's specs stops that one, and the set-up's teardown whatever is left. Each spec
// still waits, off the clock, for the state it needs. A spec run without the set-up (an older set-up, a run of
// the api project alone) starts its own.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { isHealthy, launchInstance, startInstance, type Instance } from "./second-instance";

/**
 * What the shared instance runs with: every setting one of its specs asked for, and the demo's monitoring rules,
 * as `npm start` makes them (the monitoring spec checks what a newcomer sees, and works the demo's pass-through).
 */
export const SYNCED_APP_ENV = {
  LEDGER_SYNC: "on",
  LEDGER_SYNC_SHARE: "1",
  LEDGER_SWEEP_SECONDS: "1",
  LEDGER_TRADE_KEYS: "main",
  LEDGER_PLAN_SYMBOLS: "BTCUSDT",
  MONITORING_DEMO_RULES: "on",
};
/** The layout spec's own: the shared one's settings without the demo's rules (it makes the one it needs). */
const LAYOUT_APP_ENV = { ...SYNCED_APP_ENV, MONITORING_DEMO_RULES: "off" };

/** The specs that use it: the global set-up starts it only when the run may include one of them. */
export const SYNCED_SPECS = ["monitoring", "ledger", "ledger-trades"] as const;
export type SyncedSpec = (typeof SYNCED_SPECS)[number];

/** The evidence spec's own instance: the sync on, trades not synced. */
export const EVIDENCE_APP_ENV = { LEDGER_SYNC: "on", LEDGER_SYNC_SHARE: "1", LEDGER_SWEEP_SECONDS: "1" };

/**
 * Instances one spec keeps to itself (it needs a queue or a rule no other spec sees), started by the global set-up
 * like the shared one, so their sync (20-45 s on the simulator's rate limits) runs while other specs do, not in the
 * spec's beforeAll; the spec stops its own when it ends. Each by the spec that uses it.
 */
export const OWN_SYNCED = {
  "layout-stability": { name: "layout", env: LAYOUT_APP_ENV },
  "monitoring-evidence": { name: "evidence", env: EVIDENCE_APP_ENV },
} as const;
export type OwnSyncedSpec = keyof typeof OWN_SYNCED;

const ownVars = (spec: OwnSyncedSpec) => {
  const key = OWN_SYNCED[spec].name.toUpperCase();
  return { url: `E2E_${key}_BASE_URL`, pid: `E2E_${key}_PID` };
};

/** Starts the instance of `spec` (the global set-up's part) without waiting: the spec does. */
export async function launchOwnSyncedInstance(spec: OwnSyncedSpec): Promise<Instance> {
  const { name, env } = OWN_SYNCED[spec];
  const { healthy, pid, ...instance } = await launchInstance(name, env, 180_000);
  process.env[ownVars(spec).url] = instance.baseURL;
  process.env[ownVars(spec).pid] = String(pid ?? "");
  void healthy;
  return instance;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * The instance of `spec` for its beforeAll, once it answers: the one the global set-up started, or, without it
 * (a run without the set-up, or a fresh worker after a failed test, when the first was stopped), one of its own.
 * Its stop() ends either.
 */
export async function ownSyncedInstance(spec: OwnSyncedSpec, timeoutMs = 180_000): Promise<Instance> {
  const { name, env } = OWN_SYNCED[spec];
  const baseURL = process.env[ownVars(spec).url];
  const pid = Number(process.env[ownVars(spec).pid]);
  if (!baseURL || !(pid > 0) || !alive(pid)) return startInstance(`${name}-own`, env, 120_000);
  const logFile = `e2e-server-${name}.log`;
  const deadline = Date.now() + timeoutMs;
  while (!(await isHealthy(baseURL))) {
    if (Date.now() > deadline || !alive(pid))
      throw new Error(`the ${name} instance (${baseURL}) did not answer: see reports/${logFile}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  // The global set-up's teardown removes its data folder; the spec ends the server (its process group) now.
  const stop = async () => {
    try {
      process.kill(-pid, "SIGTERM");
    } catch {
      // already gone
    }
  };
  return { baseURL, logFile, stop };
}

/** Where the global set-up tells the workers its address, process and users (inherited through the environment). */
const URL_VAR = "E2E_SYNCED_BASE_URL";
const PID_VAR = "E2E_SYNCED_PID";
const USERS_VAR = "E2E_SYNCED_USERS";
const DONE_VAR = "E2E_SYNCED_DONE_DIR";

/**
 * Starts the shared instance (the global set-up's part) without waiting for it: the specs do. `users` are the
 * specs of this run that may use it: once each has ended, the last one stops it (an idle instance with the sync
 * on polls its queues every second, about a tenth of a core on the 2-core CI machine, for the rest of the run).
 */
export async function launchSyncedInstance(users: readonly string[]): Promise<Instance> {
  const { healthy, pid, ...instance } = await launchInstance("synced", SYNCED_APP_ENV, 180_000);
  process.env[URL_VAR] = instance.baseURL;
  process.env[PID_VAR] = String(pid ?? "");
  process.env[USERS_VAR] = users.join(",");
  process.env[DONE_VAR] = mkdtempSync(path.join(tmpdir(), "brokerdesk-e2e-synced-done-"));
  // A start that fails shows in the first spec that waits for it, with the log's address.
  void healthy;
  const done = process.env[DONE_VAR];
  return {
    ...instance,
    stop: async () => {
      await instance.stop();
      rmSync(done, { recursive: true, force: true });
    },
  };
}

/**
 * Marks `spec` done with the shared instance; when every user of this run is, stops it. A spec whose remaining
 * tests run again in a fresh worker (after a failure) finds it stopped and starts its own (syncedInstance).
 */
function leaveShared(spec: SyncedSpec): void {
  const done = process.env[DONE_VAR];
  const pid = Number(process.env[PID_VAR]);
  if (!done || !existsSync(done) || !(pid > 0)) return;
  writeFileSync(path.join(done, spec), "");
  const users = (process.env[USERS_VAR] ?? "").split(",").filter(Boolean);
  if (!users.every((u) => existsSync(path.join(done, u)))) return;
  try {
    process.kill(-pid, "SIGTERM");
  } catch {
    // already gone
  }
}

/**
 * The shared synced instance for the beforeAll of `spec`, once it answers; its stop() tells the shared one that
 * `spec` is done with it (the last of its users stops it; the global set-up's teardown stops it otherwise) and
 * stops one the spec had to start itself.
 */
export async function syncedInstance(spec: SyncedSpec, timeoutMs = 180_000): Promise<Instance> {
  const baseURL = process.env[URL_VAR];
  const pid = Number(process.env[PID_VAR]);
  if (!baseURL || (pid > 0 && !alive(pid))) return startInstance("synced-own", SYNCED_APP_ENV, 120_000);
  const deadline = Date.now() + timeoutMs;
  while (!(await isHealthy(baseURL))) {
    if (Date.now() > deadline)
      throw new Error(`the shared synced instance (${baseURL}) did not answer: see reports/e2e-server-synced.log`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return { baseURL, logFile: "e2e-server-synced.log", stop: async () => leaveShared(spec) };
}
