// The key picker of the ledger's fills and plan orders (issue 14): GET /api/platform-keys lists the keys a
// role may choose (server/platform/key-access.ts), names and kinds only; the pages offer exactly those, put
// the choice in the URL (`key=`) and read that key's records.
import { expect, test } from "./support/test";
import { signInApi, signInUi } from "./support/staff";
import { secretsOfThisRun } from "./support/secrets";

type Keys = { keys: { name: string; kind: string; synced: boolean }[] };

test("[keys.list] a broker may choose the main key only, a lead every configured key; names and kinds, never a secret", async ({ request }) => {
  await signInApi(request, "broker");
  const broker = await request.get("/api/platform-keys?for=fills");
  expect(broker.status()).toBe(200);
  expect(((await broker.json()) as Keys).keys).toEqual([{ name: "main", kind: "broker-main", synced: true }]);

  await signInApi(request, "lead");
  const res = await request.get("/api/platform-keys?for=plan-orders");
  const text = await res.text();
  const { keys } = JSON.parse(text) as Keys;
  expect(keys[0]).toEqual({ name: "main", kind: "broker-main", synced: true });
  expect(keys.map((k) => k.name)).toContain("riskunit");
  expect(keys.find((k) => k.name === "riskunit")?.kind).toBe("risk-unit");
  for (const k of keys) expect(Object.keys(k).sort()).toEqual(["kind", "name", "synced"]);
  for (const secret of Object.values(secretsOfThisRun())) expect(text).not.toContain(secret);

  // Bad input names its field; nothing else is answered.
  const bad = await request.get("/api/platform-keys?for=deposits");
  expect(bad.status()).toBe(422);
  expect(Object.keys(((await bad.json()) as { error: { fieldErrors: Record<string, string[]> } }).error.fieldErrors)).toEqual(["for"]);
});

test("[ledger][keys] a lead picks a named key on /spot/fills: the URL and the request carry it; a broker is offered the main key only", async ({ page, browser, baseURL }) => {
  await signInUi(page, "lead", "/spot/fills");
  const picker = page.getByRole("combobox", { name: "Platform key", exact: true });
  await expect(picker).toBeEnabled();
  await expect(picker).toHaveValue("main");
  const options = await picker.locator("option").allTextContents();
  expect(options[0]).toBe("main (broker main account)");
  expect(options).toContain("riskunit (risk-unit account)");
  const asked = page.waitForRequest((r) => new URL(r.url()).pathname === "/api/ledger/fills" && new URL(r.url()).searchParams.get("key") === "riskunit");
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

  const broker = await (await browser.newContext({ baseURL })).newPage();
  await signInUi(broker, "broker", "/spot/fills?key=riskunit");
  const offered = broker.getByRole("combobox", { name: "Platform key", exact: true });
  await expect(offered).toBeEnabled();
  // The key in the URL is shown as not offered, and the server refuses its records.
  await expect(offered.locator("option")).toHaveText(["main (broker main account)", "riskunit (not offered to you)"]);
  await expect(broker.getByRole("alert").first()).toBeVisible();
  await broker.context().close();
});
