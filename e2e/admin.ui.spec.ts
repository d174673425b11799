import { expect, test } from "./support/test";
import { sameOrigin, signInApi, signInUi } from "./support/staff";

// The staff page (issue 16): what each role may do is said on the page; a role change and disabling are
// asked for first, and nothing changes until they are confirmed.

test("[users][daily] each role says what it may do; a role change and disabling ask for confirmation first", async ({ page, playwright, baseURL }) => {
  const admin = await playwright.request.newContext({ baseURL });
  await signInApi(admin, "admin");
  const email = `confirm-${Date.now()}@example.com`;
  const made = await admin.post("/api/admin/users", {
    headers: sameOrigin(baseURL),
    data: { email, name: "Confirm Me", role: "compliance", password: "a-long-enough-password" },
  });
  expect(made.status(), await made.text()).toBe(200);
  const stored = async () =>
    ((await (await admin.get("/api/admin/users")).json()) as { users: { email: string; role: string; disabled: boolean }[] }).users.find((u) => u.email === email)!;

  await signInUi(page, "admin", "/admin/users");
  await page.goto("/admin/users");
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
