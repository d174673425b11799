// One Brokerdesk with the ledger's sync on, shared by the specs that need a synced ledger (monitoring, ledger,
// ledger-trades; layout-stability and monitoring-evidence keep one each, below, since each needs a queue or a
// rule no other spec sees). The sync of a fresh instance waits on the simulator's rate limits for 20-45 s; each of
// those specs used to start its own and wait it out. The run's global set-up (e2e/support/global-setup.ts) starts
// this one and the two specs' own before the first spec, so they sync while other specs run, and stops them at
// the end. Each spec still waits, off the clock, for the state it needs. A spec run without the set-up (an older
// set-up, a run of the api project alone) starts its own.
import { isHealthy, launchInstance, startInstance, type Instance } from "./second-instance";

/** What the shared instance runs with: every setting one of its specs asked for. */
export const SYNCED_APP_ENV = {
  LEDGER_SYNC: "on",
  LEDGER_SYNC_SHARE: "1",
  LEDGER_SWEEP_SECONDS: "1",
  LEDGER_TRADE_KEYS: "main",
  LEDGER_PLAN_SYMBOLS: "BTCUSDT",
};

/** The specs that use it: the global set-up starts it only when the run may include one of them. */
export const SYNCED_SPECS = ["monitoring", "ledger", "ledger-trades"];

/** The evidence spec's own instance: the sync on, trades not synced. */
export const EVIDENCE_APP_ENV = { LEDGER_SYNC: "on", LEDGER_SYNC_SHARE: "1", LEDGER_SWEEP_SECONDS: "1" };

/**
 * Instances one spec keeps to itself (it needs a queue or a rule no other spec sees), started by the global set-up
 * like the shared one, so their sync (20-45 s on the simulator's rate limits) runs while other specs do, not in the
 * spec's beforeAll; the spec stops its own when it ends. Each by the spec that uses it.
 */
export const OWN_SYNCED = {
  "layout-stability": { name: "layout", env: SYNCED_APP_ENV },
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

/** Where the global set-up tells the workers its address (inherited through the environment). */
const URL_VAR = "E2E_SYNCED_BASE_URL";

/** Starts the shared instance (the global set-up's part) without waiting for it: the specs do. */
export async function launchSyncedInstance(): Promise<Instance> {
  const { healthy, ...instance } = await launchInstance("synced", SYNCED_APP_ENV, 180_000);
  process.env[URL_VAR] = instance.baseURL;
  // A start that fails shows in the first spec that waits for it, with the log's address.
  void healthy;
  return instance;
}

/**
 * The shared synced instance for a spec's beforeAll, once it answers; its stop() leaves the shared one running
 * (the global set-up stops it) and stops one the spec had to start itself.
 */
export async function syncedInstance(timeoutMs = 180_000): Promise<Instance> {
  const baseURL = process.env[URL_VAR];
  if (!baseURL) return startInstance("synced-own", SYNCED_APP_ENV, 120_000);
  const deadline = Date.now() + timeoutMs;
  while (!(await isHealthy(baseURL))) {
    if (Date.now() > deadline)
      throw new Error(`the shared synced instance (${baseURL}) did not answer: see reports/e2e-server-synced.log`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return { baseURL, logFile: "e2e-server-synced.log", stop: async () => undefined };
}
