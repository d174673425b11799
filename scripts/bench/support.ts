// What every benchmark shares: the flags, the figures collected, printing, and the built app started as
// staff would run it (`next start`, against the simulator in a process of its own) with demo sessions.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { childEnv } from "@/lib/env";
import { freePort } from "@/e2e/support/processes";

export const DAY = 86_400_000;
const DEMO_PASSWORD = "brokerdesk-demo";
export const DEMO = {
  broker: "broker@demo.brokerdesk",
  admin: "admin@demo.brokerdesk",
  compliance: "compliance@demo.brokerdesk",
  lead: "lead@demo.brokerdesk",
} as const;

export type Figures = Record<string, unknown>;
export const results: Record<string, Figures> = {};

const args = parseArgs({
  options: {
    only: { type: "string", default: "weight,export,distance,overhead,load,ttd" },
    seconds: { type: "string", default: "60" },
    n: { type: "string", default: "300" },
    scale: { type: "string", default: "20" },
    "trades-days": { type: "string", default: "7" },
    "export-via": { type: "string", default: "proxy" },
    "ttd-runs": { type: "string", default: "10" },
    "ttd-scale": { type: "string", default: "1" },
    latencies: { type: "string", default: "0,150,300" },
    jitter: { type: "string", default: "20" },
    "load-latency": { type: "string", default: "150" },
    "distance-clients": { type: "string", default: "sdk,brokerdesk" },
    "ledger-pg": { type: "string" },
    "ledger-parts": { type: "string", default: "backfill,freshness,queries,export,checknow,exportsync" },
    "ledger-engines": { type: "string", default: "postgres,pglite" },
    "ledger-seconds": { type: "string", default: "60" },
    "ledger-subs": { type: "string", default: "10000" },
    "ledger-rows": { type: "string", default: "1000000" },
    "fresh-subs": { type: "string", default: "500" },
    "fresh-seconds": { type: "string", default: "240" },
    "lh-pages": { type: "string" },
    "lh-roles": { type: "string" },
    "lh-one-role": { type: "boolean", default: false },
    "lh-keep": { type: "boolean", default: false },
    "chaos-ops": { type: "string", default: "1300" },
    "chaos-seed": { type: "string" },
    "approval-n": { type: "string", default: "40" },
    "screening-addresses": { type: "string", default: "1000000" },
    "screening-parts": { type: "string", default: "rescreen,import" },
    "leverage-targets": { type: "string", default: "2000" },
    "leverage-concurrency": { type: "string", default: "16" },
    "leverage-sdk-sample": { type: "string", default: "200" },
    "leverage-preview": { type: "string", default: "10000" },
  },
}).values;
export const only = new Set(args.only.split(",").map((s) => s.trim()));
export const seconds = Number(args.seconds);
export const callsN = Number(args.n);
export const exportScale = Number(args.scale);
export const tradesDays = Number(args["trades-days"]);
export const exportViaProxy = args["export-via"] !== "in-process";
export const ttdRuns = Number(args["ttd-runs"]);
export const ttdScale = Number(args["ttd-scale"]);
/** Approvals per platform distance and engine in the approval benchmark. */
export const approvalN = Number(args["approval-n"]);
export const latencies = args.latencies.split(",").map(Number);
export const jitterMs = Number(args.jitter);
export const loadLatencyMs = Number(args["load-latency"]);
/** Which sides of the distance benchmark run: the bitget-api loops (`sdk`), Brokerdesk's export, or both. */
export const distanceClients = new Set(args["distance-clients"].split(",").map((s) => s.trim()));
export const ledgerFlags = {
  /** A PostgreSQL URL; each section makes its own schema there and drops it. Without it, PGlite only. */
  pg: args["ledger-pg"],
  parts: new Set(args["ledger-parts"].split(",").map((s) => s.trim())),
  engines: args["ledger-engines"].split(",").map((s) => s.trim()),
  seconds: Number(args["ledger-seconds"]),
  subs: Number(args["ledger-subs"]),
  rows: Number(args["ledger-rows"]),
  freshSubs: Number(args["fresh-subs"]),
  freshSeconds: Number(args["fresh-seconds"]),
};

/** How many addresses the screening benchmark's generated SDN file lists. */
export const screeningAddresses = Number(args["screening-addresses"]);
/** Which parts of the screening benchmark run: the rescreen of the ledger (./screening-rescreen.ts), the import. */
export const screeningParts = new Set(args["screening-parts"].split(",").map((s) => s.trim()));

/** The Lighthouse benchmark's subset: the manifest paths and the roles to run (all unless said). */
const listFlag = (v: string | undefined) => (v ? new Set(v.split(",").map((s) => s.trim())) : null);
export const lhPages = listFlag(args["lh-pages"]);
export const lhRoles = listFlag(args["lh-roles"]);
/** Each page as one role only: the first of --lh-roles (in that order) that may open it. */
export const lhOneRole = args["lh-one-role"];
/** Keep each run's whole report (reports/lighthouse/<page>.<role>.json) to profile what blocks the thread. */
export const lhKeep = args["lh-keep"];
/** The chaos benchmark: operations per instance (three instances), and its seed (random unless given). */
export const chaosFlags = {
  ops: Number(args["chaos-ops"]),
  seed: args["chaos-seed"] === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(args["chaos-seed"]),
};

/** The leverage plan benchmark: targets, the rollout's concurrency, the SDK loop's sample, the preview's size. */
export const leverageFlags = {
  targets: Number(args["leverage-targets"]),
  concurrency: Number(args["leverage-concurrency"]),
  sdkSample: Number(args["leverage-sdk-sample"]),
  preview: Number(args["leverage-preview"]),
};
/** Chromium's flags in the benchmarks, as in playwright.config.ts. */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

/** Samples this process's resident memory every 250 ms until stopped; answers the peak in MiB. */
export function rssPeak(): { stop: () => number } {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 250);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.round(Math.max(peak, process.memoryUsage().rss) / 2 ** 20);
    },
  };
}

export const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;
export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
export const log = (s: string) => void process.stdout.write(`${s}\n`);

/** A plain text table (console.table is off limits: the lint allows warn and error only). */
export function table(title: string, rows: Record<string, unknown>[]): void {
  log(`\n${title}`);
  const cols = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const cells = [cols, ...rows.map((r) => cols.map((c) => String(r[c] ?? "")))];
  const widths = cols.map((_, i) => Math.max(...cells.map((line) => (line[i] ?? "").length)));
  for (const line of cells) log(`  ${line.map((v, i) => v.padEnd(widths[i] ?? 0)).join("  ")}`);
}

// ---------------------------------------------------------------------------------------------
// The built app, started as staff would run it (`next start`), against the simulator in a process of its own
// (`npm run sim`), as the platform is another machine: one that shared the app's event loop would stamp its
// requestTime late whenever the app was busy (writing an export's CSV), and the pacing and the figures taken
// from the simulator's own clock would both measure that instead of the distance.

export type App = { baseUrl: string; simUrl: string; stop: () => Promise<void> };

async function until(what: string, url: string, child: ChildProcess, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}`);
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    if (Date.now() > deadline) throw new Error(`${what} did not answer ${url} within ${ms / 1000} s`);
    await sleep(300);
  }
}

const stopChild = (child: ChildProcess) =>
  new Promise<void>((r) => {
    if (child.exitCode !== null || child.signalCode !== null) return r();
    child.once("exit", () => r());
    child.kill("SIGTERM");
  });

/**
 * The simulator as a process of its own, as `npm run sim -- --port P --scale N` starts it, once it answers (up to
 * 120 s): the platform over real HTTP for the benchmarks that measure a user's set-up.
 */
export async function startSimulator(port: number, scale: number): Promise<ChildProcess> {
  const sim = spawn(
    process.execPath,
    [
      "--conditions=react-server",
      "--import",
      "tsx",
      path.resolve("server/simulator/main.ts"),
      "--port",
      String(port),
      "--scale",
      String(scale),
    ],
    { env: childEnv({ NODE_ENV: "production" }), stdio: ["ignore", "ignore", "inherit"] },
  );
  await until("the simulator", `http://127.0.0.1:${port}/__sim/stats`, sim, 120_000);
  return sim;
}

/** `ledgerSync`: the app's ledger sync runs (the time to data of the ledger's pages needs it; see below). */
export async function startApp(simScale: number, opts: { ledgerSync?: boolean } = {}): Promise<App> {
  const [port, simPort] = [await freePort(), await freePort()];
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "brokerdesk-bench-"));
  const baseUrl = `http://127.0.0.1:${port}`;
  const simUrl = `http://127.0.0.1:${simPort}`;
  const sim = await startSimulator(simPort, simScale);
  let child: ChildProcess | null = null;
  try {
    const nextBin = path.resolve("node_modules/next/dist/bin/next");
    child = spawn(process.execPath, [nextBin, "start", "-p", String(port), "-H", "127.0.0.1"], {
      // The ledger's sync would spend half of E1's budget on the same key as the export and distance figures
      // measure (its own benchmark is `--only ledger`): off, but for the time to data, whose ledger pages show
      // what the sync has stored.
      env: childEnv({
        NODE_ENV: "production",
        SIMULATOR_URL: simUrl,
        DATA_DIR: dataDir,
        NEXTAUTH_URL: baseUrl,
        LOG_LEVEL: "warn",
        LEDGER_SYNC: opts.ledgerSync ? "on" : "off",
        // The demo's rules would evaluate beside what is measured (monitoring has its own benchmark).
        MONITORING_DEMO_RULES: "off",
      }),
      stdio: ["ignore", "ignore", "inherit"],
    });
    await until("next start", `${baseUrl}/api/health`, child, 120_000);
  } catch (e) {
    await Promise.all([child && stopChild(child), stopChild(sim)]);
    throw e;
  }
  const app = child;
  return {
    baseUrl,
    simUrl,
    stop: async () => {
      await Promise.all([stopChild(app), stopChild(sim)]);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** next-auth's credentials flow over plain HTTP; returns the Cookie header of the session. */
export async function signIn(baseUrl: string, email: string): Promise<string> {
  const jar = new Map<string, string>();
  const keep = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const eq = (pair ?? "").indexOf("=");
      if (eq > 0 && pair) jar.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const csrfRes = await fetch(`${baseUrl}/api/auth/csrf`);
  keep(csrfRes);
  const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
  const res = await fetch(`${baseUrl}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie(), Origin: baseUrl },
    body: new URLSearchParams({ csrfToken, email, password: DEMO_PASSWORD, json: "true" }),
  });
  keep(res);
  await res.arrayBuffer();
  const session = (await (await fetch(`${baseUrl}/api/auth/session`, { headers: { Cookie: cookie() } })).json()) as {
    user?: { email?: string };
  };
  if (session.user?.email !== email) throw new Error(`sign-in as ${email} failed (HTTP ${res.status})`);
  return cookie();
}
