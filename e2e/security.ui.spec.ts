import { expect, test } from "./support/test";
import { signInUi } from "./support/staff";

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
      console.error(`Content Security Policy violation: ${e.violatedDirective} ${e.blockedURI} at ${e.sourceFile}:${e.lineNumber}:${e.columnNumber}`);
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
