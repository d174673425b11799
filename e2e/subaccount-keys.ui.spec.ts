// Sub-account keys held as data, in the browser, on an instance of its own: the demo admin adds desk03's key on
// /admin/keys (its secret is this run's SUBACCOUNT_KEY_SECRET, so the response, log and static scans look for it);
// it signs nothing and its adder cannot approve it; a second admin (made by the first, taken over, with an app)
// approves it once a stale factor is verified again; the lead's /leverage then offers desk03, and E10 signed with
// the added key changes desk03's leverage on the simulator (which learnt the key when it was added).
import { readFileSync } from "node:fs";
import path from "node:path";
import type { APIRequestContext, Browser, Page } from "@playwright/test";
import { freePort } from "./support/processes";
import { startInstance, type Instance } from "./support/second-instance";
import { secretsOfThisRun } from "./support/secrets";
import { sameOrigin, signIn } from "./support/staff";
import { expect, test } from "./support/test";
import { answerFactorPrompt, secondAdminWithApp, untilFactorStale } from "./support/second-admin";

type Seed = { mainUid: string; subaccounts: { uid: string; subaccountName: string }[] };
const seed = JSON.parse(readFileSync(path.resolve("server/simulator/fixtures/seed42-first25.json"), "utf8")) as Seed;
const DESK03 = seed.subaccounts.find((s) => s.subaccountName.startsWith("desk03@"))!;
const DESK03_LABEL = `${DESK03.subaccountName} · UID ${DESK03.uid}`;
const FRESH_SECONDS = 8;
const ADMIN2 = {
  email: "keys-second-admin@example.com",
  first: "chosen-by-the-first-admin-2",
  own: "keys-admins-own-2",
};

let instance: Instance;
let simPort: number;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  simPort = await freePort();
  instance = await startInstance("subaccount-keys", {
    SIM_PORT: String(simPort),
    SIM_SEED: "42",
    MFA_FRESH_SECONDS: String(FRESH_SECONDS),
    APPROVER_COOL_OFF_HOURS: "0.001",
  });
});

test.afterAll(async () => {
  await instance?.stop();
});

async function pageAs(browser: Browser, role: "admin" | "lead", where: string): Promise<Page> {
  const page = await (await browser.newContext({ baseURL: instance.baseURL })).newPage();
  await signIn(page, role, where);
  return page;
}

async function simLeverage(ctx: APIRequestContext, uid: string): Promise<string> {
  const res = await ctx.get(
    `http://127.0.0.1:${simPort}/__sim/accounts/${uid}/leverage?productType=USDT-FUTURES&symbol=XRPUSDT`,
  );
  expect(res.status()).toBe(200);
  return ((await res.json()) as { crossMarginLeverage: string }).crossMarginLeverage;
}

test("[keys][e2e] an admin adds desk03's key, a second admin with a fresh factor approves it, and the lead's /leverage offers desk03", async ({
  browser,
  playwright,
}) => {
  test.setTimeout(180_000);
  const { SUBACCOUNT_KEY_SECRET } = secretsOfThisRun();

  // The first admin adds the key: sealed at once, waiting for a second admin.
  const admin = await pageAs(browser, "admin", "/admin/keys");
  await expect(admin.getByRole("heading", { level: 1, name: "Sub-account API keys" })).toBeVisible();
  const add = admin.getByRole("region", { name: "Add a sub-account's API key" });
  await add.getByLabel("Sub-account UID").fill(DESK03.uid);
  await add.getByLabel("API key").fill("bd_e2e_sub_desk03");
  await add.getByLabel("Secret", { exact: true }).fill(SUBACCOUNT_KEY_SECRET);
  await add.getByLabel("Passphrase").fill("bd-e2e-sub-pass");
  await add.getByRole("button", { name: "Add key" }).click();
  await expect(add).toContainText(`Added the key of sub-account ${DESK03.uid} (v1): it waits for a second admin.`);
  const row = admin.getByRole("row").filter({ hasText: DESK03.subaccountName });
  await expect(row).toContainText("Waiting for a second admin");
  await expect(row.getByRole("button", { name: /^Approve/ })).toHaveCount(0);
  const own = await admin.request.post(`/api/admin/keys/${DESK03.uid}/approve`, {
    headers: sameOrigin(instance.baseURL),
    data: { version: 1 },
  });
  expect(own.status()).toBe(403);
  // Bad input names its field, and nothing is added.
  const bad = await admin.request.post("/api/admin/keys", {
    headers: sameOrigin(instance.baseURL),
    data: { uid: "12ab", apiKey: "bd_e2e_sub_x", apiSecret: SUBACCOUNT_KEY_SECRET, passphrase: "p" },
  });
  expect(bad.status()).toBe(422);
  const refusal = (await bad.json()) as { error: { fieldErrors?: Record<string, unknown> } };
  expect(refusal.error.fieldErrors).toHaveProperty("uid");
  const keys = (await (await admin.request.get("/api/admin/keys")).json()) as { keys: { uid: string | null }[] };
  expect(keys.keys.filter((k) => k.uid !== null).map((k) => k.uid)).toEqual([DESK03.uid]);

  // Not approved: the lead is offered the main account only.
  const lead = await pageAs(browser, "lead", "/leverage");
  const account = lead.getByRole("form", { name: "Set leverage" }).getByLabel("Account");
  await expect(account.locator("option")).toHaveText(["Main account (broker)"]);

  // A second admin: made by the first, takes the account over, enrols an app.
  const two = await secondAdminWithApp(browser, playwright, instance.baseURL, admin, ADMIN2);
  const second = two.page;

  // Once the factor is stale, approving asks for it again; then the key is in use.
  await untilFactorStale(two, FRESH_SECONDS);
  await second.goto("/admin/keys");
  const secondRow = second.getByRole("row").filter({ hasText: DESK03.subaccountName });
  await secondRow.getByRole("button", { name: `Approve v1 of ${DESK03.subaccountName} (${DESK03.uid})'s key` }).click();
  await answerFactorPrompt(two);
  await expect(secondRow).toContainText("Approved v1: it signs for");
  await expect(secondRow).toContainText("In use");
  await expect(secondRow).toContainText(ADMIN2.email);

  // The lead's /leverage offers desk03; E10 signed with the added key changes desk03's leverage on the simulator.
  await lead.reload();
  await expect(account.locator("option")).toHaveText(["Main account (broker)", DESK03_LABEL]);
  await account.selectOption({ label: DESK03_LABEL });
  const form = lead.getByRole("form", { name: "Set leverage" });
  await form.getByLabel("Product type").selectOption("USDT-FUTURES");
  await form.getByLabel("Symbol", { exact: true }).fill("XRPUSDT");
  await form.getByLabel("Margin coin", { exact: true }).fill("USDT");
  await form.getByLabel("Leverage", { exact: true }).fill("12");
  await lead.getByRole("button", { name: "Set leverage" }).click();
  await expect(lead.getByRole("region", { name: "The platform's leverage" }).locator("dl")).toContainText(
    "Cross margin leverage12",
  );
  const sim = await playwright.request.newContext();
  expect(await simLeverage(sim, DESK03.uid)).toBe("12");
  await sim.dispose();
  // The secret is never shown again (the run's response scan looks for it in every answer too).
  expect(await second.content()).not.toContain(SUBACCOUNT_KEY_SECRET);
  expect(await (await admin.request.get("/api/admin/keys")).text()).not.toContain(SUBACCOUNT_KEY_SECRET);
});
