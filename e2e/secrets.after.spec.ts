// Runs after the api and ui projects (playwright.config.ts, project "after"): none of this run's secrets
// (fresh random values, e2e/support/secrets.ts) may be in the build's static files or the server's log,
// and the response check of e2e/support/test.ts must have seen real traffic, so no part passes vacuously.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  describeFindings,
  filesUnder,
  findSecrets,
  needlesOf,
  scanFiles,
  secretsOfThisRun,
  SECRET_NAMES,
  type Secrets,
} from "./support/secrets";
import { expect, scanTallyFile, test } from "./support/test";
import { SIMULATOR_DEMO_KEY } from "../lib/env";

const STATIC_DIR = path.resolve(".next", "static");

function serverLogs(): string[] {
  const dir = process.env.E2E_REPORTS_DIR ?? path.resolve("reports");
  return readdirSync(dir)
    .filter((f) => /^e2e-server.*\.log$/.test(f))
    .map((f) => path.join(dir, f));
}

test("[secrets][self-test] the scanner finds a planted secret in every encoding, and nothing in clean text", () => {
  const planted: Secrets = {
    PLATFORM_API_KEY: "planted-apikey-Zm9vYmFy+/0123456789abcdefABCDEF",
    PLATFORM_API_SECRET: "planted-apisecret-q/w+e=r&t?y#u 0123456789",
    PLATFORM_API_PASSPHRASE: "planted-passphrase-0123456789-abcdefghij",
    NEXTAUTH_SECRET: "planted-sessionsecret-0123456789-abcdefghijklmnop",
    METRICS_TOKEN: "planted-metricstoken-0123456789-abcdefghijklmnop",
    KEY_SEALING_SECRET: "planted-keysealing-0123456789-abcdefghijklmnop",
    SUBACCOUNT_KEY_SECRET: "planted-subkeysecret-0123456789-abcdefghijklmn",
  };
  const needles = needlesOf(planted);
  const secret = planted.PLATFORM_API_SECRET;
  const cases: [string, string][] = [
    ["raw", `{"note":"x${secret}y"}`],
    ["url-encoded", `/api/x?k=${encodeURIComponent(secret)}&z=1`],
    [
      "url-encoded (lower-case hex)",
      `k=${encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())}`,
    ],
    ["form-encoded", new URLSearchParams({ k: secret }).toString()],
    ["JSON-escaped", JSON.stringify({ k: secret })],
    ["hex", `0x${Buffer.from(secret).toString("hex").toUpperCase()}`],
  ];
  // Base64 inside a longer base64 text, at each of the three alignments a secret can start at.
  for (const prefix of ["", "a", "ab", "abc", "abcd"]) {
    cases.push([
      `base64 after ${prefix.length} bytes`,
      `Basic ${Buffer.from(`${prefix}${secret}:tail`).toString("base64")}`,
    ]);
    cases.push([
      `base64url after ${prefix.length} bytes`,
      `token=${Buffer.from(`${prefix}${secret}!`).toString("base64url")}`,
    ]);
  }
  for (const [label, text] of cases) {
    const found = findSecrets(text, needles, label);
    expect(
      found.map((f) => f.secret),
      label,
    ).toContain("PLATFORM_API_SECRET");
  }
  // Clean text, including other secrets' neighbours and a near miss, finds nothing.
  expect(findSecrets(`planted-apisecret-q/w+e=r&t?y#u 012345678 ${"x".repeat(5000)}`, needles, "near miss")).toEqual(
    [],
  );

  // The file scanner: a planted secret in one file of a tree (deep, among clean ones) is reported with its path.
  const dir = mkdtempSync(path.join(tmpdir(), "brokerdesk-secret-scan-"));
  try {
    mkdirSync(path.join(dir, "chunks", "app"), { recursive: true });
    writeFileSync(path.join(dir, "clean.js"), "console.log('nothing here')");
    writeFileSync(
      path.join(dir, "chunks", "app", "leak.js"),
      `self.x=${JSON.stringify(Buffer.from(`k:${planted.NEXTAUTH_SECRET}`).toString("base64"))}`,
    );
    const scan = scanFiles(filesUnder(dir), needles);
    expect(scan.files).toBe(2);
    expect(scan.findings.map((f) => [f.secret, path.relative(dir, f.where)])).toContainEqual([
      "NEXTAUTH_SECRET",
      path.join("chunks", "app", "leak.js"),
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("[secrets][static] no secret of this run, nor the built-in demo key, is in any file of .next/static", async ({}, testInfo) => {
  const files = filesUnder(STATIC_DIR);
  expect(files.length, "the build's static files (run next build first)").toBeGreaterThan(10);
  // This run's values exist only at start time, so they catch what the server sends into static files at
  // run time; the demo key (a constant in server code) is in the source at build time, so it catches
  // server code bundled for the browser.
  const demo = {
    "demo apiKey": SIMULATOR_DEMO_KEY.apiKey,
    "demo apiSecret": SIMULATOR_DEMO_KEY.apiSecret,
    "demo passphrase": SIMULATOR_DEMO_KEY.passphrase,
  };
  const scan = scanFiles(files, needlesOf({ ...secretsOfThisRun(), ...demo }));
  await testInfo.attach("static-scan", {
    body: JSON.stringify({ files: scan.files, bytes: scan.bytes }),
    contentType: "application/json",
  });
  console.log(`[secrets] .next/static: ${scan.files} files, ${scan.bytes} bytes scanned`);
  expect(scan.findings, describeFindings(scan.findings)).toEqual([]);
});

test("[secrets][log] no secret of this run is in the server log, and the log has content", async ({}, testInfo) => {
  const logs = serverLogs();
  // Each worker's own server (e2e/support/test.ts, fixture `app`) logged this run under its header.
  const header = `# e2e run ${process.env.E2E_RUN_ID}\n`;
  const workers = logs.filter(
    (l) => /e2e-server-worker\d+\.log$/.test(l) && readFileSync(l, "utf8").startsWith(header),
  );
  expect(workers.length, "this run's worker servers' logs").toBeGreaterThan(0);
  for (const log of workers) {
    // Not vacuous: the log holds the app's own structured lines from this run's traffic.
    expect(statSync(log).size, log).toBeGreaterThan(1000);
    expect(readFileSync(log, "utf8"), log).toContain('"msg":"platform client ready"');
  }
  const scan = scanFiles(logs, needlesOf(secretsOfThisRun()));
  await testInfo.attach("log-scan", {
    body: JSON.stringify({ logs, bytes: scan.bytes }),
    contentType: "application/json",
  });
  console.log(`[secrets] server logs: ${logs.map((l) => `${path.basename(l)} ${statSync(l).size} bytes`).join(", ")}`);
  expect(scan.findings, describeFindings(scan.findings)).toEqual([]);
});

const KEYS = [
  "pageResponses",
  "apiResponses",
  "bodies",
  "refetchedBodies",
  "bodyBytes",
  "binaryBodies",
  "unreadableBodies",
  "skipped",
  "staticSeen",
] as const;

test("[secrets][responses] the response check saw this run's browser and API traffic", () => {
  const runId = process.env.E2E_RUN_ID;
  const lines = readFileSync(scanTallyFile(), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { runId?: string; project: string } & Record<(typeof KEYS)[number], number>);
  const mine = lines.filter((l) => l.runId === runId && l.project !== "after");
  const totals = Object.fromEntries(KEYS.map((k) => [k, mine.reduce((n, l) => n + l[k], 0)])) as Record<
    (typeof KEYS)[number],
    number
  >;
  console.log(`[secrets] responses checked: ${JSON.stringify(totals)}`);
  expect(
    mine.some((l) => l.project === "api"),
    "a tally from the api project",
  ).toBe(true);
  expect(
    mine.some((l) => l.project === "ui"),
    "a tally from the ui project",
  ).toBe(true);
  expect(totals.pageResponses).toBeGreaterThan(500);
  expect(totals.apiResponses).toBeGreaterThan(50);
  // Most bodies were read: a check that saw only headers would prove little.
  expect(totals.bodies + totals.refetchedBodies).toBeGreaterThan(10 * totals.unreadableBodies);
  // Each secret really was configured: one distinct value per name the scan looks for.
  expect(new Set(SECRET_NAMES.map((n) => secretsOfThisRun()[n])).size).toBe(SECRET_NAMES.length);
});
