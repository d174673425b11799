import { defineConfig } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

// Each run gets its own ports and a fresh embedded database, so runs never share state.
const PORT = Number(process.env.E2E_PORT ?? 3100);
const SIM_PORT = Number(process.env.E2E_SIM_PORT ?? PORT + 1010);
const DATA_DIR = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(tmpdir(), "brokerdesk-e2e-"));
process.env.E2E_DATA_DIR = DATA_DIR;
process.env.E2E_SIM_PORT = String(SIM_PORT);
const baseURL = `http://127.0.0.1:${PORT}`;

// Fresh, distinctive secrets each run (the embedded simulator takes the platform key as its main key), so
// e2e/secrets.after.spec.ts can prove none reached the browser, the static files or the server log.
// Generated once in the runner; workers load this file again and inherit them through process.env.
const REPORTS = fileURLToPath(new URL("./reports", import.meta.url));
const SERVER_LOG = path.join(REPORTS, "e2e-server.log");
mkdirSync(REPORTS, { recursive: true });
if (!process.env.E2E_SECRETS) {
  // "+" and "/" always present, so URL-encoding changes every value and the encoded forms are checked too.
  const secret = (label: string) => `e2e+${label}/${randomBytes(27).toString("base64")}`;
  process.env.E2E_SECRETS = JSON.stringify({
    PLATFORM_API_KEY: secret("apikey"),
    PLATFORM_API_SECRET: secret("apisecret"),
    PLATFORM_API_PASSPHRASE: secret("passphrase"),
    NEXTAUTH_SECRET: secret("sessionsecret"),
    METRICS_TOKEN: secret("metricstoken"),
  });
  process.env.E2E_RUN_ID = randomBytes(8).toString("hex");
  rmSync(path.join(REPORTS, "e2e-secret-scan.jsonl"), { force: true });
}
process.env.E2E_REPORTS_DIR = REPORTS;
process.env.E2E_SERVER_LOG = SERVER_LOG;
const secrets = JSON.parse(process.env.E2E_SECRETS) as Record<string, string>;

export default defineConfig({
  testDir: "./e2e",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  // A web-first assertion waits up to 10 s (Playwright's default is 5 s): on a 2-core CI machine a page
  // answer can stall for a few seconds (a GC, the embedded database), and a passing test never waits
  // longer for it. Deadlines the suite does test (PLATFORM_TIMEOUT_MS, session expiry) are timed there.
  expect: { timeout: 10_000 },
  reporter: [["list"], ["json", { outputFile: "reports/e2e.json" }]],
  use: {
    baseURL,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: [
        "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-quic",
      ],
    },
  },
  projects: [
    { name: "setup", testMatch: /warm-up\.setup\.ts/ },
    { name: "api", testMatch: /.*\.api\.spec\.ts/, dependencies: ["setup"] },
    { name: "ui", testMatch: /.*\.ui\.spec\.ts/, use: { browserName: "chromium" }, dependencies: ["setup"] },
    // Scans the build's static files and the server log once both projects are done.
    { name: "after", testMatch: /.*\.after\.spec\.ts/, dependencies: ["api", "ui"] },
  ],
  webServer: {
    // `next build` runs first (npm run test:e2e); this only starts the built app.
    // stdout goes to the log; stderr to the log and on to Playwright's console (as before).
    command: `: > ${JSON.stringify(SERVER_LOG)} && (node server/front-door.mjs 2>&1 1>&3 | tee -a ${JSON.stringify(SERVER_LOG)} >&2) 3>>${JSON.stringify(SERVER_LOG)}`,
    url: `${baseURL}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: { ...secrets, NODE_ENV: "production", PORT: String(PORT), HOST: "127.0.0.1", SIM_PORT: String(SIM_PORT), DATA_DIR,
      // Separation of duties' cool-off, seconds long here so the e2e can watch it end (e2e/support/staff.ts).
      APPROVER_COOL_OFF_HOURS: "0.001",
      // The ledger's background sync would take fault rules and budget meant for the page under test; its
      // own spec (e2e/ledger.ui.spec.ts) runs an instance with it on.
      LEDGER_SYNC: "off", NEXTAUTH_URL: baseURL, LOG_LEVEL: "info" },
  },
});
