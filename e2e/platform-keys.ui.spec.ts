// The key picker of the ledger's fills and plan orders: GET /api/platform-keys lists the keys a
// role may choose (server/platform/key-access.ts), names and kinds only; the pages offer exactly those, put
// the choice in the URL (`key=`) and read that key's records.
import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./support/test";
import { signInApi, signIn } from "./support/staff";
import { secretsOfThisRun } from "./support/secrets";
import { startInstance, type Instance } from "./support/second-instance";

// The simulator's own demo keys for two named accounts; "readonly" is offered to brokers by configuration.
const NAMED_KEYS = {
  PLATFORM_KEY_READONLY_API_KEY: "bd_demo_read_only",
  PLATFORM_KEY_READONLY_API_SECRET: "bd-demo-secret-read-only",
  PLATFORM_KEY_READONLY_API_PASSPHRASE: "bd-demo-passphrase",
  PLATFORM_KEY_READONLY_ROLES: "broker,lead,admin",
  PLATFORM_KEY_RISKUNIT_API_KEY: "bd_demo_risk_unit",
  PLATFORM_KEY_RISKUNIT_API_SECRET: "bd-demo-secret-risk-unit",
  PLATFORM_KEY_RISKUNIT_API_PASSPHRASE: "bd-demo-passphrase",
  LEDGER_TRADE_KEYS: "main,riskunit",
};
let instance: Instance;
test.beforeAll(async () => {
  test.setTimeout(120_000);
  instance = await startInstance("keys", NAMED_KEYS);
});
test.afterAll(async () => {
  await instance?.stop();
});

type Keys = { keys: { name: string; kind: string; synced: boolean }[] };

test("[keys.list] a broker may choose the main key and the keys configured for brokers, a lead every key; names and kinds, never a secret", async ({
  playwright,
}) => {
  const request: APIRequestContext = await playwright.request.newContext({ baseURL: instance.baseURL });
  await signInApi(request, "broker");
  const broker = await request.get("/api/platform-keys?for=fills");
  expect(broker.status()).toBe(200);
  expect(((await broker.json()) as Keys).keys).toEqual([
    { name: "main", kind: "broker-main", synced: true },
    { name: "readonly", kind: "read-only", synced: false },
  ]);
  await signInApi(request, "compliance");
  expect(((await (await request.get("/api/platform-keys?for=fills")).json()) as Keys).keys.map((k) => k.name)).toEqual([
    "main",
  ]);

  await signInApi(request, "lead");
  const res = await request.get("/api/platform-keys?for=plan-orders");
  const text = await res.text();
  const { keys } = JSON.parse(text) as Keys;
  expect(keys[0]).toEqual({ name: "main", kind: "broker-main", synced: true });
  expect(keys.map((k) => k.name)).toContain("riskunit");
  expect(keys.find((k) => k.name === "riskunit")?.kind).toBe("risk-unit");
  for (const k of keys) expect(Object.keys(k).sort()).toEqual(["kind", "name", "synced"]);
  for (const secret of [
    ...Object.values(secretsOfThisRun()),
    ...Object.values(NAMED_KEYS).filter((v) => v.startsWith("bd")),
  ])
    expect(text).not.toContain(secret);

  // Bad input names its field; nothing else is answered.
  const bad = await request.get("/api/platform-keys?for=deposits");
  expect(bad.status()).toBe(422);
  expect(
    Object.keys(((await bad.json()) as { error: { fieldErrors: Record<string, string[]> } }).error.fieldErrors),
  ).toEqual(["for"]);
  await request.dispose();
});

test("[ledger][keys] a lead picks a named key on /spot/fills: the URL and the request carry it; a broker is offered the main key only", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const page = await (await browser.newContext({ baseURL: instance.baseURL })).newPage();
  await signIn(page, "lead", "/spot/fills");
  const picker = page.getByRole("combobox", { name: "Platform key", exact: true });
  // Enabled once the keys are listed (a loaded CI machine can take a while to hydrate the page).
  await expect(picker).toBeEnabled({ timeout: 30_000 });
  await expect(picker).toHaveValue("main");
  const options = await picker.locator("option").allTextContents();
  expect(options[0]).toBe("main (broker main account)");
  expect(options).toContain("riskunit (risk-unit account)");
  expect(options).toContain("readonly (read-only) — not kept by the ledger");
  const asked = page.waitForRequest(
    (r) => new URL(r.url()).pathname === "/api/ledger/fills" && new URL(r.url()).searchParams.get("key") === "riskunit",
  );
  await picker.selectOption("riskunit");
  await asked;
  await expect(page).toHaveURL(/[?&]key=riskunit/);
  await expect(page.getByTestId("ledger-freshness")).toContainText("fills of key “riskunit”");

  // Plan orders: the same picker; back to the main key leaves key= out of the URL.
  await page.goto("/spot/plan-orders?key=riskunit");
  const plans = page.getByRole("combobox", { name: "Platform key", exact: true });
  await expect(plans).toHaveValue("riskunit");
  await plans.selectOption("main");
  await expect(page).not.toHaveURL(/key=/);

  await page.context().close();
  const broker = await (await browser.newContext({ baseURL: instance.baseURL })).newPage();
  await signIn(broker, "broker", "/spot/fills?key=riskunit");
  const offered = broker.getByRole("combobox", { name: "Platform key", exact: true });
  await expect(offered).toBeEnabled({ timeout: 30_000 });
  // The key in the URL is shown as not offered, and the server refuses its records.
  await expect(offered.locator("option")).toHaveText([
    "main (broker main account)",
    "readonly (read-only) — not kept by the ledger",
    "riskunit (not offered to you)",
  ]);
  await expect(broker.getByRole("alert").first()).toBeVisible();
  await broker.context().close();
});
