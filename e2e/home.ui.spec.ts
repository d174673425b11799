import { seriousViolations } from "./support/axe";
import { expect, test } from "./support/test";
import { signIn } from "./support/staff";

test("[home][read] shows the mode, the platform's health and the operations, accessibly", async ({ page }) => {
  await signIn(page, "compliance");
  await expect(page).toHaveTitle(/Brokerdesk/);
  await expect(page.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();
  await expect(page.getByLabel("Platform mode: simulator")).toHaveText("SIMULATOR");
  await expect(page.getByRole("region", { name: "Platform health" }).getByRole("status")).toContainText(
    "The platform answers",
  );
  // The operations table is reference, folded under "About".
  await page.getByText("About: the platform operations Brokerdesk uses").click();
  const ops = page.getByRole("table", { name: /platform operations Brokerdesk uses/ });
  await expect(ops).toContainText("deposits.list");
  await expect(ops.getByRole("row")).toHaveCount(12);
  await page.screenshot({ path: "test-results/home.png", fullPage: true });
  expect(await seriousViolations(page)).toEqual([]);
});
