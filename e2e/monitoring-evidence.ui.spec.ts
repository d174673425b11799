// Monitoring's evidence and bulk work in Chromium, on an instance with the sync on: compliance ticks two
// alerts of two sub-accounts on /alerts and assigns, then closes, both cases at once (each case's trail shows
// its own entries); a case's report downloads, and its SHA-256 is the one its audit entry recorded; the
// sub-account's page tells its whole story, filtered by kind.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { expect, test } from "./support/test";
import { sameOrigin, signIn, signInApi } from "./support/staff";
import type { Instance } from "./support/second-instance";
import { ownSyncedInstance } from "./support/synced-instance";

let instance: Instance;

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(300_000);
  instance = await ownSyncedInstance("monitoring-evidence");
  const headers = sameOrigin(instance.baseURL);
  const compliance = await playwright.request.newContext({ baseURL: instance.baseURL });
  await signInApi(compliance, "compliance");
  await expect
    .poll(
      async () => {
        const f = (
          (await (await compliance.get("/api/ledger/deposits?limit=1")).json()) as {
            freshness: { subaccounts: number; backfilled: number };
          }
        ).freshness;
        return f.subaccounts > 0 && f.backfilled === f.subaccounts;
      },
      { timeout: 200_000, intervals: [1_000] },
    )
    .toBe(true);
  const drafted = await compliance.post("/api/monitoring/rules", {
    headers,
    data: {
      name: "Large USDT deposit",
      kind: "large_deposit",
      severity: "high",
      holds: false,
      params: { unit: "coin", coin: "USDT", minAmount: "150000" },
    },
  });
  expect(drafted.status()).toBe(200);
  const admin = await playwright.request.newContext({ baseURL: instance.baseURL });
  await signInApi(admin, "admin");
  const id = ((await drafted.json()) as { id: string }).id;
  expect((await admin.post(`/api/monitoring/rule-versions/${id}/activate`, { headers })).status()).toBe(200);
  await Promise.all([compliance.dispose(), admin.dispose()]);
});

test.afterAll(async () => {
  await instance?.stop();
});

type Alerts = { items: { id: string; subUid: string; caseId: string | null }[] };

test("[monitoring][bulk][evidence] two cases assigned and closed at once; a report's hash is its audit entry's", async ({
  browser,
  playwright,
}) => {
  test.setTimeout(360_000);
  const api = await playwright.request.newContext({ baseURL: instance.baseURL });
  await signInApi(api, "compliance");
  // The rule's first evaluation raises an alert for every USDT deposit of 150,000 or more already in the ledger
  // (about one in twenty: the simulator's amounts are log-uniform from 10 to 250,000, so some 150 alerts over the
  // desks; a rule on every deposit raised 3,050 and its evaluation took 2.5 of the test's 6 minutes under the
  // whole suite's load); once its count holds still, the newest rows stay at the top of /alerts.
  let last = -1;
  await expect
    .poll(
      async () => {
        const { total } = (await (await api.get("/api/monitoring/alerts?limit=1")).json()) as { total: number };
        const settled = total > 0 && total === last;
        last = total;
        return settled;
      },
      { timeout: 150_000, intervals: [3_000] },
    )
    .toBe(true);

  // Two cases of two sub-accounts among the newest page of alerts (what /alerts shows first).
  const newest = (await (await api.get("/api/monitoring/alerts?limit=100")).json()) as Alerts;
  const cases = [...new Map(newest.items.filter((a) => a.caseId).map((a) => [a.subUid, a])).values()].slice(0, 2);
  expect(cases, "two sub-accounts with an open case among the newest alerts").toHaveLength(2);

  const page = await (await browser.newContext({ baseURL: instance.baseURL, acceptDownloads: true })).newPage();
  await signIn(page, "compliance", "/alerts");
  const table = page.getByRole("table", { name: "Monitoring alerts" });
  await expect(table.getByRole("row").nth(1)).toContainText("Large USDT deposit v1");
  // The table draws the rows in view (it is virtualised): scroll from its top until the sub-account's row is drawn.
  const tick = async (subUid: string) => {
    const box = table.getByRole("checkbox", { name: new RegExp(`^Choose the case of sub-account ${subUid} `) }).first();
    await table.hover();
    await page.mouse.wheel(0, -100_000);
    for (let i = 0; i < 60 && (await box.count()) === 0; i++) await page.mouse.wheel(0, 400);
    await box.check();
  };
  // Newly opened cases are not yet due: the review column says how long is left.
  await expect(table.getByRole("row").nth(1)).toContainText(/due in 1 d 2\d h|due in 2 d 0 h/);
  for (const a of cases) await tick(a.subUid);
  const bulk = page.getByTestId("bulk-actions");
  await expect(bulk.getByRole("heading")).toHaveText("2 cases chosen");
  await bulk.getByRole("textbox", { name: /^Assign to/ }).fill("compliance@demo.brokerdesk");
  await bulk.getByRole("button", { name: "Assign" }).click();
  await expect(page.getByTestId("bulk-result")).toHaveText("Assigned 2 cases.");
  // The choice was cleared: tick them again to close them with one outcome and reason.
  await expect(bulk.getByRole("heading")).toHaveText("Tick alerts to act on their cases");
  for (const a of cases) await tick(a.subUid);
  await bulk.getByRole("combobox", { name: "Close as" }).selectOption("false_positive");
  await bulk.getByRole("textbox", { name: "Reason" }).fill("Desk funding, reviewed in bulk");
  await bulk.getByRole("button", { name: "Close cases" }).click();
  await expect(page.getByTestId("bulk-result")).toHaveText("Closed 2 cases.");

  // Each case's own trail holds its update and its close; the report downloads and is the file its entry sealed.
  const first = cases[0]!;
  await page.goto(`/alerts/cases/${first.caseId}`);
  await expect(page.getByText("false positive by compliance@demo.brokerdesk")).toBeVisible();
  const trail = page.getByRole("region", { name: "Trail (audit entries of this case)" });
  for (const action of ["monitoring.case-update", "monitoring.case-close"])
    await expect(trail.getByText(new RegExp(`${action.replace(".", "\\.")} \\(success\\)`)).first()).toBeVisible();
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export report (HTML)" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^case_[0-9a-f]{8}_report_\d{4}-\d\d-\d\d\.html$/);
  const bytes = await readFile((await file.path())!);
  expect(bytes.toString("utf8")).toContain("Desk funding, reviewed in bulk");
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const audit = (await (await api.get(`/api/audit?action=monitoring.case-report&outcome=success&limit=5`)).json()) as {
    rows: { target: string; detail: { sha256?: string; bytes?: number } }[];
  };
  const entry = audit.rows.find((r) => r.target === `case:${first.caseId}`);
  expect(entry?.detail).toMatchObject({ sha256, bytes: bytes.length });

  // The sub-account's story: its deposits, its alert and its case's audit entries, filtered by kind.
  await page.goto(`/sub-accounts/${first.subUid}`);
  const story = page.getByRole("table", { name: "Timeline of this sub-account" });
  await expect(story.getByRole("row").filter({ hasText: "Alert: Large USDT deposit" }).first()).toBeVisible();
  await expect(story.getByRole("row").filter({ hasText: "monitoring.case-close (success)" }).first()).toBeVisible();
  await page.getByRole("combobox", { name: "Kind" }).selectOption({ label: "Alerts" });
  await expect(story.getByRole("row").nth(1)).toContainText("Alert: Large USDT deposit");
  await expect(story.getByRole("row").filter({ hasText: "Deposit of" })).toHaveCount(0);
  await story
    .getByRole("link", { name: /^Open Alert / })
    .first()
    .click();
  await expect(page).toHaveURL(new RegExp(`/alerts/cases/${first.caseId}$`));
  await api.dispose();
});
