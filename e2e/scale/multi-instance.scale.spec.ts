// Scale-out: Redis and PostgreSQL on loopback, one standalone simulator with its limits
// on, three Brokerdesk instances from the same build sharing them. A session made on one instance works
// on the others; exports on all three at once stay inside each operation's limit together; one
// withdrawal approved from two instances at once reaches the platform once; the audit chain is intact.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { expect, request as playwrightRequest, test, type APIRequestContext } from "@playwright/test";
import pg from "pg";
import { catalog } from "@/lib/platform/catalog";
import { DEMO, DEMO_PASSWORD, type DemoRole } from "../support/staff";
import { REDIS_SERVER_BIN, freePort, startProcess, startRedis, waitUntil, type Proc } from "../support/processes";
import { describeFindings, filesUnder, needlesOf, scanFiles } from "../support/secrets";
import { TRAVEL_RULE } from "../support/travel-rule";

const PG_URL = process.env.TEST_DATABASE_URL;
const CAN_RUN = existsSync(REDIS_SERVER_BIN) && Boolean(PG_URL);
const DAY = 86_400_000;
const ADDRESS = "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE";
const SIM_SCALE = "5";

test.describe.configure({ mode: "serial" });
// A developer machine without Redis or PostgreSQL skips this file; CI (.ci/run installs both) never does.
test.skip(!CAN_RUN && !process.env.CI, "needs redis-server and TEST_DATABASE_URL; .ci/run provides both");

type Stats = {
  requests: number;
  http429: number;
  operations: Record<
    string,
    { requests: number; accepted: number; http429: number; peakPerSecond: number } | undefined
  >;
};

let redis: Proc;
let sim: Proc;
const apps: Proc[] = [];
let dbName = "";
// This run's main key (the simulator takes it as its broker key) and session secret: random, so the log scan means something.
const SECRETS = {
  PLATFORM_API_KEY: `bd_scale_${randomBytes(18).toString("base64url")}`,
  PLATFORM_API_SECRET: randomBytes(32).toString("base64"),
  PLATFORM_API_PASSPHRASE: randomBytes(24).toString("base64"),
  NEXTAUTH_SECRET: randomBytes(32).toString("base64"),
};
const contexts: APIRequestContext[] = [];

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

test.beforeAll(async () => {
  test.setTimeout(240_000);
  if (!CAN_RUN)
    throw new Error(
      `CI must run the scale-out test: ${REDIS_SERVER_BIN} ${existsSync(REDIS_SERVER_BIN) ? "present" : "missing"}, TEST_DATABASE_URL ${PG_URL ? "set" : "unset"}`,
    );
  dbName = `bd_scale_${randomBytes(4).toString("hex")}`;
  await admin((c) => c.query(`CREATE DATABASE ${dbName}`));
  const dbUrl = new URL(PG_URL!);
  dbUrl.pathname = `/${dbName}`;

  redis = await startRedis();
  const simPort = await freePort();
  sim = startProcess(
    "scale-sim",
    `http://127.0.0.1:${simPort}`,
    process.execPath,
    [
      "--conditions=react-server",
      "--import",
      "tsx",
      "server/simulator/main.ts",
      "--port",
      String(simPort),
      "--scale",
      SIM_SCALE,
    ],
    { ...process.env, ...SECRETS },
  );
  await waitUntil("simulator", async () => (await fetch(`${sim.url}/__sim/health`)).ok, 60_000, sim);

  const shared = {
    NODE_ENV: "production" as const,
    SIMULATOR_URL: sim.url,
    DATABASE_URL: dbUrl.toString(),
    REDIS_URL: redis.url,
    ...SECRETS,
    PLATFORM_EGRESS_ID: "ci-egress",
    LOG_LEVEL: "info",
    // The jitter this machine's trip has: three instances, the simulator, Redis and PostgreSQL share 2 cores, and
    // loopback calls took 6.5 ms at the median but 207 ms at the 99th percentile (ci50: event-loop stalls). Past
    // the default 20 ms bound the pacing by requestTime may send early (server/platform/arrival.ts), and E8
    // drew two 429s there; a deployment states its own bound the same way.
    PLATFORM_JITTER_MS: "150",
  };
  for (let i = 1; i <= 3; i++) {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const env = {
      ...process.env,
      ...shared,
      PORT: String(port),
      NEXTAUTH_URL: url,
      DATA_DIR: mkdtempSync(path.join(tmpdir(), "bd-scale-")),
    };
    apps.push(
      startProcess(`scale-app-${i}`, url, process.execPath, ["server/front-door.mjs"], {
        ...env,
        PORT: String(port),
        HOST: "127.0.0.1",
        LEDGER_SYNC: "off",
        // The audit rows counted below are this spec's own (server/monitoring/demo-rules.test.ts seeds from two
        // instances at once on PostgreSQL).
        MONITORING_DEMO_RULES: "off",
      }),
    );
  }
  await Promise.all(
    apps.map((a) => waitUntil(a.name, async () => (await fetch(`${a.url}/api/health`)).ok, 120_000, a)),
  );
});

test.afterAll(async () => {
  await Promise.all(contexts.map((c) => c.dispose()));
  await Promise.all([...apps, sim, redis].filter(Boolean).map((p) => p.stop()));
  if (dbName) await admin((c) => c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`));
});

async function context(
  baseURL: string,
  storageState?: Awaited<ReturnType<APIRequestContext["storageState"]>>,
): Promise<APIRequestContext> {
  const c = await playwrightRequest.newContext({ baseURL, storageState, extraHTTPHeaders: { Origin: baseURL } });
  contexts.push(c);
  return c;
}

async function signIn(baseURL: string, role: DemoRole, password = DEMO_PASSWORD): Promise<APIRequestContext> {
  const c = await context(baseURL);
  const { csrfToken } = (await (await c.get("/api/auth/csrf")).json()) as { csrfToken: string };
  await c.post("/api/auth/callback/credentials", {
    form: { csrfToken, email: DEMO[role], password, json: "true" },
    maxRedirects: 0,
  });
  return c;
}

async function sessionEmail(c: APIRequestContext): Promise<string | undefined> {
  return ((await (await c.get("/api/auth/session")).json()) as { user?: { email?: string } }).user?.email;
}

/** The same browser session (its cookies) pointed at another instance, as a load balancer would. */
async function sameSessionOn(c: APIRequestContext, baseURL: string): Promise<APIRequestContext> {
  return context(baseURL, await c.storageState());
}

async function simStats(): Promise<Stats> {
  return (await (await fetch(`${sim.url}/__sim/stats`)).json()) as Stats;
}

async function registry(c: APIRequestContext): Promise<{ subUid: string; subaccountName: string | null }[]> {
  const res = await c.get("/api/sub-accounts");
  expect(res.status()).toBe(200);
  return ((await res.json()) as { items: { subUid: string; subaccountName: string | null }[] }).items;
}

/** POST /api/exports and read the NDJSON stream to its end. */
async function runExport(
  c: APIRequestContext,
  operation: string,
  params: Record<string, string>,
): Promise<{ rows: number; done: number | null; error: string | null }> {
  const res = await c.post("/api/exports", { data: { operation, params }, timeout: 180_000 });
  expect(res.status(), await res.text().catch(() => "")).toBe(200);
  let rows = 0;
  let done: number | null = null;
  let error: string | null = null;
  for (const line of (await res.text()).split("\n")) {
    if (!line) continue;
    const e = JSON.parse(line) as { type: string; count?: number; records?: number; message?: string };
    if (e.type === "rows") rows += e.count ?? 0;
    else if (e.type === "done") done = e.records ?? null;
    else if (e.type === "error") error = e.message ?? "error";
  }
  return { rows, done, error };
}

test("[scale-out][session] a session made on instance 1 works on instances 2 and 3", async () => {
  const onFirst = await signIn(apps[0]!.url, "compliance");
  expect(await sessionEmail(onFirst)).toBe(DEMO.compliance);
  for (const app of apps.slice(1)) {
    const c = await sameSessionOn(onFirst, app.url);
    expect(await sessionEmail(c)).toBe(DEMO.compliance);
    // A real read through that instance: the registry, seeded once from the simulator into PostgreSQL.
    expect((await registry(c)).some((s) => s.subaccountName?.startsWith("desk01@"))).toBe(true);
  }
  // And without the cookie, the other instances refuse: the session is the cookie, not instance state.
  const anonymous = await context(apps[2]!.url);
  expect((await anonymous.get("/api/sub-accounts")).status()).toBe(401);
});

test("[scale-out][rate budget] exports on all three instances at once: 0 × 429, each operation's summed rate within its limit", async () => {
  test.setTimeout(240_000);
  const first = await signIn(apps[0]!.url, "compliance");
  const onEach = [first, ...(await Promise.all(apps.slice(1).map((a) => sameSessionOn(first, a.url))))];
  const desks = (await registry(first))
    .filter((s) => /^desk0[1-3]@/.test(s.subaccountName ?? ""))
    .sort((a, b) => (a.subaccountName ?? "").localeCompare(b.subaccountName ?? ""));
  expect(desks).toHaveLength(3);
  const end = Date.now() - 60_000;
  const symbols = ["BTCUSDT", "ETHUSDT", "SOLUSDT"];

  await fetch(`${sim.url}/__sim/stats/reset`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: "{}",
  });
  const started = Date.now();
  // While the exports run, note the budget's keys in Redis (each lives one window past its last answer).
  const budgetKeys = new Set<string>();
  let running = true;
  const watcher = (async () => {
    while (running) {
      for (const k of await redisKeys("bd:rl:*")) budgetKeys.add(k.replace(/:\d+$/, ""));
      await new Promise((r) => setTimeout(r, 300));
    }
  })();
  const runs = await Promise.all(
    onEach.flatMap((c, i) => [
      runExport(c, "deposits.list", {
        userId: desks[i]!.subUid,
        startTime: String(end - 90 * DAY + 120_000),
        endTime: String(end),
      }),
      runExport(c, "market.trades", { symbol: symbols[i]!, startTime: String(end - DAY), endTime: String(end) }),
    ]),
  );
  const seconds = (Date.now() - started) / 1000;
  running = false;
  await watcher;
  const stats = await simStats();

  for (const r of runs) {
    expect(r.error).toBeNull();
    expect(r.done).toBe(r.rows);
    expect(r.rows).toBeGreaterThan(0);
  }
  expect(stats.http429).toBe(0);
  const e1 = stats.operations["deposits.list"]!;
  const e8 = stats.operations["market.trades"]!;
  expect(e1.peakPerSecond).toBeLessThanOrEqual(catalog["deposits.list"].rateLimit.count);
  expect(e8.peakPerSecond).toBeLessThanOrEqual(catalog["market.trades"].rateLimit.count);
  // Enough work that three unshared budgets would have gone well past the limit.
  expect(e1.accepted).toBeGreaterThan(3 * catalog["deposits.list"].rateLimit.count);
  test.info().annotations.push({
    type: "measured",
    description: `${runs.reduce((n, r) => n + r.rows, 0)} records in ${seconds.toFixed(1)} s; E1 ${e1.accepted} requests, peak ${e1.peakPerSecond}/s; E8 ${e8.accepted} requests, peak ${e8.peakPerSecond}/s; HTTP 429: ${stats.http429}`,
  });
  // The budget lived in Redis, under Brokerdesk's prefix: per key and operation (uid), per egress IP (ip).
  expect([...budgetKeys]).toEqual(
    expect.arrayContaining(["bd:rl:uid:main:deposits.list:10", "bd:rl:ip:ci-egress:market.trades:10"]),
  );
});

test("[scale-out][withdrawals] one withdrawal approved from two instances at once reaches the platform once", async () => {
  const broker = await signIn(apps[0]!.url, "broker");
  const desk01 = (await registry(broker)).find((s) => s.subaccountName?.startsWith("desk01@"))!.subUid;
  const requested = await broker.post("/api/withdrawals", {
    data: {
      subUid: desk01,
      coin: "USDT",
      dest: "on_chain",
      travelRule: TRAVEL_RULE,
      address: ADDRESS,
      amount: "1.5",
      reason: "scale-out race",
    },
  });
  expect(requested.status(), await requested.text()).toBe(200);
  const w = (await requested.json()) as { id: string; amount: string; address: string };

  const leadOnTwo = await signIn(apps[1]!.url, "lead");
  const leadOnThree = await sameSessionOn(leadOnTwo, apps[2]!.url);
  await fetch(`${sim.url}/__sim/stats/reset`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: "{}",
  });
  const answers = await Promise.all(
    [leadOnTwo, leadOnThree].map((c) =>
      c.post(`/api/withdrawals/${w.id}/approve`, { data: { confirmAmount: w.amount, confirmAddress: w.address } }),
    ),
  );
  const statuses = answers.map((a) => a.status()).sort();
  expect(statuses).toEqual([200, 409]);
  expect((await simStats()).operations["withdrawals.submit"]?.requests).toBe(1);
  const seen = (await (await broker.get(`/api/withdrawals/${w.id}`)).json()) as { state: string };
  expect(seen.state).toBe("confirmed");
});

test("[scale-out][policy] a velocity limit holds for 20 requests at once across three instances; a cancel gives its place back", async () => {
  const brokers = await Promise.all(apps.map((a) => signIn(a.url, "broker")));
  const desk07 = (await registry(brokers[0]!)).find((s) => s.subaccountName?.startsWith("desk07@"))!.subUid;
  // Published straight into the database (drafting and publishing by two admins is the policy's own e2e):
  // this test is about the limit under concurrency, and the rule names desk07 alone, so no other test meets it.
  const dbUrl = new URL(PG_URL!);
  dbUrl.pathname = `/${dbName}`;
  const db = new pg.Client({ connectionString: dbUrl.toString() });
  await db.connect();
  try {
    const rules = [
      {
        name: "desk07: at most 5 requests a day",
        match: "all",
        when: [
          { kind: "subaccount", subUids: [desk07] },
          { kind: "velocity", hours: 24, count: 5 },
        ],
        then: { kind: "block", reason: "more than 5 requests in 24 h" },
      },
    ];
    await db.query(
      `INSERT INTO money_out_policies (version, state, rules, drafted_by, published_by, published_at)
       VALUES ((SELECT coalesce(max(version), 0) + 1 FROM money_out_policies), 'published', $1::jsonb, 'scale-a', 'scale-b', now())`,
      [JSON.stringify(rules)],
    );
  } finally {
    await db.end();
  }
  const ask = (c: APIRequestContext) =>
    c.post("/api/withdrawals", {
      data: {
        subUid: desk07,
        coin: "USDT",
        dest: "on_chain",
        travelRule: TRAVEL_RULE,
        address: ADDRESS,
        amount: "1",
        reason: "velocity",
      },
    });
  const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => ask(brokers[i % 3]!)));
  const ok = answers.filter((r) => r.status() === 200);
  const codes = await Promise.all(
    answers
      .filter((r) => r.status() !== 200)
      .map(async (r) => ((await r.json()) as { error: { code: string } }).error.code),
  );
  expect(ok).toHaveLength(5);
  expect(codes).toEqual(Array.from({ length: 15 }, () => "policy_blocked"));
  // A cancelled request gives its reservation back: one more passes, then the limit holds again.
  const first = (await ok[0]!.json()) as { id: string };
  expect((await brokers[1]!.post(`/api/withdrawals/${first.id}/cancel`, { data: {} })).status()).toBe(200);
  expect((await ask(brokers[2]!)).status()).toBe(200);
  expect((await ask(brokers[0]!)).status()).toBe(403);
});

test("[scale-out][throttle] sign-in failures on three instances add up to one throttle", async () => {
  // Five wrong passwords for one account, spread over the instances (the per-account limit is 5)...
  for (let i = 0; i < 5; i++) {
    const c = await signIn(apps[i % 3]!.url, "admin", `wrong-${i}`);
    expect(await sessionEmail(c)).toBeUndefined();
  }
  // ...and then the right password is refused on the instance that saw the fewest of them.
  const refused = await signIn(apps[2]!.url, "admin");
  expect(await sessionEmail(refused)).toBeUndefined();
  // Another account is not affected.
  expect(await sessionEmail(await signIn(apps[2]!.url, "broker"))).toBe(DEMO.broker);
});

test("[scale-out][audit] three instances wrote one unbroken audit chain", async () => {
  const dbUrl = new URL(PG_URL!);
  dbUrl.pathname = `/${dbName}`;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", "server/cli/audit-verify.ts"],
    {
      env: { ...process.env, NODE_ENV: "production" as const, DATABASE_URL: dbUrl.toString() },
    },
  );
  const m = /audit chain OK: (\d+) rows/.exec(stdout);
  expect(m, stdout).not.toBeNull();
  // Exports, a withdrawal request, two approvals (one refused) and its submit: intents and outcomes from all three.
  expect(Number(m![1])).toBeGreaterThanOrEqual(10);
});

test("[scale-out][secrets] no instance wrote the key, secret, passphrase or session secret to its log", async () => {
  const logs = filesUnder("reports").filter((f) => /scale-app-\d\.log$/.test(f));
  expect(logs).toHaveLength(3);
  const scan = scanFiles(logs, needlesOf(SECRETS));
  expect(scan.bytes).toBeGreaterThan(1_000); // they did log (LOG_LEVEL=info), so the scan is not vacuous
  expect(scan.findings, describeFindings(scan.findings)).toEqual([]);
});

async function redisKeys(pattern: string): Promise<string[]> {
  const port = Number(new URL(redis.url).port);
  const { stdout } = await promisify(execFile)("redis-cli", ["-p", String(port), "--scan", "--pattern", pattern]);
  return stdout.split("\n").filter(Boolean);
}
