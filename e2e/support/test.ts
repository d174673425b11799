// The `test` and `expect` every spec imports (never straight from @playwright/test; eslint enforces it).
// Each worker runs its own Brokerdesk (`app`); automatic fixtures check everything the test's clients received
// against this run's secrets (e2e/support/response-scan.ts): a secret in any form fails the test.
import { test as base, type APIRequestContext } from "@playwright/test";
import { freePort } from "./processes";
import {
  endTestScan,
  endWorkerScan,
  startTestScan,
  startWorkerScan,
  watchBrowser,
  watchContext,
  type SecretScan,
} from "./response-scan";
import { startInstance, type Instance } from "./second-instance";
import { signInApi } from "./staff";

export { scanTallyFile, type SecretScan } from "./response-scan";

export { expect } from "@playwright/test";

/**
 * PLATFORM_TIMEOUT_MS of every worker's Brokerdesk: half the default, so the tests that wait it out (faults, a
 * lost E5 answer) wait 5 s instead of 10; still above the proxy's 3 s queue deadline, and far above a
 * loopback answer.
 */
export const E2E_PLATFORM_TIMEOUT_MS = 5_000;

/**
 * What every worker's Brokerdesk runs with (each worker has its own: e2e/support/test.ts `app`).
 * The ledger's background sync would take fault rules and budget meant for the page under test; its own specs
 * (e2e/ledger*.ui.spec.ts) start an instance with it on.
 */
const WORKER_APP_ENV = {
  PLATFORM_TIMEOUT_MS: String(E2E_PLATFORM_TIMEOUT_MS),
  // Separation of duties' cool-off, seconds long here so the e2e can watch it end (e2e/support/staff.ts).
  APPROVER_COOL_OFF_HOURS: "0.001",
  // An approved address-book entry counts at once here; the lock itself is tested in server/workflows.
  DESTINATION_LOCK_HOURS: "0",
  LEDGER_SYNC: "off",
  // The embedded simulator's "trip" is this machine's event loop, whose delay under the whole suite's load on two
  // cores swings by far more than a network's ±20 ms: a second of slow answers rebased the limiter's arrival
  // floor and the next quick ones reached the platform early (4 of 54 refused in busy.api's run beside other
  // work). The bound the limiter assumes is said as this machine's (server/platform/arrival.ts).
  PLATFORM_JITTER_MS: "100",
};

export const test = base.extend<{ secretScan: SecretScan }, { secretScanWorker: void; app: Instance | null }>({
  // Each worker runs its specs against a Brokerdesk of its own (its own embedded simulator on its own port,
  // its own database), so workers run side by side without sharing fault rules, rate budgets or rows, and a
  // spec file still sees one server from its first test to its last. The "after" project only reads files.
  app: [
    async ({ playwright }, use, workerInfo) => {
      if (workerInfo.project.name === "after") return use(null);
      const simPort = await freePort();
      const app = await startInstance(
        `worker${workerInfo.parallelIndex}`,
        { ...WORKER_APP_ENV, SIM_PORT: String(simPort) },
        120_000,
      );
      // The simulator's control endpoint of this worker (e2e/support/staff.ts simControlUrl).
      process.env.E2E_SIM_PORT = String(simPort);
      process.env.E2E_BASE_URL = app.baseURL;
      // The first sign-in of a fresh server opens its database and prepares the demo staff, which takes
      // longer than a sign-in through the UI waits: done once here, before any spec.
      const warm = await playwright.request.newContext({ baseURL: app.baseURL });
      await signInApi(warm, "broker").catch(async (e: unknown) => {
        await app.stop();
        throw e;
      });
      await warm.dispose();
      await use(app);
      await app.stop();
    },
    { scope: "worker", auto: true, timeout: 180_000 },
  ],
  baseURL: [
    async ({ app, baseURL }, use) => {
      await use(app?.baseURL ?? baseURL);
    },
    { scope: "test" },
  ],
  secretScanWorker: [
    async ({ playwright }, use, workerInfo) => {
      const probe = await playwright.request.newContext();
      startWorkerScan(Object.getPrototypeOf(probe) as APIRequestContext);
      await probe.dispose();
      await use();
      await endWorkerScan(workerInfo.project.name, workerInfo.workerIndex);
    },
    { scope: "worker", auto: true },
  ],
  browser: [
    async ({ browser }, use) => {
      watchBrowser(browser);
      await use(browser);
    },
    { scope: "worker" },
  ],
  context: [
    async ({ context }, use) => {
      watchContext(context);
      await use(context);
    },
    { scope: "test" },
  ],
  secretScan: [
    async ({}, use, testInfo) => {
      await use(startTestScan());
      await endTestScan(testInfo);
    },
    { auto: true },
  ],
});
