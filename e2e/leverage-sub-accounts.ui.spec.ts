// Leverage for a sub-account that has a configured key. An instance of its own (second-instance.ts)
// with two sub-account keys, PLATFORM_KEY_SUB<UID>_*: desk01's for lead and admin (the default), desk02's for
// admin only. The embedded simulator registers each for its UID (server/simulator/subaccount-keys.ts), so
// E10 signed with desk01's key changes desk01's leverage on the simulated platform, and the main account's not.
import { readFileSync } from "node:fs";
import path from "node:path";
import type { APIRequestContext, Browser, Page } from "@playwright/test";
import { freePort } from "./support/processes";
import { startInstance, type Instance } from "./support/second-instance";
import { sameOrigin, signInApi, signIn, waitForHydration, type DemoRole } from "./support/staff";
import { expect, test } from "./support/test";

type Seed = { mainUid: string; subaccounts: { uid: string; subaccountName: string }[] };
// The simulator's first 25 sub-accounts are fixed for a seed (scale.test.ts checks this file against it).
const seed = JSON.parse(readFileSync(path.resolve("server/simulator/fixtures/seed42-first25.json"), "utf8")) as Seed;
const uidOf = (desk: string) => seed.subaccounts.find((s) => s.subaccountName.startsWith(`${desk}@`))!.uid;
const DESK01 = uidOf("desk01");
const DESK02 = uidOf("desk02");
const DESK01_SECRET = `e2e-sub-secret-${Date.now()}-desk01-never-shown`;

let instance: Instance;
let simPort: number;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  simPort = await freePort();
  instance = await startInstance("leverage-sub", {
    SIM_PORT: String(simPort),
    SIM_SEED: "42",
    [`PLATFORM_KEY_SUB${DESK01}_API_KEY`]: "bd_e2e_sub_desk01",
    [`PLATFORM_KEY_SUB${DESK01}_API_SECRET`]: DESK01_SECRET,
    [`PLATFORM_KEY_SUB${DESK01}_API_PASSPHRASE`]: "bd-e2e-sub-passphrase",
    [`PLATFORM_KEY_SUB${DESK02}_API_KEY`]: "bd_e2e_sub_desk02",
    [`PLATFORM_KEY_SUB${DESK02}_API_SECRET`]: "e2e-sub-secret-desk02-admin-only",
    [`PLATFORM_KEY_SUB${DESK02}_API_PASSPHRASE`]: "bd-e2e-sub-passphrase",
    [`PLATFORM_KEY_SUB${DESK02}_ROLES`]: "admin",
  });
});

test.afterAll(async () => {
  await instance?.stop();
});

type Leverage = { crossMarginLeverage: string; marginMode: string };
async function simLeverage(ctx: APIRequestContext, uid: string, symbol: string): Promise<Leverage> {
  const res = await ctx.get(
    `http://127.0.0.1:${simPort}/__sim/accounts/${uid}/leverage?productType=USDT-FUTURES&symbol=${symbol}`,
  );
  expect(res.status()).toBe(200);
  return (await res.json()) as Leverage;
}
async function e10Requests(ctx: APIRequestContext): Promise<number> {
  const s = (await (await ctx.get(`http://127.0.0.1:${simPort}/__sim/stats`)).json()) as {
    operations: Record<string, { requests: number } | undefined>;
  };
  return s.operations["leverage.set"]?.requests ?? 0;
}
async function apiAs(
  playwright: { request: { newContext(o: { baseURL: string }): Promise<APIRequestContext> } },
  role: DemoRole,
): Promise<APIRequestContext> {
  const ctx = await playwright.request.newContext({ baseURL: instance.baseURL });
  await signInApi(ctx, role);
  return ctx;
}
async function leadPage(browser: Browser): Promise<Page> {
  const page = await (await browser.newContext({ baseURL: instance.baseURL })).newPage();
  await signIn(page, "lead", "/leverage");
  return page;
}
const form = (page: Page) => page.getByRole("form", { name: "Set leverage" });

test("[leverage.set][sub-account] a lead sets XRPUSDT leverage for desk01 with its own key: desk01's leverage changes on the platform, the main account's does not", async ({
  browser,
  playwright,
}) => {
  const sim = await playwright.request.newContext();
  const mainBefore = await simLeverage(sim, seed.mainUid, "XRPUSDT");
  const deskBefore = await simLeverage(sim, DESK01, "XRPUSDT");
  expect(deskBefore.crossMarginLeverage).not.toBe("13");

  const page = await leadPage(browser);
  const account = form(page).getByLabel("Account");
  // The accounts a lead may choose: the main account and desk01 (by name, beside its UID); desk02's key is for admin only.
  await expect(account.locator("option")).toHaveText([
    "Main account (broker)",
    `desk01@brokerdesk-sim.example · UID ${DESK01}`,
  ]);
  await account.selectOption({ label: `desk01@brokerdesk-sim.example · UID ${DESK01}` });
  await expect(page).toHaveURL(new RegExp(`account=sub${DESK01}`));
  await form(page).getByLabel("Product type").selectOption("USDT-FUTURES");
  await form(page).getByLabel("Symbol", { exact: true }).fill("XRPUSDT");
  await form(page).getByLabel("Margin coin", { exact: true }).fill("USDT");
  await expect(form(page).getByRole("status", { name: "Last set through Brokerdesk" })).toContainText(
    `No leverage has been set for XRPUSDT through Brokerdesk on desk01@brokerdesk-sim.example · UID ${DESK01}`,
  );
  await form(page).getByLabel("Leverage", { exact: true }).fill("13");
  const sent = page.waitForRequest((r) => r.url().endsWith("/api/leverage/set") && r.method() === "POST");
  await page.getByRole("button", { name: "Set leverage" }).click();
  expect(((await sent).postDataJSON() as { key: string }).key).toBe(`sub${DESK01}`);

  const result = page.getByRole("region", { name: "The platform's leverage" });
  await expect(result).toContainText(`for desk01@brokerdesk-sim.example · UID ${DESK01}`);
  await expect(result.locator("dl")).toContainText("Cross margin leverage13");
  // The answer takes the focus (FormOutcome).
  await expect(page.getByRole("status").filter({ has: result })).toBeFocused();

  // The simulated platform: desk01's leverage changed, the main account's did not.
  expect((await simLeverage(sim, DESK01, "XRPUSDT")).crossMarginLeverage).toBe("13");
  expect(await simLeverage(sim, seed.mainUid, "XRPUSDT")).toEqual(mainBefore);

  // The history names the account; what was last set is per account and symbol.
  const history = page.getByRole("region", { name: "Leverage changes" });
  await expect(history.locator("tbody tr").first()).toContainText(`desk01@brokerdesk-sim.example · UID ${DESK01}`);
  await page.reload();
  await waitForHydration(page);
  await form(page).getByLabel("Symbol", { exact: true }).fill("XRPUSDT");
  const last = form(page).getByRole("status", { name: "Last set through Brokerdesk" });
  await expect(last).toContainText(
    `Last set through Brokerdesk for XRPUSDT on desk01@brokerdesk-sim.example · UID ${DESK01}: leverage 13 by lead@demo.brokerdesk`,
  );
  await form(page).getByLabel("Account").selectOption({ label: "Main account (broker)" });
  await expect(last).toContainText("No leverage has been set for XRPUSDT through Brokerdesk on Main account (broker)");

  // Audited: the intent names the key that signed it, before the platform was called, and the outcome follows.
  const admin = await apiAs(playwright, "admin");
  const rows = (
    (await (await admin.get("/api/audit?action=leverage.set&limit=10")).json()) as {
      rows: { target: string | null; outcome: string; params: unknown }[];
    }
  ).rows;
  expect(rows.slice(0, 2).map((r) => [r.outcome, r.target])).toEqual([
    ["success", `platform-key:sub${DESK01}`],
    ["intent", `platform-key:sub${DESK01}`],
  ]);
  // The key's secret is never in what the browser was sent.
  expect(await page.content()).not.toContain(DESK01_SECRET);
  expect(await (await admin.get("/api/leverage/accounts")).text()).not.toContain(DESK01_SECRET);
  await admin.dispose();
  await sim.dispose();
});

test("[leverage.set][sub-account][rbac] desk02's key is for admin only: a lead choosing it is refused 403 platform_key_forbidden, audited, nothing sent; a broker is refused any key", async ({
  playwright,
}) => {
  const sim = await playwright.request.newContext();
  const before = await e10Requests(sim);
  const deskBefore = await simLeverage(sim, DESK02, "BTCUSDT");
  const body = { productType: "USDT-FUTURES", symbol: "BTCUSDT", marginCoin: "USDT", leverage: "11" };

  const lead = await apiAs(playwright, "lead");
  const accounts = (
    (await (await lead.get("/api/leverage/accounts")).json()) as { items: { key: string }[] }
  ).items.map((a) => a.key);
  expect(accounts).toEqual(["main", `sub${DESK01}`]);
  const refused = await lead.post("/api/platform/v2/mix/account/set-leverage", {
    headers: { ...sameOrigin(instance.baseURL), "x-platform-key": `sub${DESK02}` },
    data: body,
  });
  expect(refused.status()).toBe(403);
  expect(((await refused.json()) as { error: { code: string; message: string } }).error).toMatchObject({
    code: "platform_key_forbidden",
    message: expect.stringContaining(`"sub${DESK02}"; it is for admin`),
  });

  const broker = await apiAs(playwright, "broker");
  const brokerTry = await broker.post("/api/platform/v2/mix/account/set-leverage", {
    headers: { ...sameOrigin(instance.baseURL), "x-platform-key": `sub${DESK01}` },
    data: body,
  });
  expect(brokerTry.status()).toBe(403);
  expect((await broker.get("/api/leverage/accounts")).status()).toBe(403);

  expect(await e10Requests(sim)).toBe(before);
  expect(await simLeverage(sim, DESK02, "BTCUSDT")).toEqual(deskBefore);

  const admin = await apiAs(playwright, "admin");
  const refusals = (
    (await (await admin.get("/api/audit?action=request.refused&limit=50")).json()) as {
      rows: { actor: string; detail: { code?: string } | null }[];
    }
  ).rows;
  expect(refusals.some((r) => r.actor === "lead@demo.brokerdesk" && r.detail?.code === "platform_key_forbidden")).toBe(
    true,
  );
  for (const c of [lead, broker, admin, sim]) await c.dispose();
});
