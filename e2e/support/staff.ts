import { expect, type APIRequestContext } from "@playwright/test";

export const DEMO_PASSWORD = "brokerdesk-demo";
export const DEMO = {
  compliance: "compliance@demo.brokerdesk",
  broker: "broker@demo.brokerdesk",
  lead: "lead@demo.brokerdesk",
  admin: "admin@demo.brokerdesk",
} as const;
export type DemoRole = keyof typeof DEMO;

/** Signs a request context in through next-auth's credentials flow (CSRF token, then callback). */
export async function signInApi(request: APIRequestContext, role: DemoRole): Promise<void> {
  const csrf = (await (await request.get("/api/auth/csrf")).json()) as { csrfToken: string };
  const res = await request.post("/api/auth/callback/credentials", {
    form: { csrfToken: csrf.csrfToken, email: DEMO[role], password: DEMO_PASSWORD, json: "true" },
    maxRedirects: 0,
  });
  expect([200, 302]).toContain(res.status());
  const session = (await (await request.get("/api/auth/session")).json()) as { user?: { email?: string } };
  // A refused sign-in is a redirect too (to the sign-in page with its error): say where it went.
  expect(
    session.user?.email,
    `signed in as ${role}: the callback answered ${res.status()} ${res.headers().location ?? ""}`,
  ).toBe(DEMO[role]);
}

/** Headers a same-origin browser sends with a JSON mutation. */
export function sameOrigin(baseURL: string | undefined): Record<string, string> {
  return {
    Origin: new URL(baseURL ?? process.env.E2E_BASE_URL ?? "http://127.0.0.1:3100").origin,
    "Content-Type": "application/json",
  };
}

/**
 * Signs the page's browser in over HTTP (page.request shares the context's cookies), then opens `path` and
 * waits for the shell. The login form is the subject of auth.ui.spec.ts, security.ui.spec.ts and
 * session-limits.ui.spec.ts (signInUi); every other test starts from a signed-in browser, a page load sooner.
 */
export async function signIn(page: import("@playwright/test").Page, role: DemoRole, path = "/"): Promise<void> {
  await signInApi(page.request, role);
  await page.goto(path);
  await expect(page.getByTestId("session-user")).toContainText(DEMO[role], { timeout: 20_000 });
  await waitForHydration(page);
}

/**
 * Waits until React has hydrated every control on the page (it attaches a `__reactFiber$…` property to each
 * element it hydrates). The server's HTML shows the shell at once; typing into a field before React owns it
 * is lost, and a table's stored column choices apply only after hydration.
 */
export async function waitForHydration(page: import("@playwright/test").Page): Promise<void> {
  await page.waitForFunction(
    () => {
      const controls = [...document.querySelectorAll("input, button, select, textarea")];
      return controls.length > 0 && controls.every((el) => Object.keys(el).some((k) => k.startsWith("__reactFiber$")));
    },
    undefined,
    { timeout: 20_000, polling: 50 },
  );
}

/**
 * Holds the page's scripts (not its CSS, which would hold the first paint) until the returned function is
 * called: the server's HTML is in and can be used, React is not. Held scripts keep DOMContentLoaded from firing,
 * so navigate with `waitUntil: "commit"` or let go of them on a timer.
 */
export async function holdScripts(page: import("@playwright/test").Page): Promise<() => void> {
  const scripts = "**/_next/static/chunks/*.js";
  let letGo: () => void = () => {};
  const held = new Promise<void>((resolve) => (letGo = resolve));
  const hold = async (route: import("@playwright/test").Route) => {
    await held;
    await route.continue();
  };
  await page.route(scripts, hold);
  // Let go, the route stays and passes every script on at once: removing it while held requests are still
  // being let go makes Playwright answer them itself ("Route is already handled").
  return letGo;
}

/** Signs in through the login form, as staff do, and waits for the dashboard. */
export async function signInUi(
  page: import("@playwright/test").Page,
  role: DemoRole,
  callbackPath = "/",
): Promise<void> {
  await page.goto(`/login?callbackUrl=${encodeURIComponent(callbackPath)}`);
  await page.getByLabel("E-mail").fill(DEMO[role]);
  await page.getByLabel("Password").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  // The server's first sign-in is done when its worker starts it (e2e/support/test.ts, fixture `app`); this allows a slow machine.
  await expect(page.getByTestId("session-user")).toContainText(DEMO[role], { timeout: 20_000 });
}

/** The embedded simulator's control endpoint of this run (faults, stats). */
export function simControlUrl(path: string): string {
  return `http://127.0.0.1:${process.env.E2E_SIM_PORT ?? "4110"}/__sim/${path}`;
}

/** The e2e server's approver cool-off (playwright.config.ts: APPROVER_COOL_OFF_HOURS=0.001, 3.6 s). */
export const APPROVER_COOL_OFF_MS = 3_600;

/**
 * Signs a request context in with an e-mail and password (any staff account, not only the demo ones).
 * Returns the status next-auth answered.
 */
export async function signInWith(request: APIRequestContext, email: string, password: string): Promise<boolean> {
  const csrf = (await (await request.get("/api/auth/csrf")).json()) as { csrfToken: string };
  await request.post("/api/auth/callback/credentials", {
    form: { csrfToken: csrf.csrfToken, email, password, json: "true" },
    maxRedirects: 0,
  });
  const session = (await (await request.get("/api/auth/session")).json()) as { user?: { email?: string } };
  return session.user?.email === email;
}

/**
 * What the holder of an account an admin set up does to take it over: sign in with the admin's password
 * and change it to their own (separation of duties: until then, and for the cool-off after, it may not
 * approve). Leaves `request` signed out (the change ends every session of the account).
 */
export async function takeOverAccount(
  request: APIRequestContext,
  baseURL: string | undefined,
  email: string,
  adminsPassword: string,
  ownPassword: string,
): Promise<void> {
  expect(await signInWith(request, email, adminsPassword)).toBe(true);
  const res = await request.post("/api/account/password", {
    headers: sameOrigin(baseURL),
    data: { currentPassword: adminsPassword, newPassword: ownPassword },
  });
  expect(res.status(), await res.text()).toBe(200);
}
