import { expect, test } from "./support/test";
import { DEMO, DEMO_PASSWORD, signInUi } from "./support/staff";

test("[security][csp] pages load with no CSP violation and stay interactive", async ({ page }) => {
  const violations: string[] = [];
  page.on("console", (msg) => {
    if (/Content Security Policy/i.test(msg.text())) violations.push(msg.text());
  });
  page.on("pageerror", (err) => {
    if (/Content Security Policy/i.test(err.message)) violations.push(err.message);
  });
  // Checked in the page too: securitypolicyviolation fires even where the console message differs.
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      console.error(
        `Content Security Policy violation: ${e.violatedDirective} ${e.blockedURI} at ${e.sourceFile}:${e.lineNumber}:${e.columnNumber}`,
      );
    });
  });

  await page.emulateMedia({ colorScheme: "light" });
  await page.goto("/login");
  await expect(page.getByRole("button", { name: "Sign in", exact: true })).toBeVisible();

  await signInUi(page, "broker");
  // Hydrated: the theme toggle (a client component) answers, and the inline theme script ran after a reload.
  await page.getByRole("radio", { name: "Dark" }).check();
  await expect(page.locator("html")).toHaveClass(/\bdark\b/);
  await page.reload({ waitUntil: "domcontentloaded" });
  expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);
  await page.getByRole("radio", { name: "Light" }).check();
  await expect(page.locator("html")).not.toHaveClass(/\bdark\b/);

  // A client-side navigation (RSC fetch) still works under connect-src 'self'.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Deposits" }).click();
  await expect(page).toHaveURL(/\/deposits/);
  await page.waitForLoadState("networkidle");

  expect(violations).toEqual([]);
});

// The callbackUrl is resolved as the browser resolves it, on this origin only.
const SMUGGLED = [
  "%2F%09%2Fevil.example%2Fpath",
  "%2F%0A%2Fevil.example",
  "%2F%0D%2Fevil.example",
  "%2F%5Cevil.example",
  "%2F.%2F%2Fevil.example",
];

test("[security][redirect] a signed-in browser sent to /login with a smuggled callbackUrl stays on this site; odd characters are not a 500", async ({
  page,
  baseURL,
}) => {
  await signInUi(page, "broker");
  for (const cb of [...SMUGGLED, "%2Fdeposits%E3%80%82x"]) {
    const res = await page.request.get(`/login?callbackUrl=${cb}`, { maxRedirects: 0 });
    expect(res.status(), cb).toBe(307);
    const location = new URL(res.headers()["location"]!, baseURL);
    expect(location.origin, cb).toBe(new URL(baseURL!).origin);
  }
  await page.goto(`/login?callbackUrl=${SMUGGLED[0]}`);
  await expect(page).toHaveURL(new URL("/", baseURL).href);
});

test("[security][redirect] after a fresh sign-in a smuggled callbackUrl goes home, not to another host", async ({
  page,
  baseURL,
}) => {
  await page.goto(`/login?callbackUrl=${SMUGGLED[0]}`);
  await page.getByLabel("E-mail").fill(DEMO.broker);
  await page.getByLabel("Password").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByTestId("session-user")).toBeVisible({ timeout: 20_000 });
  expect(new URL(page.url()).origin).toBe(new URL(baseURL!).origin);
  expect(new URL(page.url()).pathname).toBe("/");
});

test("[security][redirect] a deep link survives sign-in: path and query", async ({ page }) => {
  const deep = "/deposits?range=90d&coin=USDT";
  await page.goto(deep);
  await expect(page).toHaveURL(/\/login\?callbackUrl=%2Fdeposits%3Frange%3D90d%26coin%3DUSDT$/);
  await page.getByLabel("E-mail").fill(DEMO.compliance);
  await page.getByLabel("Password").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByTestId("session-user")).toBeVisible({ timeout: 20_000 });
  await expect(page).toHaveURL(/\/deposits\?range=90d&coin=USDT$/);
});
