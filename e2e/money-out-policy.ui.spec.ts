// Over 60 s (about 63 s on the loaded 2-core machine, docs/testing.md): one story, in order, that waits for the
// second admin's factor to go stale (MFA_FRESH_SECONDS, 8) and then for a fresh TOTP step (up to 30 s), on an
// instance of its own started in beforeAll.
// The money-out policy in the browser, on an instance of its own (a published policy would change what every
// other spec's withdrawals need): an admin drafts "USDT over 50,000 value, or to a new address: one lead and
// one compliance", tries it on the past withdrawals, a second admin publishes it with a fresh second factor,
// and a broker's 60,000 USDT request then waits for a lead and for compliance before it is sent.
import type { APIRequestContext, Browser, Page } from "@playwright/test";
import { startInstance, type Instance } from "./support/second-instance";
import { DEMO, sameOrigin, signIn, signInApi, type DemoRole } from "./support/staff";
import { expect, test } from "./support/test";
import { answerFactorPrompt, secondAdminWithApp, untilFactorStale } from "./support/second-admin";
import { TRAVEL_RULE } from "./support/travel-rule";

test.describe.configure({ mode: "serial" });

const FRESH_SECONDS = 8;
const ADDRESS = "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE";
const RULE = "USDT over 50,000 value, or to a new address";
const ADMIN2 = {
  email: "second-admin@example.com",
  first: "chosen-by-the-first-admin-1",
  own: "the-second-admins-own-1",
};

let instance: Instance;

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(120_000);
  instance = await startInstance("policy", {
    MFA_FRESH_SECONDS: String(FRESH_SECONDS),
    APPROVER_COOL_OFF_HOURS: "0.001",
    DESTINATION_LOCK_HOURS: "0",
  });
  const ctx = await playwright.request.newContext({ baseURL: instance.baseURL });
  await signInApi(ctx, "admin");
  await ctx.dispose();
});

test.afterAll(async () => {
  await instance?.stop();
});

async function apiAs(
  playwright: { request: { newContext(o: { baseURL: string }): Promise<APIRequestContext> } },
  role: DemoRole,
) {
  const ctx = await playwright.request.newContext({ baseURL: instance.baseURL });
  await signInApi(ctx, role);
  return ctx;
}

async function pageAs(browser: Browser, role: DemoRole, path: string): Promise<Page> {
  const page = await (await browser.newContext({ baseURL: instance.baseURL })).newPage();
  await signIn(page, role, path);
  return page;
}

async function desk01(ctx: APIRequestContext): Promise<string> {
  const { items } = (await (await ctx.get("/api/sub-accounts")).json()) as {
    items: { subUid: string; subaccountName: string | null }[];
  };
  return items.find((s) => s.subaccountName?.startsWith("desk01@"))!.subUid;
}

type Requested = {
  id: string;
  amount: string;
  address: string;
  state: string;
  policy: { version: number | null; rule: string; stillNeeded: string | null };
};

async function request(ctx: APIRequestContext, subUid: string, amount: string): Promise<Requested> {
  const res = await ctx.post("/api/withdrawals", {
    headers: sameOrigin(instance.baseURL),
    data: {
      subUid,
      coin: "USDT",
      dest: "on_chain",
      travelRule: TRAVEL_RULE,
      address: ADDRESS,
      amount,
      reason: `policy e2e ${amount}`,
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as Requested;
}

async function approveInQueue(page: Page, w: Requested) {
  const row = page.getByRole("region", { name: "Approval queue" }).locator(`tr[data-withdrawal-id="${w.id}"]`);
  await row.getByRole("button", { name: /^Approve / }).click();
  const dialog = page.getByRole("dialog", { name: "Approve and send this withdrawal" });
  await dialog.getByLabel("Amount").fill(w.amount);
  await dialog.getByLabel("Address").fill(w.address);
  await dialog.getByRole("button", { name: "Approve and send" }).click();
  await expect(dialog).toBeHidden();
}

test("[policy][e2e] drafted, dry-run, published by a second admin with a fresh factor; a 60,000 USDT request needs a lead and compliance", async ({
  browser,
  playwright,
}) => {
  test.setTimeout(180_000);
  const broker = await apiAs(playwright, "broker");
  const uid = await desk01(broker);
  // A past withdrawal to an address outside the book: one lead then; the draft would ask for two.
  const past = await request(broker, uid, "1.5");
  expect(past.policy).toMatchObject({ version: null, rule: "Default: one lead", stillNeeded: "needs lead" });

  // The first admin drafts the example rules and tries them on the past withdrawals.
  const admin = await pageAs(browser, "admin", "/policy");
  await expect(admin.getByRole("heading", { level: 1, name: "Money-out policy" })).toBeVisible();
  await admin.getByRole("button", { name: "Dry run" }).click();
  await expect(admin.getByTestId("dry-run-totals")).toHaveText(
    "1 withdrawal would change: 1 would need more approvals, 0 fewer, 0 would be blocked.",
  );
  await expect(admin.getByTestId("dry-run").locator(`tr[data-withdrawal-id="${past.id}"]`)).toContainText(
    "one lead and one compliance",
  );
  await admin.getByRole("button", { name: "Save as draft" }).click();
  await expect(admin.getByTestId("policy-said")).toHaveText("Drafted version 1: another admin publishes it.");
  // Its author has no Publish button, and the server refuses them anyway.
  const draftRow = admin.locator('tr[data-version="1"]');
  await expect(draftRow).toContainText("1 (draft)");
  await expect(draftRow.getByRole("button", { name: "Publish version 1" })).toHaveCount(0);
  const own = await admin.request.post("/api/policy/1/publish", { headers: sameOrigin(instance.baseURL) });
  expect(own.status()).toBe(403);

  // A second admin: made by the first, takes the account over, enrols an app.
  const two = await secondAdminWithApp(browser, playwright, instance.baseURL, admin, ADMIN2);
  const second = two.page;

  // Once the factor is stale, publishing asks for it again.
  await untilFactorStale(two, FRESH_SECONDS);
  await second.goto("/policy");
  await second.locator('tr[data-version="1"]').getByRole("button", { name: "Publish version 1" }).click();
  await answerFactorPrompt(two);
  await expect(second.getByTestId("policy-said")).toHaveText("Published version 1: it decides new withdrawals now.");
  await expect(second.locator('tr[data-version="1"]')).toContainText(`1 (published)`);

  // The broker's 60,000 USDT request needs a lead and compliance.
  const big = await request(broker, uid, "60000");
  expect(big.policy).toMatchObject({ version: 1, rule: RULE, stillNeeded: "needs lead and compliance" });

  const lead = await pageAs(browser, "lead", "/withdrawals");
  await expect(
    lead.getByRole("region", { name: "Approval queue" }).locator(`tr[data-withdrawal-id="${big.id}"]`),
  ).toContainText(`Policy version 1, rule “${RULE}”: 1 lead + 1 compliance — needs lead and compliance`);
  await approveInQueue(lead, big);
  await expect(lead.getByTestId("queue-notice")).toContainText("needs one more approval: compliance");
  const afterLead = (await (await broker.get(`/api/withdrawals/${big.id}`)).json()) as Requested;
  expect(afterLead.state).toBe("requested");

  const compliance = await pageAs(browser, "compliance", "/withdrawals");
  await approveInQueue(compliance, big);
  await expect(compliance.getByTestId("queue-notice")).toContainText("Accepted by the platform");

  // The withdrawal's page and the audit log name the version and the rule.
  await compliance.goto(`/withdrawals/${big.id}`);
  await expect(compliance.getByTestId("withdrawal-policy")).toContainText(`Policy version 1, rule “${RULE}”`);
  await expect(compliance.getByRole("list", { name: "Timeline" })).toContainText(`by ${DEMO.lead} as lead`);
  const audit = (await (await admin.request.get("/api/audit?action=withdrawals.request")).json()) as {
    rows: { outcome: string; detail: unknown }[];
  };
  const recorded = audit.rows.find((r) => r.outcome === "success" && JSON.stringify(r.detail).includes(big.id));
  expect((recorded?.detail as { policy?: unknown } | undefined)?.policy).toMatchObject({ version: 1, rule: RULE });
  const published = (await (await admin.request.get("/api/audit?action=policy.publish")).json()) as {
    rows: { actor: string; outcome: string; target: string | null }[];
  };
  expect(
    published.rows.some((r) => r.actor === ADMIN2.email && r.outcome === "success" && r.target === "policy:1"),
  ).toBe(true);
  await broker.dispose();
});
