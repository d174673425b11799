import { defineConfig } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { OWN_SYNCED, SYNCED_SPECS } from "./e2e/support/synced-instance";

// Fresh, distinctive secrets each run (the embedded simulator takes the platform key as its main key), so
// e2e/secrets.after.spec.ts can prove none reached the browser, the static files or the server log.
// Generated once in the runner; workers load this file again and inherit them through process.env.
const REPORTS = fileURLToPath(new URL("./reports", import.meta.url));
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
    // The master secret of sub-account keys held in the database, and the secret of a key a spec adds on
    // /admin/keys (e2e/subaccount-keys.ui.spec.ts): neither may come back out.
    KEY_SEALING_SECRET: secret("keysealing"),
    SUBACCOUNT_KEY_SECRET: secret("subkeysecret"),
  });
  process.env.E2E_RUN_ID = randomBytes(8).toString("hex");
  rmSync(path.join(REPORTS, "e2e-secret-scan.jsonl"), { force: true });
}
process.env.E2E_REPORTS_DIR = REPORTS;

// Each worker starts a Brokerdesk of its own from the build (e2e/support/test.ts, fixture `app`), so workers never
// share a server. A ui worker's Chromium and server keep one and a half cores busy, the api worker's a fraction
// of one; three workers at once on the 2-core CI machine (load 9-10) pushed page loads past their timeouts.
// So: one worker per two cores, plus one. The api project takes one of them while it runs (its 233 tests end
// in the first 5 minutes); then the ui project has them all. On 2 cores that is one ui worker beside the api
// one, then two ui workers: 16.1 min for the suite, where a lone ui worker had taken 20.8 (that run still with
// bcrypt at cost 12, now 4: e2e/support/second-instance.ts). E2E_WORKERS sets the total.
// Measured again with bcrypt at 4: the run is CPU-bound (vmstat: 0 % idle throughout); three workers took as long
// as two (1,072 s against 1,099 s) and session-limits' idle test failed on a slow navigation (docs/testing.md).
const WORKERS = Number(process.env.E2E_WORKERS ?? Math.floor(availableParallelism() / 2) + 1);

/**
 * Chromium's features this run turns off: Playwright's own list (playwright-core's chromiumSwitches.ts, read from
 * its bundle; Chromium honours only the last --disable-features switch, so ours must repeat it) and the omnibox
 * popup's WebUI. Chromium 156 starts a renderer for that popup (chrome://omnibox-popup.top-chrome/) with every
 * browser context, a window nobody sees in headless mode: about 0.7 s of CPU each, for every test's context.
 * Without Playwright's list (its bundle changed shape) nothing is added: a slower run, never a different one.
 */
function disabledFeatures(): string[] {
  try {
    const core = path.dirname(createRequire(import.meta.url).resolve("playwright-core/package.json"));
    const bundle = readFileSync(path.join(core, "lib", "coreBundle.js"), "utf8");
    const list = /disabledFeatures = \[([\s\S]*?)\]/.exec(bundle)?.[1];
    const own = [...(list ?? "").matchAll(/"(\w+)"/g)].map((m) => m[1]!);
    return own.length ? [`--disable-features=${[...own, "WebUIOmniboxPopup", "WebUIOmniboxAimPopup"].join(",")}`] : [];
  } catch {
    return [];
  }
}

/** The ui specs that use an instance with the sync on (e2e/support/synced-instance.ts), by file name. */
const SYNCED_UI_SPECS = new RegExp(
  `[/\\\\](${[...SYNCED_SPECS, ...Object.keys(OWN_SYNCED)].join("|")})\\.ui\\.spec\\.ts$`,
);

export default defineConfig({
  testDir: "./e2e",
  // Made once for the run: the embedded database's migrated template, and the instance with the ledger's sync on
  // that the ledger, layout and monitoring specs share (e2e/support/global-setup.ts).
  globalSetup: "./e2e/support/global-setup.ts",
  fullyParallel: false,
  workers: WORKERS,
  retries: 0,
  timeout: 60_000,
  // A web-first assertion waits up to 10 s (Playwright's default is 5 s): on a 2-core CI machine a page
  // answer can stall for a few seconds (a GC, the embedded database), and a passing test never waits
  // longer for it. Deadlines the suite does test (PLATFORM_TIMEOUT_MS, session expiry) are timed there.
  expect: { timeout: 10_000 },
  reporter: [["list"], ["json", { outputFile: "reports/e2e.json" }]],
  use: {
    // A trace's screencast took half of Chromium's CPU (shell.ui: 1.65 min with it, 1.3 with DOM snapshots only,
    // 1.2 with none). CI, on a 2-core machine with a 30-minute bound, records none; rerun a failure locally.
    trace: process.env.CI ? "off" : { mode: "retain-on-failure", screenshots: false, snapshots: true, sources: true },
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
        ...disabledFeatures(),
      ],
    },
  },
  projects: [
    { name: "api", testMatch: /.*\.api\.spec\.ts/, workers: 1 },
    // The specs on an instance with the ledger's sync on, before every other ui spec (Playwright hands out a
    // phase's files in the order of its projects): the global set-up starts those instances, and one synced and
    // idle polls its queues every second, about a tenth of a core. In file order they ran from 317 s to 759 s of
    // the run, their three instances idle until then (docs/testing.md).
    { name: "synced", testMatch: SYNCED_UI_SPECS, use: { browserName: "chromium" } },
    { name: "ui", testMatch: /.*\.ui\.spec\.ts/, testIgnore: SYNCED_UI_SPECS, use: { browserName: "chromium" } },
    // Scans the build's static files and the server log once the other projects are done.
    { name: "after", testMatch: /.*\.after\.spec\.ts/, dependencies: ["api", "synced", "ui"] },
  ],
});
