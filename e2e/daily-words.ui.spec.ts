// Issue 16, "words for staff, not for developers", in Chromium: forms and error states say fields by their
// words, the platform's refusals say what they mean without naming Brokerdesk's operations or the simulator,
// and the sub-account page says where its sections come from in words.
import { expect, test } from "./support/test";
import { subUid } from "./support/faults";
import { signInUi } from "./support/staff";

const DEV_WORDS = /subaccountName|subUid|was refused by the platform|\(sim\)|\bE\d{1,2} ·/;

test("[issue 16][subaccounts.create][words] an empty or taken name is said in words; focus goes to the first error, then to the result", async ({ page }) => {
  await signInUi(page, "lead", "/sub-accounts");
  const form = page.getByRole("region", { name: "Create sub-account" });
  await expect(form).not.toContainText(/\(E6\)/);
  await form.getByRole("button", { name: "Create sub-account" }).click();
  const name = form.getByLabel("Name (e-mail form)");
  await expect(form.getByText("Name is required", { exact: true })).toBeVisible();
  await expect(name).toBeFocused();
  await expect(form).not.toContainText(DEV_WORDS);

  // Taken: the registry knows it; said on the field, which gets the focus.
  const subs = (await (await page.request.get("/api/sub-accounts")).json()) as { items: { subaccountName: string | null }[] };
  const taken = subs.items.find((s) => s.subaccountName)!.subaccountName!;
  await name.fill(taken.toUpperCase());
  await form.getByRole("button", { name: "Create sub-account" }).click();
  await expect(form.getByText(/already exists .*names are unique/)).toBeVisible();
  await expect(name).toBeFocused();

  // Created: the result takes the focus, so a screen reader and the keyboard land on it.
  await name.fill(`words-${Date.now()}@example.com`);
  await form.getByRole("button", { name: "Create sub-account" }).click();
  const result = form.getByText(/^Created words-/);
  await expect(result).toBeVisible();
  await expect(page.locator(":focus")).toContainText(/Created words-/);
});

test("[issue 16][words] a refusal's words name no operation, no simulator and no raw field; no Retry where it cannot help", async ({ page }) => {
  await signInUi(page, "compliance", "/rebates?uid=12345");
  const alert = page.getByRole("alert").filter({ hasText: "Platform error" });
  await expect(alert).toContainText("Platform error 40034");
  await expect(alert).toContainText("An identifier was not found.");
  await expect(alert).not.toContainText(DEV_WORDS);
  await expect(alert).not.toContainText("rebates.get");
  await expect(alert.getByRole("button", { name: "Retry" })).toHaveCount(0);

  // A sub-account's page says where each section comes from in words, not in operation codes.
  const uid = await subUid(page.request, "desk01");
  await page.goto(`/sub-accounts/${uid}`);
  await expect(page.getByRole("heading", { name: "Spot assets" })).toBeVisible();
  await expect(page.getByRole("main")).not.toContainText(DEV_WORDS);
  await expect(page.getByRole("main")).toContainText("From the platform");
});
