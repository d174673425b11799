// One Brokerdesk with the ledger's sync on, shared by the specs that need a synced ledger (layout-stability,
// monitoring, ledger, ledger-trades). The sync of a fresh instance waits on the simulator's rate limits for
// 20-45 s; each of those specs used to start its own and wait it out. The run's global set-up
// (e2e/support/global-setup.ts) starts this one before the first spec, so it syncs while other specs run, and
// stops it at the end. Each spec still waits, off the clock, for the state it needs. A spec run without it
// (an older set-up, a run of the api project alone) starts its own, as before.
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
export const SYNCED_SPECS = ["layout-stability", "monitoring", "ledger", "ledger-trades"];

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
