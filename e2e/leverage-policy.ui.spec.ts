// Over 60 s: one story, in order, that waits for the second admin's factor to go stale (MFA_FRESH_SECONDS, 8) and
// then for a fresh TOTP step (up to 30 s), on an instance of its own started in beforeAll (a published leverage
// policy would judge every other spec's leverage changes).
// The leverage policy in the browser: a lead sets leverage three times; an admin edits the example rules in the
// ordered list (BTCUSDT's maximum down to 12×), dry-runs them over those changes (rule 1 would have refused the
// 15× BTCUSDT change, rule 2 sent the 40× ETHUSDT one to a second lead), saves the draft; its author cannot
// publish it; a second admin publishes it with a fresh second factor; a lead reads the limits in force. Then the
// routes' bad input over HTTP: each refused on its field, nothing changed.
import type { APIRequestContext, Browser, Page } from "@playwright/test";
import { startInstance, type Instance } from "./support/second-instance";
import { DEMO, sameOrigin, signIn, signInApi, type DemoRole } from "./support/staff";
import { expect, test } from "./support/test";
import { answerFactorPrompt, secondAdminWithApp, untilFactorStale } from "./support/second-admin";

test.describe.configure({ mode: "serial" });

const FRESH_SECONDS = 8;
const ADMIN2 = {
  email: "second-leverage-admin@example.com",
  first: "chosen-by-the-first-admin-1",
  own: "the-second-admins-own-1",
};

let instance: Instance;

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(120_000);
  instance = await startInstance("leverage-policy", {
    MFA_FRESH_SECONDS: String(FRESH_SECONDS),
    APPROVER_COOL_OFF_HOURS: "0.001",
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

async function setLeverage(lead: APIRequestContext, symbol: string, leverage: string) {
  const res = await lead.post("/api/platform/v2/mix/account/set-leverage", {
    headers: sameOrigin(instance.baseURL),
    data: { productType: "USDT-FUTURES", symbol, marginCoin: "USDT", leverage, holdSide: "long" },
  });
  expect(res.status(), await res.text()).toBe(200);
}

test("[leverage-policy][e2e] drafted in the ordered list, dry-run over the changes, published by a second admin with a fresh factor, read by a lead", async ({
  browser,
  playwright,
}) => {
  test.setTimeout(180_000);
  const lead = await apiAs(playwright, "lead");
  await setLeverage(lead, "BTCUSDT", "15");
  await setLeverage(lead, "ETHUSDT", "40");
  await setLeverage(lead, "XRPUSDT", "5");

  // The first admin tightens rule 1 of the example in the list and tries the draft on the changes.
  const admin = await pageAs(browser, "admin", "/policy/leverage");
  await expect(admin.getByRole("heading", { level: 1, name: "Leverage policy" })).toBeVisible();
  await expect(admin.getByTestId("leverage-policy-published")).toHaveText(
    "No version is published: every leverage change is allowed.",
  );
  const rule1 = admin.getByRole("listitem", { name: "Rule 1" });
  await expect(rule1.getByLabel("Symbol (* for any)")).toHaveValue("BTCUSDT");
  await rule1.getByLabel("Maximum leverage").fill("12");
  await rule1.getByLabel("Second lead from (×)").fill("10");
  await admin.getByRole("button", { name: "Dry run" }).click();
  await expect(admin.getByTestId("leverage-dry-run-read")).toContainText("3 leverage changes read from the audit log");
  const caught1 = admin.locator('[data-testid="leverage-dry-run-rule"][data-rule="1"]');
  await expect(caught1).toContainText(
    "Rule 1 “BTC”: decides 1 change, would have caught 1 (1 refused, 0 for a second lead)",
  );
  await expect(caught1.locator('tr[data-verdict="refuse"]')).toContainText("BTCUSDT (USDT-FUTURES)");
  const caught2 = admin.locator('[data-testid="leverage-dry-run-rule"][data-rule="2"]');
  await expect(caught2).toContainText("would have caught 1 (0 refused, 1 for a second lead)");
  await expect(caught2.locator('tr[data-verdict="second-lead"]')).toContainText("40×");

  // A rule out of order is said on its field, and nothing is drafted.
  await rule1.getByLabel("Second lead from (×)").fill("13");
  await admin.getByRole("button", { name: "Save as draft" }).click();
  await expect(admin.locator("#leverage-policy-problems")).toContainText(
    "rule 1 “BTC”: secondLeadAt: secondLeadAt must be at most maxLeverage",
  );
  await rule1.getByLabel("Second lead from (×)").fill("10");
  await admin.getByRole("button", { name: "Save as draft" }).click();
  await expect(admin.getByTestId("leverage-policy-said")).toHaveText("Drafted version 1: another admin publishes it.");
  const draftRow = admin.locator('tr[data-version="1"]');
  await expect(draftRow).toContainText("1 (draft)");
  await expect(draftRow).toContainText("BTCUSDT on USDT-FUTURES: at most 12×; a second lead from 10×");
  await expect(draftRow.getByRole("button", { name: "Publish version 1" })).toHaveCount(0);
  const own = await admin.request.post("/api/leverage/policy/1/publish", { headers: sameOrigin(instance.baseURL) });
  expect(own.status()).toBe(403);

  // A second admin: made by the first, takes the account over, enrols an app.
  const two = await secondAdminWithApp(browser, playwright, instance.baseURL, admin, ADMIN2);
  const second = two.page;

  // Once the factor is stale, publishing asks for it again.
  await untilFactorStale(two, FRESH_SECONDS);
  await second.goto("/policy/leverage");
  await second.locator('tr[data-version="1"]').getByRole("button", { name: "Publish version 1" }).click();
  await answerFactorPrompt(two);
  await expect(second.getByTestId("leverage-policy-said")).toHaveText(
    "Published version 1: it judges every leverage change now.",
  );
  await expect(second.locator('tr[data-version="1"]')).toContainText("1 (published)");

  // A lead reads the limits in force, and drafts nothing.
  const leadPage = await pageAs(browser, "lead", "/policy/leverage");
  const inForce = leadPage.getByTestId("leverage-policy-published");
  await expect(inForce).toContainText(`Version 1, published`);
  await expect(inForce).toContainText(`by ${ADMIN2.email}`);
  await expect(inForce).toContainText("BTC: BTCUSDT on USDT-FUTURES: at most 12×; a second lead from 10×");
  await expect(inForce).toContainText("Everything else: any symbol on any product type: at most 20×");
  await expect(leadPage.getByRole("heading", { name: "Draft a version" })).toHaveCount(0);

  // Every step is in the audit chain.
  for (const [action, actor] of [
    ["leveragePolicy.dry-run", DEMO.admin],
    ["leveragePolicy.draft", DEMO.admin],
    ["leveragePolicy.publish", ADMIN2.email],
  ] as const) {
    const rows = (await (await admin.request.get(`/api/audit?action=${action}`)).json()) as {
      rows: { actor: string; outcome: string }[];
    };
    expect(
      rows.rows.some((r) => r.outcome === "success" && r.actor === actor),
      action,
    ).toBe(true);
  }

  // Bad input over HTTP: refused on the field, and the versions read the same after.
  const state = async () => JSON.stringify(await (await admin.request.get("/api/leverage/policy")).json());
  const before = await state();
  const rule = { name: "r", productType: "*", symbol: "*", maxLeverage: 10 };
  const refusedOn = async (path: string, data: unknown, field: string, words: RegExp) => {
    const res = await admin.request.post(path, { headers: sameOrigin(instance.baseURL), data });
    expect(res.status(), `${path} ${JSON.stringify(data)}`).toBe(422);
    const body = (await res.json()) as { error: { fieldErrors: Record<string, string[]> } };
    expect(Object.keys(body.error.fieldErrors)).toEqual([field]);
    expect(body.error.fieldErrors[field]!.join(" ")).toMatch(words);
  };
  for (const path of ["/api/leverage/policy", "/api/leverage/policy/dry-run"]) {
    await refusedOn(path, { rules: [{ ...rule, maxLeverage: 126 }] }, "rules", /maxLeverage must be at most 125/);
    await refusedOn(path, { rules: [{ ...rule, symbol: "btc" }] }, "rules", /symbol must be/);
    await refusedOn(path, { rules: [{ ...rule, productType: "SPOT" }] }, "rules", /productType must be/);
    await refusedOn(path, { rules: "all" }, "rules", /rules must be a list/);
  }
  await refusedOn("/api/leverage/policy", { rules: [rule], note: "x".repeat(501) }, "note", /at most 500/);
  await refusedOn("/api/leverage/policy/dry-run", { rules: [rule], days: 91 }, "days", /at most 90/);
  await refusedOn("/api/leverage/policy/dry-run", { rules: [rule], days: "ninety" }, "days", /number of days/);
  // A version that names nothing is not found (the demo admin has no second factor, so none is asked).
  for (const verb of ["publish", "discard"]) {
    const res = await admin.request.post(`/api/leverage/policy/nine/${verb}`, {
      headers: sameOrigin(instance.baseURL),
    });
    expect(res.status(), verb).toBe(404);
  }
  expect(await state()).toBe(before);
  await lead.dispose();
});
