// Sanctions screening at the withdrawal, in Chromium, on an instance of its own (its lists and the admin's second
// factor touch no other spec; MFA_FRESH_SECONDS is 8, so the admin's factor goes stale within the test). Compliance
// imports the SDN fixture and the simulator's listed destination (a CSV block list) through /screening's upload; a
// broker's request to that destination is held at once; the lead's approval is refused with "Held by compliance"
// and nothing more; compliance proposes the release on the case, cannot confirm it, and the admin (a second person)
// confirms it after re-verifying a stale factor; the lead's approval then sends it; the withdrawal's page shows its
// screenings and the list versions, the result only to compliance. And the simulator's sanctioned source: the
// approval of a request from its desk reads the desk's deposits from the platform, and the sanctions rule raises
// its alert and holds the desk.
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "@playwright/test";
import { generate } from "otplib";
import { HELD_BY_COMPLIANCE } from "@/lib/api/audit/confidential";
import { seriousViolations } from "./support/axe";
import { freePort } from "./support/processes";
import { startInstance, type Instance } from "./support/second-instance";
import { DEMO, sameOrigin, signIn, signInApi, type DemoRole } from "./support/staff";
import { expect, test } from "./support/test";
import { TRAVEL_RULE } from "./support/travel-rule";

test.describe.configure({ mode: "serial" });

const SDN = path.resolve("server/screening/fixtures/sdn-advanced.xml");
const FRESH_SECONDS = 8;
const PLAIN_ADDRESS = "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let instance: Instance;
let simPort = 0;
const made = { listed: "", withdrawal: "", caseId: "", desk01: "", desk23: "" };
/** The admin's TOTP secret and the last 30-second step a code was used for (the server refuses a step twice). */
const admin = { secret: "", lastStep: 0 };

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(150_000);
  simPort = await freePort();
  instance = await startInstance(
    "screening-ui",
    { SIM_PORT: String(simPort), MFA_FRESH_SECONDS: String(FRESH_SECONDS), APPROVER_COOL_OFF_HOURS: "0.001" },
    120_000,
  );
  const ctx = await playwright.request.newContext({ baseURL: instance.baseURL });
  await signInApi(ctx, "broker");
  const subs = (await (await ctx.get("/api/sub-accounts")).json()) as {
    items: { subUid: string; subaccountName: string | null }[];
  };
  const uid = (desk: string) => subs.items.find((s) => s.subaccountName?.startsWith(`${desk}@`))!.subUid;
  made.desk01 = uid("desk01");
  made.desk23 = uid("desk23");
  await ctx.dispose();
});

test.afterAll(async () => {
  await instance?.stop();
});

async function pageAs(browser: Browser, role: DemoRole, at: string): Promise<Page> {
  const page = await (await browser.newContext({ baseURL: instance.baseURL })).newPage();
  await signIn(page, role, at);
  return page;
}

async function nextCode(): Promise<string> {
  for (;;) {
    const step = Math.floor(Date.now() / 30_000);
    const use = Math.max(step, admin.lastStep + 1);
    if (use <= step + 1) {
      admin.lastStep = use;
      return generate({ secret: admin.secret, epoch: use * 30 + 1 });
    }
    await sleep(1_000);
  }
}

async function importThroughUpload(page: Page, file: { name: string; mimeType: string; buffer: Buffer }) {
  await page.getByLabel("File", { exact: true }).setInputFiles(file);
  await page.getByRole("button", { name: "Import" }).click();
  await expect(page.getByRole("status").filter({ hasText: /Imported as version #\d+ of/ })).toBeVisible({
    timeout: 30_000,
  });
}

async function approveAsLead(page: Page, w: { id: string; amount: string; address: string }) {
  const queue = page.getByRole("region", { name: "Approval queue" });
  await queue
    .locator(`tr[data-withdrawal-id="${w.id}"]`)
    .getByRole("button", { name: /^Approve / })
    .click();
  const dialog = page.getByRole("dialog", { name: "Approve and send this withdrawal" });
  await dialog.getByLabel("Amount").fill(w.amount);
  await dialog.getByLabel("Address").fill(w.address);
  await dialog.getByRole("button", { name: "Approve and send" }).click();
  return { queue, dialog };
}

test("[screening][withdrawal] a request to a listed destination is held; the lead is refused; two people release it; it is sent", async ({
  browser,
  playwright,
}) => {
  test.setTimeout(240_000);
  const headers = sameOrigin(instance.baseURL);

  // Compliance imports the SDN fixture, then the simulator's listed destination as the broker's own block list.
  const compliance = await pageAs(browser, "compliance", "/screening");
  await importThroughUpload(compliance, {
    name: "sdn_advanced.xml",
    mimeType: "application/xml",
    buffer: readFileSync(SDN),
  });
  const sim = await playwright.request.newContext();
  const handed = await sim.post(`http://127.0.0.1:${simPort}/__sim/listed-destinations`, {
    data: { chain: "TRC20", reason: "e2e screening" },
  });
  expect(handed.status(), await handed.text()).toBe(200);
  const listed = (await handed.json()) as { address: string; csv: string };
  made.listed = listed.address;
  await sim.dispose();
  await importThroughUpload(compliance, {
    name: "blocklist.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(listed.csv),
  });
  await expect(compliance.getByText("own-blocklist").first()).toBeVisible();

  // The broker's request to it: accepted, and held at once.
  const broker = await playwright.request.newContext({ baseURL: instance.baseURL });
  await signInApi(broker, "broker");
  const requested = await broker.post("/api/withdrawals", {
    headers,
    data: {
      subUid: made.desk01,
      coin: "USDT",
      dest: "on_chain",
      travelRule: TRAVEL_RULE,
      address: listed.address,
      amount: "1.5",
      reason: "e2e screening payout",
    },
  });
  expect(requested.status(), await requested.text()).toBe(200);
  const w = (await requested.json()) as { id: string; amount: string; address: string };
  made.withdrawal = w.id;
  type Alert = { id: string; ruleName: string; status: string; holds: boolean; caseId: string | null };
  const complianceApi = compliance.request;
  const sanctionsAlert = async () =>
    (
      (await (await complianceApi.get(`/api/monitoring/alerts?subUid=${made.desk01}`)).json()) as { items: Alert[] }
    ).items.find((a) => a.ruleName === "Sanctions list: withdrawal to a listed address");
  await expect.poll(async () => (await sanctionsAlert())?.status, { timeout: 30_000 }).toBe("open");
  const alert = (await sanctionsAlert())!;
  expect(alert.holds).toBe(true);
  made.caseId = alert.caseId!;

  // The lead's approval is refused, saying only that compliance holds it.
  const lead = await pageAs(browser, "lead", "/withdrawals");
  const first = await approveAsLead(lead, w);
  await expect(first.dialog.getByText(HELD_BY_COMPLIANCE)).toBeVisible();
  await expect(first.dialog).not.toContainText(/sanction|list/i);
  await lead.keyboard.press("Escape");

  // Compliance's case: the match, the listed address and the lists; clear and close cannot release it.
  await compliance.goto(`/alerts/cases/${made.caseId}`);
  const matches = compliance.getByRole("region", { name: "Sanctions list matches" });
  await expect(matches.getByRole("listitem").first()).toContainText("Sanctions list match");
  await expect(matches).toContainText(listed.address);
  await expect(matches).toContainText(/own-blocklist \(version \d+\)/);
  await expect(compliance.getByTestId("cannot-release-match")).toContainText("cannot release the sanctions list match");
  await expect(compliance.getByText("Closing the case cannot release a sanctions list match")).toBeVisible();
  expect(await seriousViolations(compliance)).toEqual([]);
  await matches.getByRole("textbox", { name: "Why this match can be released" }).fill("Listed in error: our desk");
  await matches.getByRole("button", { name: "Propose release" }).click();
  await expect(matches).toContainText(`Release proposed by ${DEMO.compliance}`);
  await expect(matches.getByText("Waiting for another person to confirm it")).toBeVisible();
  await expect(matches.getByRole("button", { name: "Confirm release" })).toHaveCount(0);
  // Nor through the route: the same person is refused.
  const own = await complianceApi.post(`/api/monitoring/cases/${made.caseId}/sanctions/${alert.id}/confirm-release`, {
    headers,
    data: { proposedBy: DEMO.compliance },
  });
  expect(own.status()).toBe(403);
  expect(((await own.json()) as { error: { code: string } }).error.code).toBe("own_request");

  // The admin, a second person, enrols an authenticator app; once its verification is stale, confirming asks again.
  const adminPage = await pageAs(browser, "admin", "/account/security");
  await adminPage.getByRole("button", { name: "Set up an authenticator app" }).click();
  admin.secret = (await adminPage.getByTestId("totp-secret").textContent())?.trim() ?? "";
  expect(admin.secret).toMatch(/^[A-Z2-7]{32}$/);
  await adminPage.getByLabel("Code from the app").fill(await nextCode());
  await adminPage.getByRole("button", { name: "Confirm the app" }).click();
  await adminPage.getByRole("button", { name: "I have saved these codes" }).click();
  await expect(adminPage.getByRole("list", { name: "Your second factors" })).toContainText("Authenticator app");
  const enrolledAt = Date.now();
  await adminPage.goto(`/alerts/cases/${made.caseId}`);
  const adminMatches = adminPage.getByRole("region", { name: "Sanctions list matches" });
  await expect(adminMatches).toContainText(`Release proposed by ${DEMO.compliance}`);
  await sleep(Math.max(0, enrolledAt + FRESH_SECONDS * 1000 + 1_000 - Date.now()));
  const stale = adminPage.waitForResponse((r) => r.url().endsWith("/confirm-release") && r.status() === 401);
  await adminMatches.getByRole("button", { name: "Confirm release" }).click();
  expect(((await (await stale).json()) as { error: { code: string } }).error.code).toBe("mfa_stale");
  const prompt = adminPage.getByRole("dialog", { name: "Verify your second factor" });
  await expect(prompt).toBeVisible();
  await prompt.getByLabel("Code from your authenticator app").fill(await nextCode());
  await prompt.getByRole("button", { name: "Verify" }).click();
  await expect(adminMatches).toContainText(`Sanctions match released by two people: proposed by ${DEMO.compliance}`);
  await expect(adminMatches).toContainText(`confirmed by ${DEMO.admin}`);
  // The case's own trail: each step, audited on the case.
  const trail = adminPage.getByRole("region", { name: "Trail (audit entries of this case)" });
  for (const action of ["release-propose", "release-confirm"])
    await expect(trail.getByText(`monitoring.${action} (success)`).first()).toBeVisible();

  // Released: the lead's approval sends it.
  await lead.reload();
  const second = await approveAsLead(lead, w);
  await expect(second.queue.getByTestId("queue-notice")).toContainText("Approved 1.5 USDT: Accepted by the platform");
});

test("[screening][withdrawal] the withdrawal's page shows each screening and the list versions; the result only to compliance", async ({
  browser,
}) => {
  test.setTimeout(90_000);
  expect(made.withdrawal, "the previous test ran").not.toBe("");
  const compliance = await pageAs(browser, "compliance", `/withdrawals/${made.withdrawal}`);
  const panel = compliance.getByRole("region", { name: "Screenings" });
  const table = panel.getByRole("table", { name: "Screenings of the destination" });
  for (const occasion of ["when requested", "in the approval", "before sending"])
    await expect(table.getByRole("row").filter({ hasText: occasion }).first()).toBeVisible();
  await expect(table.getByRole("columnheader", { name: "Screened (UTC)" })).toBeVisible();
  await expect(table).toContainText(/own-blocklist version \d+ · sha256 [0-9a-f]{12} · published/);
  await expect(table).toContainText(/ofac-sdn version \d+ · sha256 [0-9a-f]{12} · published \d{4}-\d{2}-\d{2}/);
  await expect(table.getByRole("columnheader", { name: "Result" })).toBeVisible();
  await expect(table).toContainText("listed: own-blocklist");
  expect(await seriousViolations(compliance)).toEqual([]);

  // The lead reads the screenings and versions, never a result.
  const lead = await pageAs(browser, "lead", `/withdrawals/${made.withdrawal}`);
  const leadTable = lead.getByRole("region", { name: "Screenings" }).getByRole("table");
  await expect(leadTable.getByRole("row").filter({ hasText: "when requested" })).toBeVisible();
  await expect(leadTable).toContainText(/own-blocklist version \d+/);
  await expect(leadTable.getByRole("columnheader", { name: "Result" })).toHaveCount(0);
  await expect(leadTable).not.toContainText("listed:");
  const api = (await (await lead.request.get(`/api/withdrawals/${made.withdrawal}/screenings`)).json()) as {
    items: Record<string, unknown>[];
  };
  // Only the screenings every request has: one at an approval or a send would say, on a request still waiting,
  // that a listed destination refused it.
  expect(api.items.length).toBeGreaterThanOrEqual(1);
  expect(api.items.every((i) => i.occasion === "request" || i.occasion === "rescreen")).toBe(true);
  for (const s of api.items) expect(Object.keys(s)).not.toContain("matched");
});

test("[screening][rules] Brokerdesk's own rules on /alerts/rules: marked, with no retire or new version control", async ({
  browser,
}) => {
  // Compliance, who drafts, activates and retires rules (the admin signs in with a factor since the first test).
  const page = await pageAs(browser, "compliance", "/alerts/rules");
  // All three: the addresses on either side, and the Travel Rule's names (it once offered Backtest and a retirement).
  for (const name of [
    "Sanctions list: withdrawal to a listed address",
    "Sanctions list: deposit from a listed address",
    "Sanctions list: a Travel Rule name is a listed party",
  ]) {
    const row = page.getByRole("row").filter({ hasText: name });
    await expect(row).toContainText("Brokerdesk's own");
    await expect(row).toContainText("cannot be retired, snoozed or given a new version");
    await expect(row.getByRole("button")).toHaveCount(0);
    await expect(row.getByRole("textbox")).toHaveCount(0);
  }
});

test("[screening][deposit] the sanctioned source's desk: its next approval reads the deposit, the rule raises its alert, the desk is held", async ({
  browser,
  playwright,
}) => {
  test.setTimeout(120_000);
  const headers = sameOrigin(instance.baseURL);
  const broker = await playwright.request.newContext({ baseURL: instance.baseURL });
  await signInApi(broker, "broker");
  const requested = await broker.post("/api/withdrawals", {
    headers,
    data: {
      subUid: made.desk23,
      coin: "USDT",
      dest: "on_chain",
      travelRule: TRAVEL_RULE,
      address: PLAIN_ADDRESS,
      amount: "1",
      reason: "e2e desk23 payout",
    },
  });
  expect(requested.status(), await requested.text()).toBe(200);
  const w = (await requested.json()) as { id: string; amount: string; address: string };
  const lead = await pageAs(browser, "lead", "/withdrawals");
  const { dialog } = await approveAsLead(lead, w);
  await expect(dialog.getByText(HELD_BY_COMPLIANCE)).toBeVisible({ timeout: 30_000 });

  const compliance = await playwright.request.newContext({ baseURL: instance.baseURL });
  await signInApi(compliance, "compliance");
  type Alert = { ruleName: string; status: string; holds: boolean; severity: string };
  const alerts = (
    (await (await compliance.get(`/api/monitoring/alerts?subUid=${made.desk23}`)).json()) as {
      items: Alert[];
    }
  ).items;
  expect(alerts.find((a) => a.ruleName === "Sanctions list: deposit from a listed address")).toMatchObject({
    status: "open",
    holds: true,
    severity: "high",
  });
});
