// After a form is submitted, the focus moves to its answer or to the first field refused
// (FormOutcome in components/ui/form.tsx, applyServerErrors, react-hook-form's own checks).
import type { Page } from "@playwright/test";
import { signIn } from "./support/staff";
import { expect, test } from "./support/test";

const leverageForm = (page: Page) => page.getByRole("form", { name: "Set leverage" });

test("[leverage.set][focus] a refused field, the platform's refusal, then the result each take the focus after a submit", async ({
  page,
}) => {
  await signIn(page, "lead", "/leverage");
  const f = leverageForm(page);
  const submit = f.getByRole("button", { name: "Set leverage" });

  // The form's own check: the first refused field (Symbol) takes the focus.
  await submit.click();
  await expect(f.getByLabel("Symbol", { exact: true })).toBeFocused();

  // Leverage out of range for BTCUSDT: that field takes it, nothing is sent.
  await f.getByLabel("Symbol", { exact: true }).fill("BTCUSDT");
  await f.getByLabel("Margin coin", { exact: true }).fill("USDT");
  await f.getByLabel("Leverage", { exact: true }).fill("126");
  await submit.click();
  await expect(f.getByLabel("Leverage", { exact: true })).toBeFocused();

  // The platform refuses ETHUSDT without a side (isolated hedge there, crossed chosen here): the form takes the
  // account's modes, and the side it asks for takes the focus; the refusal is said below without taking it.
  await f.getByLabel("Symbol", { exact: true }).fill("ETHUSDT");
  await f.getByLabel("Leverage", { exact: true }).fill("10");
  await page.getByRole("radiogroup", { name: "Margin mode" }).getByLabel("crossed").check();
  await submit.click();
  const refusal = page.getByRole("alert").filter({ hasText: "The platform refused the change" });
  await expect(refusal).toBeVisible();
  await expect(page.getByRole("radiogroup", { name: "Hold side (holdSide)" }).getByLabel("long")).toBeFocused();

  // Success: the result takes the focus.
  await page.getByRole("radiogroup", { name: "Margin mode" }).getByLabel("crossed").check();
  await page.getByRole("radiogroup", { name: "Position mode" }).getByLabel("one-way").check();
  await f.getByLabel("Symbol", { exact: true }).fill("BTCUSDT");
  await submit.click();
  const result = page
    .getByRole("status")
    .filter({ has: page.getByRole("region", { name: "The platform's leverage" }) });
  await expect(result).toBeFocused();
});

test("[users.create][focus] the first field the server refused, then the answer, take the focus after a submit", async ({
  page,
}) => {
  await signIn(page, "admin", "/admin/users");
  const form = page.getByRole("region", { name: "Add a staff user" });
  const add = form.getByRole("button", { name: "Add user" });
  const email = `focus-${Date.now()}@example.com`;

  // Too short a password: refused by the server on that field, which takes the focus.
  await form.getByLabel("E-mail").fill(email);
  await form.getByLabel("Name").fill("Focus Person");
  await form.getByLabel("Initial password").fill("short");
  await add.click();
  await expect(form.getByText("Password must be at least 12 characters")).toBeVisible();
  await expect(form.getByLabel("Initial password")).toBeFocused();

  // Created: the answer takes it.
  await form.getByLabel("Initial password").fill("a-long-enough-password");
  await add.click();
  const created = form.getByRole("status").filter({ hasText: `Created ${email} (broker).` });
  await expect(created).toBeFocused();

  // The same e-mail again (409 on email): the e-mail field takes it.
  await form.getByLabel("E-mail").fill(email);
  await form.getByLabel("Initial password").fill("a-long-enough-password");
  await add.click();
  await expect(form.getByText("A staff user with this e-mail already exists")).toBeVisible();
  await expect(form.getByLabel("E-mail")).toBeFocused();
  expect(await page.evaluate(() => document.activeElement?.getAttribute("type"))).toBe("email");
});
