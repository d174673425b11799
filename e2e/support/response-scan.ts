// The secret scan behind e2e/support/test.ts's automatic fixtures: everything the test's clients received is
// checked against this run's secrets (e2e/support/secrets.ts): each response a browser context saw (URL,
// headers, text body) and each APIRequestContext response (request fixture, page.request,
// playwright.request.newContext()). A secret in any form fails the test; totals go to reports/ for
// e2e/secrets.after.spec.ts.
import type {
  APIRequestContext,
  APIResponse,
  Browser,
  BrowserContext,
  Page,
  Response,
  TestInfo,
} from "@playwright/test";
import { appendFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { describeFindings, findSecrets, needlesOf, secretsOfThisRun, type Finding, type Needle } from "./secrets";

export type Tally = {
  pageResponses: number;
  apiResponses: number;
  bodies: number;
  bodyBytes: number;
  /** Page bodies the browser no longer held (prefetches, pages that moved on), read again in the same session. */
  refetchedBodies: number;
  binaryBodies: number;
  unreadableBodies: number;
  skipped: number;
  /** Static files (content-named) already read in this worker. */
  staticSeen: number;
};
const emptyTally = (): Tally => ({
  pageResponses: 0,
  apiResponses: 0,
  bodies: 0,
  bodyBytes: 0,
  refetchedBodies: 0,
  binaryBodies: 0,
  unreadableBodies: 0,
  skipped: 0,
  staticSeen: 0,
});

/** The secret scan of the running test, as a fixture (its self-test takes planted findings from it). */
export type SecretScan = {
  /** Waits for the bodies still being read, then returns the findings so far and clears them. */
  take(): Promise<Finding[]>;
  tally(): Tally;
};

// One test runs at a time in a worker. Responses that arrive between tests (beforeAll/afterAll) are
// held here and fail the worker at its end.
let needles: Needle[] | undefined;
let testFindings: Finding[] | null = null;
const outsideTests: Finding[] = [];
let testTally = emptyTally();
const workerTally = emptyTally();
/** A few of the bodies that could not be read, with why, for the tally line. */
const unreadableSamples: string[] = [];
const pending = new Set<Promise<void>>();

const TEXT_TYPE =
  /^(text\/|application\/(json|javascript|ecmascript|xml|x-ndjson|x-www-form-urlencoded|manifest\+json)|[^;]*\+(json|xml))/i;
const BODY_READ_MS = 10_000;

function needlesNow(): Needle[] {
  needles ??= needlesOf(secretsOfThisRun());
  return needles;
}

function record(findings: Finding[]): void {
  (testFindings ?? outsideTests).push(...findings);
}

function count(key: keyof Tally, n = 1): void {
  testTally[key] += n;
  workerTally[key] += n;
}

/**
 * The simulator's control endpoint (/__sim/ on SIM_PORT) hands out the platform's keys by design: it plays
 * the platform, bound to loopback, and is never part of what Brokerdesk serves.
 */
function isSimulatorControl(url: string): boolean {
  try {
    return new URL(url).pathname.startsWith("/__sim/");
  } catch {
    return false;
  }
}

function scanMessage(where: string, headers: { name: string; value: string }[], body: string | null): void {
  const n = needlesNow();
  record(findSecrets(where, n, `URL of ${where}`));
  record(findSecrets(headers.map((h) => `${h.name}: ${h.value}`).join("\n"), n, `headers of ${where}`));
  if (body !== null) record(findSecrets(body, n, `body of ${where}`));
}

async function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error("timed out")), ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The build's static files are named for their content (`/_next/static/…`, served immutable): one read per
 * worker covers every later load of the same URL, and e2e/secrets.after.spec.ts scans them on disk as well.
 */
const staticScanned = new Set<string>();
function isStaticSeen(url: string, status: number): boolean {
  if (status !== 200) return false;
  const u = new URL(url);
  if (!u.pathname.startsWith("/_next/static/")) return false;
  const key = u.pathname + u.search;
  if (staticScanned.has(key)) return true;
  staticScanned.add(key);
  return false;
}

async function checkPageResponse(res: Response): Promise<void> {
  const where = `${res.request().method()} ${res.url()} (${res.status()}, browser)`;
  if (isSimulatorControl(res.url())) return count("skipped");
  count("pageResponses");
  if (isStaticSeen(res.url(), res.status())) return count("staticSeen");
  const headers = await res.headersArray().catch(() => []);
  const type = headers.find((h) => h.name.toLowerCase() === "content-type")?.value ?? "";
  let body: string | null = null;
  // A redirect has no body to read.
  if (res.status() < 300 || res.status() >= 400) {
    if (!TEXT_TYPE.test(type)) count("binaryBodies");
    else {
      try {
        const buf = await withTimeout(res.body(), BODY_READ_MS);
        body = buf.toString("utf8");
        count("bodies");
        count("bodyBytes", buf.length);
      } catch (e) {
        body = await refetch(res);
        if (body === null) {
          count("unreadableBodies");
          if (unreadableSamples.length < 8)
            unreadableSamples.push(`${where}: ${String(e).split("\n")[0]!.slice(0, 120)}`);
        }
      }
    }
  }
  scanMessage(where, headers, body);
}

const NOT_RESENT = new Set(["cookie", "host", "content-length", "connection"]);

/**
 * Chromium drops some bodies before they can be read (RSC prefetches, a page that navigated on). A GET is
 * asked again in the same session with the same headers (the app answers deterministically), so what it
 * sent is still checked; anything else stays counted as unreadable.
 */
async function refetch(res: Response): Promise<string | null> {
  const req = res.request();
  if (req.method() !== "GET" || !originalFetch) return null;
  // next-auth's GETs are not free of effects: /api/auth/session moves the session's activity clock (the idle
  // limit's test would see a touch nobody made) and /api/auth/csrf sets a cookie.
  if (new URL(res.url()).pathname.startsWith("/api/auth/")) return null;
  try {
    const context = res.frame().page().context();
    const headers = Object.fromEntries(
      Object.entries(await req.allHeaders()).filter(([k]) => !k.startsWith(":") && !NOT_RESENT.has(k.toLowerCase())),
    );
    const again = await withTimeout(
      originalFetch.call(context.request, res.url(), { method: "GET", headers, maxRedirects: 0 }),
      BODY_READ_MS,
    );
    const buf = await again.body();
    count("refetchedBodies");
    count("bodyBytes", buf.length);
    scanMessage(
      `${req.method()} ${res.url()} (${again.status()}, asked again for the browser)`,
      again.headersArray(),
      null,
    );
    return buf.toString("utf8");
  } catch {
    return null;
  }
}

function track(owner: Set<Promise<void>>, p: Promise<void>): void {
  const done = p
    .catch(() => undefined)
    .finally(() => {
      owner.delete(done);
      pending.delete(done);
    });
  owner.add(done);
  pending.add(done);
}

const watched = new WeakSet<BrowserContext>();

/**
 * CI (.ci/run sets CI) writes no screenshots but the guide's (e2e/guide.ui.spec.ts, reports/guide/): the others
 * are for a person reading a local run, nothing asserts on them, and about 60 full-page shots took a minute of
 * the 30-minute bound on the 2-core machine, as traces did (playwright.config.ts).
 */
function keepNoScreenshots(page: Page): void {
  const shoot = page.screenshot.bind(page);
  // Only a shot written to a file is skipped: a caller that reads the image's bytes always gets them.
  page.screenshot = async (options) =>
    options?.path && !options.path.startsWith("reports/guide/") ? Buffer.alloc(0) : shoot(options);
}

export function watchContext(context: BrowserContext): void {
  if (watched.has(context)) return;
  watched.add(context);
  const mine = new Set<Promise<void>>();
  context.on("response", (res) => track(mine, checkPageResponse(res)));
  if (process.env.CI) {
    context.pages().forEach(keepNoScreenshots);
    context.on("page", keepNoScreenshots);
  }
  // Bodies can only be read while the context is open: finish reading before it closes.
  const close = context.close.bind(context);
  context.close = async (options) => {
    await Promise.allSettled([...mine]);
    return close(options);
  };
}

export function watchBrowser(browser: Browser): void {
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    watchContext(context);
    return context;
  };
  const newPage = browser.newPage.bind(browser);
  browser.newPage = async (options) => {
    const page = await newPage(options);
    watchContext(page.context());
    return page;
  };
}

async function checkApiResponse(res: APIResponse, method: string): Promise<void> {
  const where = `${method} ${res.url()} (${res.status()}, API client)`;
  if (isSimulatorControl(res.url())) return count("skipped");
  count("apiResponses");
  let body: string | null = null;
  try {
    const buf = await res.body();
    body = buf.toString("utf8");
    count("bodies");
    count("bodyBytes", buf.length);
  } catch {
    count("unreadableBodies");
  }
  scanMessage(where, res.headersArray(), body);
}

const patchedApiContexts = new WeakSet<object>();
/** APIRequestContext.fetch before the check was added (for refetch(), which counts its own). */
let originalFetch: APIRequestContext["fetch"] | undefined;

/** Every APIRequestContext call (get, post, ... all go through fetch) is checked before the caller sees it. */
function watchApiRequests(proto: APIRequestContext): void {
  if (patchedApiContexts.has(proto)) return;
  patchedApiContexts.add(proto);
  const fetch = proto.fetch;
  originalFetch = fetch;
  proto.fetch = async function (
    this: APIRequestContext,
    urlOrRequest: Parameters<APIRequestContext["fetch"]>[0],
    options?: Parameters<APIRequestContext["fetch"]>[1],
  ) {
    const res = await fetch.call(this, urlOrRequest, options);
    const method = options?.method ?? (typeof urlOrRequest === "string" ? "GET" : urlOrRequest.method());
    await checkApiResponse(res, method.toUpperCase());
    return res;
  } as APIRequestContext["fetch"];
}

function reportsDir(): string {
  const dir = process.env.E2E_REPORTS_DIR ?? path.resolve("reports");
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Where each worker adds its totals (one JSON line), read by e2e/secrets.after.spec.ts. */
export function scanTallyFile(): string {
  return path.join(reportsDir(), "e2e-secret-scan.jsonl");
}

/** A worker's start: this run's secrets read, and every APIRequestContext call (any instance's prototype) checked. */
export function startWorkerScan(apiContextPrototype: APIRequestContext): void {
  needlesNow();
  watchApiRequests(apiContextPrototype);
}

/** A worker's end: its totals to the tally file; a secret seen outside any test fails the worker. */
export async function endWorkerScan(project: string, worker: number): Promise<void> {
  await Promise.allSettled([...pending]);
  appendFileSync(
    scanTallyFile(),
    `${JSON.stringify({ runId: process.env.E2E_RUN_ID, project, worker, ...workerTally, unreadableSamples })}\n`,
  );
  if (outsideTests.length) {
    throw new Error(
      `A secret of this run reached a client outside a test (beforeAll/afterAll):\n${describeFindings(outsideTests)}`,
    );
  }
}

/** A test's start: its findings and totals from zero; the scan as the test's fixture sees it. */
export function startTestScan(): SecretScan {
  testFindings = [];
  testTally = emptyTally();
  return {
    async take() {
      await Promise.allSettled([...pending]);
      const found = testFindings ?? [];
      testFindings = [];
      return found;
    },
    tally: () => ({ ...testTally }),
  };
}

/** A test's end: its totals attached to it; a secret it received fails it. */
export async function endTestScan(testInfo: TestInfo): Promise<void> {
  await Promise.allSettled([...pending]);
  const found = testFindings ?? [];
  testFindings = null;
  await testInfo.attach("secret-scan", { body: JSON.stringify(testTally), contentType: "application/json" });
  if (found.length) throw new Error(`A secret of this run reached a client:\n${describeFindings(found)}`);
}
