// The leverage record: a lead sets desk01's leverage with its own key (an instance of its own with desk01's key,
// PLATFORM_KEY_SUB<UID>_*, as leverage-sub-accounts.ui.spec.ts starts one), and sees it in the record on /leverage
// (filters narrowing it) and on desk01's page, from the platform's answer, with who and why. Bad input on the new
// routes is refused on its field and sends nothing.
import { readFileSync } from "node:fs";
import path from "node:path";
import type { APIRequestContext, Page } from "@playwright/test";
import { seriousViolations } from "./support/axe";
import { freePort } from "./support/processes";
import { startInstance, type Instance } from "./support/second-instance";
import { sameOrigin, signIn, signInApi, waitForHydration } from "./support/staff";
import { expect, test } from "./support/test";

type Seed = { mainUid: string; subaccounts: { uid: string; subaccountName: string }[] };
const seed = JSON.parse(readFileSync(path.resolve("server/simulator/fixtures/seed42-first25.json"), "utf8")) as Seed;
const DESK01 = seed.subaccounts.find((s) => s.subaccountName.startsWith("desk01@"))!.uid;

let instance: Instance;
let simPort: number;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  simPort = await freePort();
  instance = await startInstance("leverage-record", {
    SIM_PORT: String(simPort),
    SIM_SEED: "42",
    [`PLATFORM_KEY_SUB${DESK01}_API_KEY`]: "bd_e2e_record_desk01",
    [`PLATFORM_KEY_SUB${DESK01}_API_SECRET`]: `e2e-record-secret-${Date.now()}`,
    [`PLATFORM_KEY_SUB${DESK01}_API_PASSPHRASE`]: "bd-e2e-sub-passphrase",
  });
});
test.afterAll(async () => {
  await instance?.stop();
});

async function e10Requests(ctx: APIRequestContext): Promise<number> {
  const s = (await (await ctx.get(`http://127.0.0.1:${simPort}/__sim/stats`)).json()) as {
    operations: Record<string, { requests: number } | undefined>;
  };
  return s.operations["leverage.set"]?.requests ?? 0;
}
const form = (page: Page) => page.getByRole("form", { name: "Set leverage" });
const record = (page: Page) => page.getByRole("region", { name: "Leverage record", exact: true });
const recordRows = (page: Page) => record(page).locator("tbody tr");

test("[leverage.record][ui] a lead sets desk01's leverage and finds it in the record, filtered, and on desk01's page", async ({
  browser,
  playwright,
}) => {
  test.setTimeout(120_000);
  const page = await (await browser.newContext({ baseURL: instance.baseURL })).newPage();
  await signIn(page, "lead", "/leverage");
  await expect(record(page)).toContainText(
    "The platform has no operation that reads leverage back, so this record holds what was set through Brokerdesk",
  );
  await form(page)
    .getByLabel("Account")
    .selectOption({ label: `desk01@brokerdesk-sim.example · UID ${DESK01}` });
  await form(page).getByLabel("Product type").selectOption("USDT-FUTURES");
  await form(page).getByLabel("Symbol", { exact: true }).fill("DOGEUSDT");
  await form(page).getByLabel("Margin coin", { exact: true }).fill("USDT");
  await form(page).getByLabel("Leverage", { exact: true }).fill("17");
  await form(page).getByLabel("Why (kept with the record)").fill("risk desk: DOGE volatility");
  await page.getByRole("button", { name: "Set leverage" }).click();
  await expect(page.getByRole("region", { name: "The platform's leverage" }).locator("dl")).toContainText(
    "Cross margin leverage17",
  );

  // The record: desk01's row from the platform's answer, who and why.
  const row = recordRows(page).filter({ hasText: "DOGEUSDT" });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(DESK01);
  await expect(row).toContainText("17×");
  await expect(row).toContainText("lead@demo.brokerdesk");
  await expect(row).toContainText("risk desk: DOGE volatility");

  // Filters narrow it on the server: the symbol keeps it, a leverage above 17 drops it.
  await record(page).getByRole("searchbox", { name: "Symbol" }).fill("dogeusdt");
  await record(page).getByRole("searchbox", { name: "Symbol" }).press("Enter");
  await expect(page).toHaveURL(/rSymbol=DOGEUSDT/);
  await expect(recordRows(page)).toHaveCount(1);
  await record(page).getByRole("searchbox", { name: "Leverage above" }).fill("17");
  await record(page).getByRole("searchbox", { name: "Leverage above" }).press("Enter");
  await expect(record(page)).toContainText("No leverage settings in the record match these filters.");
  await record(page).getByRole("searchbox", { name: "Leverage above" }).fill("16");
  await record(page).getByRole("searchbox", { name: "Leverage above" }).press("Enter");
  await expect(recordRows(page).filter({ hasText: "DOGEUSDT" })).toHaveCount(1);
  expect(await seriousViolations(page)).toEqual([]);

  // desk01's page has its leverage section with the same row.
  await page.goto(`/sub-accounts/${DESK01}`);
  await waitForHydration(page);
  const section = page.getByRole("region", { name: "Leverage", exact: true });
  await expect(section).toBeVisible();
  await expect(section.locator("tbody tr").filter({ hasText: "DOGEUSDT" })).toContainText("17×");
  await expect(section).toContainText("a change made elsewhere is not here");
  expect(await seriousViolations(page)).toEqual([]);

  // The API gives the same row.
  const lead = await playwright.request.newContext({ baseURL: instance.baseURL });
  await signInApi(lead, "lead");
  const api = (await (await lead.get(`/api/leverage/record?subUid=${DESK01}&symbol=DOGEUSDT`)).json()) as {
    items: { account: string; crossLeverage: string; requested: string; reason: string }[];
  };
  expect(api.items).toEqual([
    expect.objectContaining({ account: `sub${DESK01}`, crossLeverage: "17", requested: "17" }),
  ]);
  await lead.dispose();
});

test("[leverage.record][bad-input] the new routes refuse bad input on its field; nothing is sent or written", async ({
  playwright,
}) => {
  const lead = await playwright.request.newContext({ baseURL: instance.baseURL });
  await signInApi(lead, "lead");
  const sim = await playwright.request.newContext();
  const before = await e10Requests(sim);
  const countBefore = ((await (await lead.get("/api/leverage/record?limit=500")).json()) as { items: unknown[] }).items
    .length;
  const field = async (res: Promise<import("@playwright/test").APIResponse>) => {
    const r = await res;
    expect(r.status()).toBe(422);
    return Object.keys(((await r.json()) as { error: { fieldErrors: Record<string, string[]> } }).error.fieldErrors);
  };
  for (const [query, name] of [
    ["above=ten", "above"],
    ["below=0", "below"],
    ["subUid=desk01", "subUid"],
    ["productType=SPOT", "productType"],
    ["before=yesterday", "before"],
    ["cursor=bm90IG9uZQ", "cursor"],
  ] as const)
    expect(await field(lead.get(`/api/leverage/record?${query}`))).toEqual([name]);

  const post = (url: string, data: unknown) => lead.post(url, { headers: sameOrigin(instance.baseURL), data });
  const ok = { productType: "USDT-FUTURES", symbol: "BTCUSDT", marginCoin: "USDT", leverage: "10" };
  expect(await field(post("/api/leverage/set", { ...ok, leverage: "0" }))).toEqual(["leverage"]);
  expect(await field(post("/api/leverage/set", { ...ok, reason: "x".repeat(501) }))).toEqual(["reason"]);
  expect(await field(post("/api/leverage/set", { ...ok, key: "sub1" }))).toEqual(["key"]);
  expect(await field(post("/api/leverage/set", { ...ok, productType: "SPOT" }))).toEqual(["productType"]);
  expect(await field(lead.get("/api/leverage/changes?state=done"))).toEqual(["state"]);
  const missing = "00000000-0000-4000-8000-000000000000";
  expect(await field(post(`/api/leverage/changes/${missing}/reject`, { reason: "" }))).toEqual(["reason"]);
  expect((await post(`/api/leverage/changes/${missing}/withdraw`, {})).status()).toBe(404);

  expect(await e10Requests(sim)).toBe(before);
  expect(((await (await lead.get("/api/leverage/record?limit=500")).json()) as { items: unknown[] }).items.length).toBe(
    countBefore,
  );
  await lead.dispose();
  await sim.dispose();
});
