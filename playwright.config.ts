import { defineConfig } from "@playwright/test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

// Each run gets its own ports and a fresh embedded database, so runs never share state.
const PORT = Number(process.env.E2E_PORT ?? 3100);
const SIM_PORT = Number(process.env.E2E_SIM_PORT ?? PORT + 1010);
const DATA_DIR = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(tmpdir(), "brokerdesk-e2e-"));
process.env.E2E_DATA_DIR = DATA_DIR;
process.env.E2E_SIM_PORT = String(SIM_PORT);
const baseURL = `http://127.0.0.1:${PORT}`;

export default defineConfig({
  testDir: "./e2e",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
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
    { name: "api", testMatch: /.*\.api\.spec\.ts/ },
    { name: "ui", testMatch: /.*\.ui\.spec\.ts/, use: { browserName: "chromium" } },
  ],
  webServer: {
    // `next build` runs first (npm run test:e2e); this only starts the built app.
    command: `npx next start -p ${PORT} -H 127.0.0.1`,
    url: `${baseURL}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: { NODE_ENV: "production", SIM_PORT: String(SIM_PORT), DATA_DIR, NEXTAUTH_URL: baseURL, LOG_LEVEL: "warn" },
  },
});
