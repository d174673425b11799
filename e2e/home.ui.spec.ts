import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { signInUi } from "./support/staff";

test("[home][read] shows the mode, the platform's health and the operations, accessibly", async ({ page }) => {
  await signInUi(page, "compliance");
  await expect(page).toHaveTitle(/Brokerdesk/);
  await expect(page.getByRole("heading", { level: 1, name: "Brokerdesk" })).toBeVisible();
  await expect(page.getByLabel("Platform mode: simulator")).toHaveText("SIMULATOR");
  await expect(page.getByRole("status")).toContainText("The platform answers");
  await expect(page.getByRole("table")).toContainText("deposits.list");
  await expect(page.getByRole("row")).toHaveCount(12);
  await page.screenshot({ path: "test-results/home.png", fullPage: true });
  const axe = await new AxeBuilder({ page }).analyze();
  const serious = axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
});
