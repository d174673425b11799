import { expect, test } from "./support/test";
import { sameOrigin, signInApi, signIn } from "./support/staff";

// The staff page: what each role may do is said on the page; a role change and disabling are
// asked for first, and nothing changes until they are confirmed.

test("[users][daily] each role says what it may do; a role change and disabling ask for confirmation first", async ({
  page,
  playwright,
  baseURL,
}) => {
  const admin = await playwright.request.newContext({ baseURL });
  await signInApi(admin, "admin");
  const email = `confirm-${Date.now()}@example.com`;
  const made = await admin.post("/api/admin/users", {
    headers: sameOrigin(baseURL),
    data: { email, name: "Confirm Me", role: "compliance", password: "a-long-enough-password" },
  });
  expect(made.status(), await made.text()).toBe(200);
  const stored = async () =>
    (
      (await (await admin.get("/api/admin/users")).json()) as {
        users: { email: string; role: string; disabled: boolean }[];
      }
    ).users.find((u) => u.email === email)!;

  await signIn(page, "admin", "/admin/users");
  const roles = page.getByRole("region", { name: "What each role may do" });
  await expect(roles).toContainText("compliance");
  await expect(roles).toContainText("approving or rejecting others' withdrawals");
  await expect(roles).toContainText("Manages staff");

  const row = page.getByRole("row", { name: new RegExp(email.replace(/[.]/g, "\\.")) });
  await row.getByLabel(`Role of ${email}`).selectOption("lead");
  const ask = page.getByRole("dialog", { name: `Make ${email} lead?` });
  await expect(ask).toBeVisible();
  await expect(ask).toContainText("From compliance to lead");
  await expect(ask).toContainText("setting leverage");
  // Escape: nothing changes, here or on the server.
  await page.keyboard.press("Escape");
  await expect(ask).toBeHidden();
  await expect(row.getByLabel(`Role of ${email}`)).toHaveValue("compliance");
  expect((await stored()).role).toBe("compliance");

  await row.getByLabel(`Role of ${email}`).selectOption("lead");
  await ask.getByRole("button", { name: "Make lead" }).click();
  await expect(ask).toBeHidden();
  await expect(row.getByLabel(`Role of ${email}`)).toHaveValue("lead");
  expect((await stored()).role).toBe("lead");

  await row.getByRole("button", { name: `Disable ${email}` }).click();
  const disable = page.getByRole("dialog", { name: `Disable ${email}?` });
  await expect(disable).toContainText("They can no longer sign in");
  expect((await stored()).disabled).toBe(false);
  await disable.getByRole("button", { name: "Disable", exact: true }).click();
  await expect(row).toContainText("Disabled");
  expect((await stored()).disabled).toBe(true);
  await admin.dispose();
});

test("[users][daily] a password reset makes up a one-time password, shown once, that must be changed at the next sign-in", async ({
  page,
  browser,
  playwright,
  baseURL,
}) => {
  const admin = await playwright.request.newContext({ baseURL });
  await signInApi(admin, "admin");
  const email = `one-time-${Date.now()}@example.com`;
  const made = await admin.post("/api/admin/users", {
    headers: sameOrigin(baseURL),
    data: { email, name: "One Time", role: "compliance", password: "a-long-enough-password" },
  });
  expect(made.status(), await made.text()).toBe(200);

  await signIn(page, "admin", "/admin/users");
  const row = page.getByRole("row", { name: new RegExp(email.replace(/[.]/g, "\\.")) });
  await row.getByRole("button", { name: `Reset password of ${email}` }).click();
  const ask = page.getByRole("dialog", { name: `Reset the password of ${email}?` });
  await expect(ask).toContainText("must change it before anything else");
  await ask.getByRole("button", { name: "Reset password" }).click();
  await expect(ask).toBeHidden();
  const shown = row.getByTestId("one-time-password");
  await expect(shown).toHaveText(/^[A-Za-z0-9_-]{20}$/);
  const oneTime = (await shown.textContent())!;
  // Shown once: hidden for good once the admin is done; and the audit log records whose, never what.
  await row.getByRole("button", { name: "Done, hide it" }).click();
  await expect(row.getByTestId("one-time-password")).toHaveCount(0);
  const audit = await (
    await admin.get("/api/audit", { params: { action: "users.reset-password", limit: "20" } })
  ).text();
  expect(audit).toContain(email);
  expect(audit).not.toContain(oneTime);
  await admin.dispose();

  // The holder signs in with it: every page leads to /account, every other route refuses, until it is changed.
  const holder = await (await browser.newContext()).newPage();
  await holder.goto(`/login?callbackUrl=${encodeURIComponent("/sub-accounts")}`);
  await holder.getByLabel("E-mail").fill(email);
  await holder.getByLabel("Password").fill(oneTime);
  await holder.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(holder).toHaveURL(/\/account\?must-change-password=1$/);
  await expect(holder.getByRole("alert").filter({ hasText: "An admin reset your password" })).toBeVisible();
  await holder.goto("/audit");
  await expect(holder).toHaveURL(/\/account\?must-change-password=1$/);
  const refused = await holder.request.get("/api/sub-accounts");
  expect(refused.status()).toBe(403);
  expect(await refused.text()).toContain("change it on your Account page first");

  await holder.getByLabel("Current password").fill(oneTime);
  await holder.getByLabel("New password").fill("my-own-password-after-reset");
  await holder.getByRole("button", { name: "Change password" }).click();
  await expect(holder).toHaveURL(/\/login\?notice=password-changed/);
  await holder.getByLabel("E-mail").fill(email);
  await holder.getByLabel("Password").fill("my-own-password-after-reset");
  await holder.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(holder.getByTestId("session-user")).toContainText(email);
  await holder.goto("/sub-accounts");
  await expect(holder).toHaveURL(/\/sub-accounts$/);
  expect((await holder.request.get("/api/sub-accounts")).status()).toBe(200);
  await holder.context().close();
});
