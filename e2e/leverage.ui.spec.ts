import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { expect, test } from "./support/test";
import { checkBothSchemes, seriousViolations } from "./support/axe";
import { sameOrigin, signInApi, signIn, simControlUrl } from "./support/staff";

// E10 against the simulator (server/simulator/README.md): ETHUSDT on USDT-FUTURES is isolated + hedge,
// every other USDT symbol but SOLUSDT crossed + one-way; leverage bounds (the catalog's) 125 for BTC, 100 for ETH, 50 for others.
type Stats = { operations: Record<string, { requests: number } | undefined> };
type Modes = { marginMode: "isolated" | "crossed"; positionMode: "one-way" | "hedge"; holdSide?: "long" | "short" };

async function e10Requests(request: APIRequestContext): Promise<number> {
  const stats = (await (await request.get(simControlUrl("stats"))).json()) as Stats;
  return stats.operations["leverage.set"]?.requests ?? 0;
}

const form = (page: Page) => page.getByRole("form", { name: "Set leverage" });

async function fill(page: Page, v: { symbol: string; marginCoin: string; leverage: string } & Modes) {
  await form(page).getByLabel("Product type").selectOption("USDT-FUTURES");
  // Typed in lower case on purpose: the form writes symbols and margin coins in upper case.
  await form(page).getByLabel("Symbol", { exact: true }).fill(v.symbol.toLowerCase());
  await form(page).getByLabel("Margin coin", { exact: true }).fill(v.marginCoin.toLowerCase());
  await form(page).getByLabel("Leverage", { exact: true }).fill(v.leverage);
  await page.getByRole("radiogroup", { name: "Margin mode" }).getByLabel(v.marginMode).check();
  await page.getByRole("radiogroup", { name: "Position mode" }).getByLabel(v.positionMode).check();
  if (v.holdSide) await page.getByRole("radiogroup", { name: "Hold side (holdSide)" }).getByLabel(v.holdSide).check();
}

const history = (page: Page) => page.getByRole("region", { name: "Leverage changes" });
const historyRows = (page: Page) => history(page).locator("tbody tr[data-row-id]");
const result = (page: Page) => page.getByRole("region", { name: "The platform's leverage" });
const submit = (page: Page) => page.getByRole("button", { name: "Set leverage" });

/** The history has loaded (rows, or its empty notice), so a later change is a change. */
async function historyLoaded(page: Page): Promise<string | null> {
  await expect(history(page).locator("table")).toHaveAttribute("aria-busy", "false");
  return (await historyRows(page).count()) ? historyRows(page).first().getAttribute("data-row-id") : null;
}

/**
 * Fills the form and sends it, once the history has loaded: the body the page posted, after the platform's answer
 * is shown, E10 was called once and the history has a new first row (returned).
 */
async function setLeverage(
  page: Page,
  request: APIRequestContext,
  v: Parameters<typeof fill>[1],
): Promise<{ posted: unknown; first: Locator }> {
  const firstBefore = await historyLoaded(page);
  const before = await e10Requests(request);
  await fill(page, v);
  await expect(form(page).getByLabel("Symbol", { exact: true })).toHaveValue(v.symbol);
  const sent = page.waitForRequest((r) => r.url().endsWith("/api/leverage/set") && r.method() === "POST");
  await submit(page).click();
  const posted = (await sent).postDataJSON() as unknown;
  await expect(result(page)).toBeVisible();
  expect(await e10Requests(request)).toBe(before + 1);
  const first = historyRows(page).first();
  await expect(first).not.toHaveAttribute("data-row-id", firstBefore ?? "none");
  return { posted, first };
}

test.describe("leverage as a lead", () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, "lead", "/leverage");
    await expect(page).toHaveTitle(/Leverage/);
  });

  test("[leverage.set][ui] BTCUSDT crossed 20: the platform's leverage object and a new history row", async ({
    page,
    request,
  }) => {
    const { posted, first } = await setLeverage(page, request, {
      symbol: "BTCUSDT",
      marginCoin: "USDT",
      leverage: "20",
      marginMode: "crossed",
      positionMode: "one-way",
    });
    // Only the catalog's fields, the account's key and why: no margin or position mode, no holdSide outside
    // isolated hedge.
    expect(posted).toEqual({
      productType: "USDT-FUTURES",
      symbol: "BTCUSDT",
      marginCoin: "USDT",
      leverage: "20",
      key: "main",
      reason: "",
    });

    const dl = result(page).locator("dl");
    await expect(dl).toContainText("SymbolBTCUSDT");
    await expect(dl).toContainText("Cross margin leverage20");
    await expect(dl).toContainText("Margin modecrossed");

    await expect(first).toContainText("lead@demo.brokerdesk");
    await expect(first).toContainText("BTCUSDT");
    await expect(first).toContainText("USDT-FUTURES");
    await expect(first).toContainText("success");
    await expect(first).toContainText(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
    await expect(first.locator("td").nth(1)).toHaveText("Main account (broker)");
    await expect(first.locator("td").nth(3)).toHaveText("20");
    // Whether it took is in view without scrolling the table sideways (at 1,280 px it was past the box's edge).
    const outcome = (await history(page)
      .locator("thead th", { hasText: /^Outcome/ })
      .boundingBox())!;
    const box = (await history(page).getByTestId("data-table-scroll").boundingBox())!;
    expect(outcome.x + outcome.width).toBeLessThanOrEqual(box.x + box.width + 1);
  });

  test("[leverage.set][ui] isolated hedge without holdSide is refused on the holdSide field; nothing is sent", async ({
    page,
    request,
  }) => {
    await historyLoaded(page);
    const before = await e10Requests(request);
    let posted = 0;
    page.on("request", (r) => {
      if (/\/set-leverage$|\/api\/leverage\/set$/.test(r.url()) && r.method() === "POST") posted++;
    });
    await expect(page.getByRole("radiogroup", { name: "Hold side (holdSide)" })).toHaveCount(0);
    await expect(page.getByText("holdSide is needed only for isolated margin in hedge mode")).toBeVisible();
    await fill(page, {
      symbol: "BTCUSDT",
      marginCoin: "USDT",
      leverage: "10",
      marginMode: "isolated",
      positionMode: "hedge",
    });
    const holdSide = page.getByRole("radiogroup", { name: "Hold side (holdSide)" });
    await expect(holdSide).toBeVisible();
    await submit(page).click();
    await expect(holdSide).toContainText("Side is required for isolated margin in hedge mode");
    await expect(holdSide).toHaveAttribute("aria-invalid", "true");
    await expect(holdSide).toHaveAccessibleDescription(/^Side is required/);
    await page.waitForTimeout(500);
    expect(posted).toBe(0);
    expect(await e10Requests(request)).toBe(before);
    await expect(result(page)).toHaveCount(0);

    // Leaving isolated hedge hides holdSide again, and it is no longer required.
    await page.getByRole("radiogroup", { name: "Margin mode" }).getByLabel("crossed").check();
    await expect(holdSide).toHaveCount(0);
  });

  test("[leverage.set][ui] ETHUSDT isolated hedge long sets the long side", async ({ page, request }) => {
    const { posted, first } = await setLeverage(page, request, {
      symbol: "ETHUSDT",
      marginCoin: "USDT",
      leverage: "7",
      marginMode: "isolated",
      positionMode: "hedge",
      holdSide: "long",
    });
    expect(posted).toEqual({
      productType: "USDT-FUTURES",
      symbol: "ETHUSDT",
      marginCoin: "USDT",
      leverage: "7",
      holdSide: "long",
      key: "main",
      reason: "",
    });
    const dl = result(page).locator("dl");
    await expect(dl).toContainText("Long leverage7");
    await expect(dl).toContainText("Margin modeisolated");
    await expect(first).toContainText("ETHUSDT");
    await expect(first.locator("td").nth(4)).toHaveText("long");
  });

  test("[leverage.set][daily] what was last set through Brokerdesk for the symbol is shown before the form is sent", async ({
    page,
    baseURL,
    playwright,
  }) => {
    const lead = await playwright.request.newContext({ baseURL });
    await signInApi(lead, "lead");
    const res = await lead.post("/api/platform/v2/mix/account/set-leverage", {
      headers: sameOrigin(baseURL),
      data: { productType: "USDT-FUTURES", symbol: "XRPUSDT", marginCoin: "USDT", leverage: "9" },
    });
    expect(res.status(), await res.text()).toBe(200);
    await lead.dispose();
    await page.reload();
    await historyLoaded(page);
    await form(page).getByLabel("Product type").selectOption("USDT-FUTURES");
    await form(page).getByLabel("Symbol", { exact: true }).fill("xrpusdt");
    const last = form(page).getByRole("status", { name: "Last set through Brokerdesk" });
    await expect(last).toContainText(
      "Last set through Brokerdesk for XRPUSDT on Main account (broker): leverage 9 by lead@demo.brokerdesk",
    );
    await expect(last).toContainText(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC; the platform then reported crossed margin/);
    await expect(form(page).getByLabel("Leverage", { exact: true })).toHaveAccessibleDescription(
      /Allowed for XRPUSDT: a whole number from 1 to 50/,
    );
    // The symbol is named once.
    await expect(form(page).getByLabel("Leverage", { exact: true })).not.toHaveAccessibleDescription(
      /XRPUSDT.*XRPUSDT/,
    );
    await form(page).getByLabel("Symbol", { exact: true }).fill("ADAUSDT");
    await expect(last).toContainText("No leverage has been set for ADAUSDT through Brokerdesk");
  });

  test("[leverage.set][ui] platform refusals show code, msg and meaning, on the field the msg names", async ({
    page,
    request,
  }) => {
    await historyLoaded(page);
    // The form says crossed, but the account has ETHUSDT in isolated hedge: the platform wants holdSide.
    await fill(page, {
      symbol: "ETHUSDT",
      marginCoin: "USDT",
      leverage: "5",
      marginMode: "crossed",
      positionMode: "one-way",
    });
    await submit(page).click();
    const refusal = page.getByRole("alert").filter({ hasText: "The platform refused the change" });
    await expect(refusal).toContainText("A required parameter is missing.");
    await expect(refusal).toContainText("40019");
    await expect(refusal).toContainText("Parameter holdSide cannot be empty");
    await expect(historyRows(page).first()).toContainText("failure");
    await expect(historyRows(page).first()).toContainText("40019");
    // The platform has said the symbol's modes on this account: the form takes them and asks for the side there.
    const holdSide = page.getByRole("radiogroup", { name: "Hold side (holdSide)" });
    await expect(holdSide).toHaveAttribute("aria-invalid", "true");
    await expect(holdSide).toHaveAccessibleDescription(
      /^Side \(long or short\): the platform refused it \(40019 .*isolated margin and hedge mode, as the form now says/,
    );
    await expect(page.getByRole("radiogroup", { name: "Margin mode" }).getByLabel("isolated")).toBeChecked();
    await expect(page.getByRole("radiogroup", { name: "Position mode" }).getByLabel("hedge")).toBeChecked();
    await expect(holdSide.getByLabel("long")).toBeFocused();
    await holdSide.getByLabel("short").check();
    const sent = page.waitForRequest((r) => r.url().endsWith("/api/leverage/set") && r.method() === "POST");
    await submit(page).click();
    expect((await sent).postDataJSON()).toEqual({
      productType: "USDT-FUTURES",
      symbol: "ETHUSDT",
      marginCoin: "USDT",
      leverage: "5",
      holdSide: "short",
      key: "main",
      reason: "",
    });
    await expect(result(page)).toBeVisible();
    await expect(historyRows(page).first()).toContainText("success");

    // A margin coin that is not the product's: only the platform knows (the catalog checks the form, not the contract).
    await fill(page, {
      symbol: "BTCUSDT",
      marginCoin: "USDC",
      leverage: "20",
      marginMode: "crossed",
      positionMode: "one-way",
    });
    await submit(page).click();
    await expect(refusal).toContainText("40020");
    await expect(refusal).toContainText("Parameter marginCoin error");
    await expect(refusal).toContainText("A parameter has a value the platform refuses.");
    const marginCoin = form(page).getByLabel("Margin coin", { exact: true });
    await expect(marginCoin).toHaveAttribute("aria-invalid", "true");
    await expect(marginCoin).toHaveAccessibleDescription(
      /^The platform refused it \(40020 Parameter marginCoin error\)/,
    );

    // Above the symbol's bound: refused in the form with the catalog's words, nothing sent (not the platform's 40020).
    const before = await e10Requests(request);
    await fill(page, {
      symbol: "BTCUSDT",
      marginCoin: "USDT",
      leverage: "200",
      marginMode: "crossed",
      positionMode: "one-way",
    });
    await submit(page).click();
    // The range allowed is named, before anything is sent.
    await expect(
      form(page).getByText("Leverage must be a whole number from 1 to 125 for BTCUSDT; 200 is not"),
    ).toBeVisible();
    await fill(page, {
      symbol: "SOLUSDT",
      marginCoin: "USDT",
      leverage: "60",
      marginMode: "isolated",
      positionMode: "one-way",
    });
    await submit(page).click();
    await expect(
      form(page).getByText("Leverage must be a whole number from 1 to 50 for SOLUSDT; 60 is not"),
    ).toBeVisible();
    await expect(form(page).getByLabel("Leverage", { exact: true })).toHaveAccessibleDescription(
      /Allowed for SOLUSDT: a whole number from 1 to 50/,
    );
    await expect(form(page).getByLabel("Leverage", { exact: true })).toHaveAttribute("aria-invalid", "true");
    expect(await e10Requests(request)).toBe(before);
  });

  test("[a11y] /leverage has no serious or critical axe violations, light and dark", async ({ page }) => {
    await historyLoaded(page);
    await fill(page, {
      symbol: "BTCUSDT",
      marginCoin: "USDT",
      leverage: "abc",
      marginMode: "isolated",
      positionMode: "hedge",
    });
    await submit(page).click();
    await expect(page.getByText("Side is required for isolated margin in hedge mode")).toBeVisible();
    await checkBothSchemes(page, (scheme) => `/tmp/leverage-errors-${scheme}.png`);
    await fill(page, {
      symbol: "BTCUSDT",
      marginCoin: "USDT",
      leverage: "15",
      marginMode: "crossed",
      positionMode: "one-way",
    });
    // The answer itself, not a 5 s deadline on the result: a slow answer is not what this test examines, and a
    // refusal fails here with the platform's own words instead of "region not found".
    const answered = page.waitForResponse(
      (r) => r.url().endsWith("/api/leverage/set") && r.request().method() === "POST",
      {
        timeout: 30_000,
      },
    );
    await submit(page).click();
    const answer = await answered;
    expect(answer.status(), await answer.text()).toBe(200);
    await expect(result(page)).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: "/tmp/leverage-success.png", fullPage: true });
  });
});

test("[leverage.set][rbac] a broker gets the 403 message, no form, and the API refuses", async ({
  page,
  request,
  baseURL,
}) => {
  await signIn(page, "broker", "/leverage");
  await expect(page.getByRole("heading", { level: 1, name: "Not allowed" })).toBeVisible();
  const alert = page.getByRole("alert").filter({ hasText: "403" });
  await expect(alert).toContainText("Changing leverage needs the leverage.write permission (lead)");
  await expect(alert).toContainText("you are signed in as broker");
  await expect(page.getByRole("button", { name: "Set leverage" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Leverage", exact: true })).toHaveCount(0);
  await page.screenshot({ path: "/tmp/leverage-broker-403.png", fullPage: true });

  await signInApi(request, "broker");
  const before = await e10Requests(request);
  const res = await request.post("/api/platform/v2/mix/account/set-leverage", {
    headers: sameOrigin(baseURL),
    data: { productType: "USDT-FUTURES", symbol: "BTCUSDT", marginCoin: "USDT", leverage: "20" },
  });
  expect(res.status()).toBe(403);
  expect(await e10Requests(request)).toBe(before);
});
