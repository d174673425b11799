// Monitoring as compliance works it: an instance with the sync on; compliance drafts a rule, the admin (a
// second person) activates it, its evaluation over the whole history raises alerts; compliance finds them on
// /alerts, opens a sub-account's case, writes a note, closes it as "monitored" with a reason, and the case's
// own trail shows each step.
import { expect, test } from "./support/test";
import { sameOrigin, signIn, signInApi } from "./support/staff";
import type { Instance } from "./support/second-instance";
import { syncedInstance } from "./support/synced-instance";

let instance: Instance;

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(240_000);
  // The run's shared instance with the sync on (e2e/support/synced-instance.ts).
  instance = await syncedInstance();
  const ctx = await playwright.request.newContext({ baseURL: instance.baseURL });
  await signInApi(ctx, "compliance");
  await expect
    .poll(
      async () => {
        const f = (
          (await (await ctx.get("/api/ledger/deposits?limit=1")).json()) as {
            freshness: { subaccounts: number; backfilled: number };
          }
        ).freshness;
        return f.subaccounts > 0 && f.backfilled === f.subaccounts;
      },
      { timeout: 200_000, intervals: [1_000] },
    )
    .toBe(true);
  await ctx.dispose();
});

test.afterAll(async () => {
  await instance?.stop();
});

test("[monitoring][cases] a rule activated by a second person raises alerts; compliance works one into a closed case", async ({
  browser,
  playwright,
}) => {
  test.setTimeout(180_000);
  const headers = sameOrigin(instance.baseURL);
  const compliance = await playwright.request.newContext({ baseURL: instance.baseURL });
  await signInApi(compliance, "compliance");

  // A window-less span rule is refused on its field, and nothing is drafted.
  const bad = await compliance.post("/api/monitoring/rules", {
    headers,
    data: {
      name: "no window",
      kind: "aggregate",
      severity: "low",
      holds: false,
      params: { source: "deposits", measure: "count", op: ">=", threshold: "2" },
    },
  });
  expect(bad.status()).toBe(422);
  const refusal = (await bad.json()) as { error: { code: string; fieldErrors: Record<string, string[]> } };
  expect(refusal.error.code).toBe("invalid_input");
  expect(Object.keys(refusal.error.fieldErrors)).toEqual(["windowHours"]);

  const drafted = await compliance.post("/api/monitoring/rules", {
    headers,
    data: {
      name: "USDT deposits",
      kind: "large_deposit",
      severity: "medium",
      holds: false,
      params: { unit: "coin", coin: "USDT", minAmount: "1" },
    },
  });
  expect(drafted.status()).toBe(200);
  const version = (await drafted.json()) as { id: string };
  // The author cannot activate their own draft.
  const own = await compliance.post(`/api/monitoring/rule-versions/${version.id}/activate`, { headers });
  expect(own.status()).toBe(403);

  const admin = await playwright.request.newContext({ baseURL: instance.baseURL });
  await signInApi(admin, "admin");
  const activated = await admin.post(`/api/monitoring/rule-versions/${version.id}/activate`, { headers });
  expect(activated.status()).toBe(200);

  type Page = { items: { subUid: string; caseId: string | null }[]; total: number };
  let first: Page["items"][number] | undefined;
  await expect
    .poll(
      async () => {
        const page = (await (await compliance.get("/api/monitoring/alerts?limit=5")).json()) as Page;
        first = page.items.find((a) => a.caseId);
        return page.total > 0 && first !== undefined;
      },
      { timeout: 60_000, intervals: [1_000] },
    )
    .toBe(true);

  const page = await (await browser.newContext({ baseURL: instance.baseURL })).newPage();
  await signIn(page, "compliance", `/alerts?subUid=${first!.subUid}`);
  const table = page.getByRole("table", { name: "Monitoring alerts" });
  await expect(table.getByRole("row").nth(1)).toContainText("USDT deposits v1");
  await table
    .getByRole("link", { name: `Open the case of sub-account ${first!.subUid}` })
    .first()
    .click();
  await expect(page).toHaveURL(/\/alerts\/cases\//);

  await page.getByRole("button", { name: "Assign to me" }).click();
  await expect(page.getByText("compliance@demo.brokerdesk").first()).toBeVisible();
  await page.getByRole("textbox", { name: "Note", exact: true }).fill("Deposits match the desk's declared funding.");
  await page.getByRole("button", { name: "Add note" }).click();
  await expect(page.getByText("Deposits match the desk's declared funding.")).toBeVisible();
  await page.getByRole("combobox", { name: /^Outcome/ }).selectOption("monitored");
  await page
    .getByRole("textbox", { name: "Reason for closing", exact: true })
    .fill("Keep watching this desk's USDT funding");
  await page.getByRole("button", { name: "Close case" }).click();
  await expect(page.getByText("monitored by compliance@demo.brokerdesk")).toBeVisible();

  const trail = page.getByRole("region", { name: "Trail (audit entries of this case)" });
  for (const action of ["monitoring.case-update", "monitoring.case-note", "monitoring.case-close"])
    await expect(trail.getByText(new RegExp(`${action.replace(".", "\\.")} \\(success\\)`)).first()).toBeVisible();
  // Closed: nothing more can be done on it.
  await expect(page.getByRole("button", { name: "Add note" })).toHaveCount(0);
});
