// Over 60 s (about 60 s on the loaded 2-core machine, docs/testing.md): it watches sessions expire, so it waits
// out a 6 s idle limit and a 28.8 s absolute limit, on an instance of its own started in beforeAll.
// Session expiry and sign-in throttling, in Chromium and over the API, against a second instance of the
// built app (e2e/support/second-instance.ts): its limits are seconds long (SESSION_IDLE_MINUTES=0.1 is
// 6 s idle, SESSION_MAX_HOURS=0.008 is 28.8 s in all), and locking its demo accounts out leaves the main
// run's alone (a failed test gets a fresh instance in a fresh worker). Thresholds are server/auth/throttle.ts's THROTTLE_LIMITS (that module is server-only).
import type { APIRequestContext, Browser, Page, Response } from "@playwright/test";
import { DEMO, DEMO_PASSWORD, signInApi, signInUi, type DemoRole } from "./support/staff";
import { startForwardingProxy, type ForwardingProxy } from "./support/forwarding-proxy";
import { startInstance, type Instance } from "./support/second-instance";
import { expect, test } from "./support/test";

const IDLE_MS = 6_000;
const MAX_AGE_MS = 28_800;
const ACCOUNT_FAILURES = 5;
const IP_FAILURES = 20;
// The one message for every failed sign-in (SIGN_IN_FAILED_MESSAGE); Next's route announcer is also an alert.
const GENERIC_FAILURE = /E-mail or password is wrong, or there were too many attempts/;

let instance: Instance;
// A load balancer the instance trusts (TRUST_PROXY=127.0.0.2), and a peer it does not (127.0.0.3) that
// forwards whatever X-Forwarded-For it is sent.
let trustedProxy: ForwardingProxy;
let untrustedPeer: ForwardingProxy;

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(120_000);
  // NEXTAUTH_URL unset: next-auth must use the documented default (docs/configuration.md), http://localhost:$PORT.
  instance = await startInstance("limits", {
    SESSION_IDLE_MINUTES: "0.1",
    SESSION_MAX_HOURS: "0.008",
    TRUST_PROXY: "127.0.0.2",
    NEXTAUTH_URL: "",
  });
  trustedProxy = await startForwardingProxy(instance.baseURL, "127.0.0.2");
  untrustedPeer = await startForwardingProxy(instance.baseURL, "127.0.0.3");
  // The first sign-in creates the database and hashes the demo passwords: do it here, off the clock.
  const ctx = await apiContext(playwright);
  await signInApi(ctx, "broker");
  await ctx.dispose();
});

test.afterAll(async () => {
  await trustedProxy?.stop();
  await untrustedPeer?.stop();
  await instance?.stop();
});

async function newPage(browser: Browser): Promise<Page> {
  return (await browser.newContext({ baseURL: instance.baseURL })).newPage();
}

type Via = "direct" | "trusted-proxy" | "untrusted-peer";

async function apiContext(
  playwright: { request: { newContext(o: { baseURL: string }): Promise<APIRequestContext> } },
  via: Via = "direct",
): Promise<APIRequestContext> {
  const baseURL =
    via === "direct" ? instance.baseURL : via === "trusted-proxy" ? trustedProxy.baseURL : untrustedPeer.baseURL;
  return playwright.request.newContext({ baseURL });
}

/**
 * A full navigation to a dashboard page, and the activity touch its SessionActivity sends on mount. The touch's
 * answer says whether the session still holds: a page drawn just before a limit passes is followed by a
 * touch just after it, whose answer has no user and sends the page to sign-in (ci56 met it: the page was
 * drawn, its session had ended a moment later, and the page was waited on as if signed in).
 */
async function visit(page: Page, path: string): Promise<"signed-in" | "login"> {
  // The first touch whose answer can be read. The touch of the page before this navigation may be answered after
  // it began; its body is gone with that page, and it says nothing of the session as this page finds it.
  const answered = new Promise<{ user?: unknown } | null>((resolve) => {
    const timer = setTimeout(() => resolve(null), 10_000);
    const onResponse = async (r: Response) => {
      if (new URL(r.url()).pathname !== "/api/auth/session") return;
      const body = (await r.json().catch(() => undefined)) as { user?: unknown } | null | undefined;
      if (body === undefined) return;
      page.off("response", onResponse);
      clearTimeout(timer);
      resolve(body ?? {});
    };
    page.on("response", onResponse);
  });
  await page.goto(path);
  if (new URL(page.url()).pathname === "/login") return "login";
  const body = await answered;
  expect(body, `the activity touch after ${path}`).not.toBeNull();
  // A touch that found no session sends the page to sign-in, which may be under way before its body is read.
  if (!body?.user) {
    await expect(page).toHaveURL(/\/login\?callbackUrl=/);
    return "login";
  }
  await expect(page.getByTestId("session-user")).toBeVisible();
  return "signed-in";
}

type AuditRow = { actor: string; action: string; ip: string | null; detail: { reason?: string } | null };

async function auditRows(playwright: Parameters<typeof apiContext>[0], action: string): Promise<AuditRow[]> {
  const ctx = await apiContext(playwright);
  await signInApi(ctx, "admin");
  const res = await ctx.get(`/api/audit?action=${action}&limit=500`);
  expect(res.status()).toBe(200);
  const rows = ((await res.json()) as { rows: AuditRow[] }).rows;
  await ctx.dispose();
  return rows;
}

test("[auth][session] idle for more than 6 s ends a session; steady activity outlives the idle limit but not the absolute one", async ({
  browser,
  playwright,
}) => {
  test.setTimeout(60_000);
  const idle = await newPage(browser);
  const active = await newPage(browser);

  const idleFlow = async () => {
    // The activity touch (SessionActivity's /api/auth/session) comes after hydration, which on a busy machine
    // can be after "networkidle": the idle time is counted from the last touch actually answered.
    let lastTouch = 0;
    idle.on("response", (r) => {
      if (new URL(r.url()).pathname === "/api/auth/session") lastTouch = Date.now();
    });
    await signInUi(idle, "compliance");
    await idle.waitForLoadState("networkidle");
    const quietFrom = Date.now();
    for (let left = IDLE_MS + 1_500; left > 0; left = Math.max(lastTouch, quietFrom) + IDLE_MS + 1_500 - Date.now()) {
      await idle.waitForTimeout(left);
    }
    // Nothing was sent for 7.5 s: the API refuses, and the next navigation goes to the sign-in page.
    expect((await idle.request.get("/api/sub-accounts")).status()).toBe(401);
    await idle.goto("/deposits");
    // The dashboard layout's own check sends back to "/" when it answers before the page's (it does not know the path).
    await expect(idle).toHaveURL(/\/login\?callbackUrl=%2F(deposits)?$/);
  };

  const activeFlow = async () => {
    const before = Date.now();
    await signInUi(active, "admin");
    const signedIn = Date.now();
    // A navigation a second after the last one keeps the session past twice the idle limit, ending some
    // 15 s before the absolute one: far enough that no slow navigation reaches it.
    let lastAlive = signedIn;
    for (let i = 0; lastAlive - signedIn <= 2 * IDLE_MS; i++) {
      await active.waitForTimeout(1_000);
      expect(await visit(active, i % 2 ? "/" : "/admin/users")).toBe("signed-in");
      lastAlive = Date.now();
    }
    expect(lastAlive - signedIn).toBeGreaterThan(1.5 * IDLE_MS);
    // The same pace past the absolute limit: the first navigation after it goes to the sign-in page.
    let ended: number | null = null;
    for (let i = 0; ended === null && Date.now() - signedIn < MAX_AGE_MS + 8_000; i++) {
      await active.waitForTimeout(1_000);
      if ((await visit(active, i % 2 ? "/" : "/admin/users")) === "login") ended = Date.now();
    }
    expect(ended, "the session ended").not.toBeNull();
    expect(ended! - before).toBeGreaterThan(MAX_AGE_MS);
    await expect(active).toHaveURL(/\/login\?callbackUrl=/);
    expect((await active.request.get("/api/sub-accounts")).status()).toBe(401);
  };

  await Promise.all([idleFlow(), activeFlow()]);

  // The server's own account of why: idle for the quiet session, absolute for the busy one, nothing else.
  const refused = await auditRows(playwright, "auth.session-refused");
  const reasons = (email: string) => [
    ...new Set(refused.filter((r) => r.actor === email).map((r) => r.detail?.reason)),
  ];
  expect(reasons(DEMO.compliance)).toEqual(["idle-timeout"]);
  expect(reasons(DEMO.admin)).toEqual(["absolute-timeout"]);
  await idle.context().close();
  await active.context().close();
});

/** One credentials sign-in over the API, as next-auth's client does it; what the caller can observe. */
async function signInAttempt(ctx: APIRequestContext, email: string, password: string, ip?: string) {
  const headers = ip ? { "x-forwarded-for": ip } : undefined;
  const { csrfToken } = (await (await ctx.get("/api/auth/csrf", { headers })).json()) as { csrfToken: string };
  const res = await ctx.post("/api/auth/callback/credentials", {
    form: { csrfToken, email, password, json: "true" },
    headers,
    maxRedirects: 0,
  });
  const { url } = (await res.json()) as { url: string };
  const cookies = res
    .headersArray()
    .filter((h) => h.name.toLowerCase() === "set-cookie")
    .map((h) => h.value);
  return {
    status: res.status(),
    error: new URL(url).searchParams.get("error"),
    session: cookies.some((c) => /^next-auth\.session-token=[^;]+/.test(c)),
  };
}

const REFUSED = { status: 401, error: "CredentialsSignin", session: false };

/**
 * IP_FAILURES wrong sign-ins through `via`, claiming to come from `ip`: four per e-mail (`${prefix}-N@example.com`),
 * under the per-account limit, so only the IP's count can be what refuses. Five clients side by side (one CSRF
 * cookie each), four guesses each; every answer is the one refusal.
 */
async function failSignInsFromIp(
  playwright: Parameters<typeof apiContext>[0],
  via: Via,
  prefix: string,
  ip: string,
): Promise<void> {
  const guessers = Array.from({ length: 5 }, async (_, g) => {
    const c = await apiContext(playwright, via);
    const answers = [];
    for (let i = 0; i < IP_FAILURES / 5; i++)
      answers.push(await signInAttempt(c, `${prefix}-${g}@example.com`, `guess-${i}`, ip));
    await c.dispose();
    return answers;
  });
  for (const r of (await Promise.all(guessers)).flat()) expect(r).toEqual(REFUSED);
}

async function signInUiAttempt(page: Page, email: string, password: string): Promise<string> {
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  const answer = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/auth/callback/credentials");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await answer;
  const alert = page.getByRole("alert").filter({ hasText: GENERIC_FAILURE });
  await expect(alert).toBeVisible();
  return (await alert.textContent()) ?? "";
}

test("[auth][throttle] after 5 wrong passwords the form refuses the right one, with the same message", async ({
  browser,
  playwright,
}) => {
  const page = await newPage(browser);
  await page.goto("/login");
  const wrong: string[] = [];
  for (let i = 1; i <= ACCOUNT_FAILURES; i++)
    wrong.push(await signInUiAttempt(page, DEMO.lead, `not-the-password-${i}`));
  expect(new Set(wrong).size).toBe(1);
  const throttled = await signInUiAttempt(page, DEMO.lead, DEMO_PASSWORD);
  expect(throttled).toBe(wrong[0]);
  await expect(page).toHaveURL(/\/login/);
  expect(await (await page.request.get("/api/auth/session")).json()).toEqual({});
  await page.goto("/");
  await expect(page).toHaveURL(/\/login\?callbackUrl=%2F$/);
  await page.context().close();

  const failed = await auditRows(playwright, "auth.sign-in-failed");
  const lead = failed.filter((r) => r.actor === DEMO.lead).map((r) => r.detail?.reason);
  expect(lead.filter((r) => r === "wrong-password")).toHaveLength(ACCOUNT_FAILURES);
  expect(lead.filter((r) => r === "throttled")).toHaveLength(1);
});

test("[auth][throttle] API: per account, the right password is refused exactly like a wrong one; other accounts are not affected", async ({
  playwright,
}) => {
  const ctx = await apiContext(playwright);
  const role: DemoRole = "compliance";
  for (let i = 1; i <= ACCOUNT_FAILURES; i++)
    expect(await signInAttempt(ctx, DEMO[role], `not-the-password-${i}`)).toEqual(REFUSED);
  expect(await signInAttempt(ctx, DEMO[role], DEMO_PASSWORD)).toEqual(REFUSED);
  expect(await (await ctx.get("/api/auth/session")).json()).toEqual({});
  expect((await ctx.get("/api/sub-accounts")).status()).toBe(401);
  // The lock is the account's, not the client's: another account signs in from the same client.
  expect(await signInAttempt(ctx, DEMO.broker, DEMO_PASSWORD)).toEqual({ status: 200, error: null, session: true });
  await ctx.dispose();
});

test("[auth][throttle] API: 20 failures from one IP, across accounts, lock that IP out, not the accounts", async ({
  playwright,
}) => {
  test.setTimeout(90_000);
  const ip = "203.0.113.7";
  await failSignInsFromIp(playwright, "trusted-proxy", "guess", ip);
  const ctx = await apiContext(playwright, "trusted-proxy");
  expect(await signInAttempt(ctx, DEMO.admin, DEMO_PASSWORD, ip)).toEqual(REFUSED);
  expect(await signInAttempt(ctx, DEMO.admin, DEMO_PASSWORD, "203.0.113.8")).toEqual({
    status: 200,
    error: null,
    session: true,
  });
  await ctx.dispose();

  const failed = await auditRows(playwright, "auth.sign-in-failed");
  expect(failed.filter((r) => r.actor === DEMO.admin).map((r) => r.detail?.reason)).toEqual(["throttled"]);
});

test("[auth][throttle][client-ip] X-Forwarded-For from a peer that is not a trusted proxy is ignored: its own address is locked and recorded", async ({
  playwright,
}) => {
  test.setTimeout(90_000);
  const claimed = "198.51.100.23";
  await failSignInsFromIp(playwright, "untrusted-peer", "spoof", claimed);
  // The lock is on the peer's real address: from it, the right password is refused whatever it claims ...
  const peer = await apiContext(playwright, "untrusted-peer");
  expect(await signInAttempt(peer, DEMO.broker, DEMO_PASSWORD, "198.51.100.99")).toEqual(REFUSED);
  await peer.dispose();
  // ... while the address it claimed was never counted: a client there, behind the real proxy, signs in.
  const behindProxy = await apiContext(playwright, "trusted-proxy");
  expect(await signInAttempt(behindProxy, DEMO.broker, DEMO_PASSWORD, claimed)).toEqual({
    status: 200,
    error: null,
    session: true,
  });
  await behindProxy.dispose();

  const failed = await auditRows(playwright, "auth.sign-in-failed");
  const ips = new Set(failed.filter((r) => r.actor?.startsWith("spoof-")).map((r) => r.ip));
  expect([...ips]).toEqual(["127.0.0.3"]);
});

test("[auth][nextauth-url] with NEXTAUTH_URL unset, next-auth's own URLs use localhost and this instance's PORT", async ({
  playwright,
}) => {
  const ctx = await apiContext(playwright);
  const providers = (await (await ctx.get("/api/auth/providers")).json()) as Record<
    string,
    { signinUrl: string; callbackUrl: string }
  >;
  const port = new URL(instance.baseURL).port;
  expect(providers.credentials?.callbackUrl).toBe(`http://localhost:${port}/api/auth/callback/credentials`);
  expect(providers.credentials?.signinUrl).toBe(`http://localhost:${port}/api/auth/signin/credentials`);
  await ctx.dispose();
});
