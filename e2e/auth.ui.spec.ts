import type { Page } from "@playwright/test";
import { expect, test } from "./support/test";
import { holdScripts } from "./support/staff";

const DEMO_PASSWORD = "brokerdesk-demo";
const ROLES = ["compliance", "broker", "lead", "admin"] as const;
type Role = (typeof ROLES)[number];
const email = (role: Role) => `${role}@demo.brokerdesk`;
// The one message for every failed sign-in (server/auth/throttle.ts).
const GENERIC_FAILURE = /E-mail or password is wrong, or there were too many attempts/;
// Next's route announcer is also role="alert"; ours is the one with text.
const failureAlert = (page: Page) => page.getByRole("alert").filter({ hasText: GENERIC_FAILURE });

async function signIn(page: Page, role: Role, path = "/login") {
  await page.goto(path);
  await expect(page).toHaveTitle(/Sign in/);
  await page.getByRole("button", { name: `Use ${role} demo account` }).click();
  await expect(page.getByLabel("E-mail")).toHaveValue(email(role));
  await expect(page.getByLabel("Password")).toHaveValue(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/** Opens `path` with its scripts held back 1.5 s: the HTML is in, React is not (the load event would wait for them). */
async function openBeforeScripts(page: Page, path: string) {
  const release = await holdScripts(page);
  setTimeout(release, 1_500);
  await page.goto(path, { waitUntil: "domcontentloaded" });
}

for (const role of ROLES) {
  test(`[auth][sign-in] ${role}: signs in, sees e-mail and role in the header, signs out`, async ({ page }) => {
    await signIn(page, role);
    // Generous: the first sign-in after a fresh start also opens the embedded database.
    await expect(page).toHaveURL(/\/$/, { timeout: 20_000 });
    const who = page.getByTestId("session-user");
    await expect(who).toContainText(email(role));
    await expect(who).toContainText(role);
    await expect(page.getByRole("link", { name: "Staff users" })).toHaveCount(role === "admin" ? 1 : 0);
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/login$/);
    // Signed out for real: the dashboard sends us back to the sign-in page.
    await page.goto("/");
    await expect(page).toHaveURL(/\/login\?callbackUrl=%2F$/);
  });
}

test("[auth][sign-out] a click while the page's code is still loading signs out once it has loaded", async ({
  page,
}) => {
  await signIn(page, "broker");
  await expect(page).toHaveURL(/\/$/, { timeout: 20_000 });
  // Until React has hydrated the header, its button has no handler.
  await openBeforeScripts(page, "/assets");
  const button = page.getByRole("button", { name: "Sign out" });
  await expect(button).toBeDisabled();
  await button.click();
  await expect(page).toHaveURL(/\/login$/);
  await page.unrouteAll({ behavior: "ignoreErrors" });
  await page.goto("/");
  await expect(page).toHaveURL(/\/login\?callbackUrl=%2F$/);
});

test("[auth][sign-in] a password sent before the page's code has loaded never goes into the address", async ({
  page,
}) => {
  await openBeforeScripts(page, "/login");
  await page.getByLabel("E-mail").fill(email("broker"));
  await page.getByLabel("Password").fill(DEMO_PASSWORD);
  // Enter at once: the browser's own submit of a form nobody handles yet would put the fields in the URL.
  await page.getByLabel("Password").press("Enter");
  await page.unrouteAll({ behavior: "ignoreErrors" });
  const signInButton = page.getByRole("button", { name: "Sign in", exact: true });
  await expect(signInButton).toBeEnabled();
  expect(page.url()).not.toContain(DEMO_PASSWORD);
  expect(page.url()).not.toContain("password=");
  await page.getByLabel("E-mail").fill(email("broker"));
  await page.getByLabel("Password").fill(DEMO_PASSWORD);
  await signInButton.click();
  await expect(page).toHaveURL(/\/$/, { timeout: 20_000 });
  await expect(page.getByTestId("session-user")).toContainText(email("broker"));
});

test("[auth][account] a password change sent before the page's code has loaded never goes into the address", async ({
  page,
}) => {
  await signIn(page, "broker");
  await expect(page).toHaveURL(/\/$/, { timeout: 20_000 });
  await openBeforeScripts(page, "/account");
  await page.getByLabel("Current password").fill(DEMO_PASSWORD);
  await page.getByLabel("New password").fill("a-new-password-typed-early");
  await page.getByLabel("New password").press("Enter");
  await page.unrouteAll({ behavior: "ignoreErrors" });
  await expect(page.getByRole("button", { name: "Change password" })).toBeEnabled();
  expect(page.url()).not.toContain("a-new-password-typed-early");
  expect(page.url()).not.toContain(DEMO_PASSWORD);
  await expect(page).toHaveURL(/\/account$/);
});

test("[auth][sign-in] a wrong password shows the one generic message", async ({ page }) => {
  await page.goto("/login");
  await page.getByLabel("E-mail").fill(email("lead"));
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(failureAlert(page)).toBeVisible();
  const wrongPassword = await failureAlert(page).textContent();
  await expect(page).toHaveURL(/\/login/);
  // An unknown e-mail reads exactly the same.
  await page.getByLabel("E-mail").fill("nobody@example.com");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(failureAlert(page)).toHaveText(wrongPassword ?? "");
});

test("[auth][session] an anonymous visit to / goes to the sign-in page, and back after signing in", async ({
  page,
}) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/login\?callbackUrl=%2F$/);
  await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();
  await page.goto("/admin/users");
  await expect(page).toHaveURL(/\/login\?callbackUrl=/);
  await signIn(page, "admin", "/login?callbackUrl=%2Fadmin%2Fusers");
  await expect(page).toHaveURL(/\/admin\/users$/);
});

test("[users][create] an admin lists staff and creates a user, with field errors from the server", async ({ page }) => {
  await signIn(page, "admin");
  await expect(page).toHaveURL(/\/$/);
  await page.getByRole("link", { name: "Staff users" }).click();
  await expect(page).toHaveURL(/\/admin\/users$/);
  await expect(page).toHaveTitle(/Staff users/);
  await expect(page.getByRole("heading", { level: 1, name: "Staff users" })).toBeVisible();
  const table = page.getByRole("table");
  await expect(table).toContainText(email("broker"));
  await expect(table.getByRole("row", { name: /admin@demo\.brokerdesk/ })).toContainText(
    /\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/,
  );

  const form = page.getByRole("region", { name: "Add a staff user" });
  const newEmail = `e2e-${Date.now()}@example.com`;
  await form.getByLabel("E-mail").fill(newEmail);
  await form.getByLabel("Name").fill("E2E Person");
  await form.getByLabel("Role").selectOption("compliance");
  await form.getByLabel("Initial password").fill("short");
  await form.getByRole("button", { name: "Add user" }).click();
  await expect(form.getByText("Password must be at least 12 characters")).toBeVisible();
  // Long enough and still guessed early: the server refuses it on the field; the rule was said before.
  await expect(form.getByLabel("Initial password")).toHaveAccessibleDescription(
    /At least 12 characters, not easy to guess/,
  );
  await form.getByLabel("Initial password").fill("aaaaaaaaaaaa");
  await form.getByRole("button", { name: "Add user" }).click();
  await expect(form.getByLabel("Initial password")).toHaveAccessibleDescription(
    /password is too easy to guess \(repeated characters/i,
  );
  await expect(table).not.toContainText(newEmail);

  await form.getByLabel("Initial password").fill("a-long-enough-password");
  await form.getByRole("button", { name: "Add user" }).click();
  await expect(form.getByText(`Created ${newEmail} (compliance).`)).toBeVisible();
  const row = table.getByRole("row", { name: new RegExp(newEmail.replace(/[.]/g, "\\.")) });
  await expect(row).toContainText("E2E Person");
  await expect(row).toContainText("never");
  await expect(row.getByRole("combobox")).toHaveValue("compliance");

  // The same e-mail again: 409, shown under the e-mail field.
  await form.getByLabel("E-mail").fill(newEmail);
  await form.getByLabel("Initial password").fill("a-long-enough-password");
  await form.getByRole("button", { name: "Add user" }).click();
  await expect(form.getByText("A staff user with this e-mail already exists")).toBeVisible();

  // Disable, then the new user cannot sign in.
  await row.getByRole("button", { name: `Disable ${newEmail}` }).click();
  await page
    .getByRole("dialog", { name: `Disable ${newEmail}?` })
    .getByRole("button", { name: "Disable", exact: true })
    .click();
  await expect(row).toContainText("Disabled");
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel("E-mail").fill(newEmail);
  await page.getByLabel("Password").fill("a-long-enough-password");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(failureAlert(page)).toBeVisible();
});

test("[users][read] a broker is refused /admin/users, page and API", async ({ page }) => {
  await signIn(page, "broker");
  await expect(page).toHaveURL(/\/$/);
  await page.goto("/admin/users");
  await expect(page.getByRole("heading", { level: 1, name: "Not allowed" })).toBeVisible();
  await expect(page.getByRole("table")).toHaveCount(0);
  const api = await page.request.get("/api/admin/users");
  expect(api.status()).toBe(403);
});
