// Over 60 s (about 65 s on the loaded 2-core machine, docs/testing.md): 17 tests, five of them axe over a full
// page of rows in both themes (up to 12 s each).
// The read pages beyond trades and deposits: /assets (E2), /rebates (E7), /spot/plan-orders
// (E3), /spot/fills (E4) and /futures/oi-limits (E11), each signed in as a different role that may read
// it, against the run's simulator. Platform faults are injected through the simulator's control
// endpoint and cleared after each test.
import type { Page, Response } from "@playwright/test";
import { expect, test } from "./support/test";
import { checkBothSchemes } from "./support/axe";
import Big from "big.js";
import { signIn, simControlUrl } from "./support/staff";
import { platformData, type Envelope } from "./support/envelope";
import { countByIdLessThan, exportCsv, expectDownloaded } from "./support/exports";
import { rows } from "./support/tables";

type Asset = { coin: string; available: string; frozen: string; locked: string };
type Rebate = {
  affiliationType: string;
  userLevel: string;
  clientSpotRebateRatio: string;
  clientFuturesRebateRatio: string;
};
type PlanOrder = { orderId: string; status: string };
type PlanOrders = { nextFlag: boolean; idLessThan: string; orderList: PlanOrder[] };
type Fill = { tradeId: string; orderId: string; tradeScope: string; feeDetail: { feeCoin: string; totalFee: string } };
type OiLimit = { symbol: string; notionalValue: string };

const ASSETS = "/api/platform/v2/broker/account/subaccount-spot-assets";
const REBATES = "/api/platform/v2/broker/rebate-info";
const PLAN_ORDERS = "/api/platform/v2/spot/trade/history-plan-order";
const FILLS = "/api/platform/v2/spot/trade/fills";
const OI_LIMITS = "/api/platform/v2/mix/market/oi-limit";
const DAY = 86_400_000;

const isCall =
  (path: string, match: (u: URL) => boolean = () => true) =>
  (r: Response) => {
    const u = new URL(r.url());
    return u.pathname === path && r.request().method() === "GET" && match(u);
  };

const body = platformData;

// Rows are virtualised: the table's aria-rowcount (rows + header) says how many it holds.
const rowCount = (page: Page, n: number) =>
  expect(page.locator("table[aria-rowcount]")).toHaveAttribute("aria-rowcount", String(n + 1));
const firstRowId = (page: Page) => rows(page).first().getAttribute("data-row-id");
const group = (v: string) => {
  const [int, frac] = v.split(".");
  return `${int!.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}${frac === undefined ? "" : `.${frac}`}`;
};

async function clearFaults(page: Page) {
  const res = await page.request.delete(simControlUrl("faults"));
  expect(res.ok()).toBe(true);
}

/** The registry's first page by UID, as the pages' sub-account pickers ask for it (the first is their default). */
async function registry(page: Page): Promise<string[]> {
  const subs = (await (await page.request.get("/api/sub-accounts/search?limit=20")).json()) as {
    items: { subUid: string }[];
  };
  return subs.items.map((s) => s.subUid);
}

/** The picker searches the server as one types: a whole UID leaves one option, which Enter takes. */
async function pickSubAccount(page: Page, uid: string): Promise<void> {
  const picker = page.getByRole("combobox", { name: "Sub-account" });
  await picker.fill(uid);
  await expect(
    page.getByRole("listbox", { name: "Sub-accounts" }).getByRole("option", { name: new RegExp(`\\(${uid}\\)$`) }),
  ).toHaveCount(1);
  await picker.press("Enter");
}
const showsSubAccount = (uid: string) => new RegExp(`\\(${uid}\\)$`);

// A fault left behind would break the next test: clear after every test, pass or fail.
test.afterEach(async ({ page }) => {
  await clearFaults(page);
});

// ---------------------------------------------------------------------------------------------
// /assets (E2)

test("[subaccounts.assets][list] compliance sees the first sub-account's coins; type, coin and sub-account change URL and rows", async ({
  page,
}) => {
  const first = page.waitForResponse(isCall(ASSETS));
  await signIn(page, "compliance", "/assets");
  const call = await first;
  const uids = await registry(page);
  const u = new URL(call.url());
  expect(u.searchParams.get("subUid")).toBe(uids[0]);
  expect(u.searchParams.get("assetType")).toBe("all");
  await expect(page).toHaveTitle(/Sub-account assets/);
  const all = (await body<{ assetsList: Asset[] }>(call)).assetsList;
  expect(all.length).toBeGreaterThan(1);
  await rowCount(page, all.length);
  await expect(page.getByLabel("Sub-account", { exact: true })).toHaveValue(showsSubAccount(uids[0]!));
  // Amounts exactly as sent, grouped.
  const row = page.locator(`tr[data-row-id="${all[0]!.coin}"]`);
  await expect(row).toContainText(group(all[0]!.available));
  await expect(row).toContainText("UTC");

  const held = page.waitForResponse(isCall(ASSETS, (x) => x.searchParams.get("assetType") === "hold_only"));
  await page.getByLabel("Coins listed").selectOption("hold_only");
  await expect(page).toHaveURL(/assetType=hold_only/);
  const nonZero = (await body<{ assetsList: Asset[] }>(await held)).assetsList;
  // Every desk holds one coin spent to zero, which "all" lists and "hold_only" leaves out.
  expect(nonZero.length).toBeLessThan(all.length);
  await rowCount(page, nonZero.length);

  const coin = all[0]!.coin;
  const one = page.waitForResponse(isCall(ASSETS, (x) => x.searchParams.get("coin") === coin));
  await page.getByLabel("Coin (empty = all)").fill(coin.toLowerCase());
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(new RegExp(`coin=${coin}`));
  await body(await one);
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toHaveAttribute("data-row-id", coin);

  const other = page.waitForResponse(isCall(ASSETS, (x) => x.searchParams.get("subUid") === uids[1]));
  await pickSubAccount(page, uids[1]!);
  await expect(page).toHaveURL(new RegExp(`uid=${uids[1]}`));
  await body(await other);
  await page.goBack();
  await expect(page.getByLabel("Sub-account", { exact: true })).toHaveValue(showsSubAccount(uids[0]!));
});

// ---------------------------------------------------------------------------------------------
// /rebates (E7)

test("[rebates.get][lookup] lead sees the first sub-account's rebates as ratios and percentages; another UID changes URL and answer", async ({
  page,
}) => {
  const first = page.waitForResponse(isCall(REBATES));
  await signIn(page, "lead", "/rebates");
  const uids = await registry(page);
  const call = await first;
  expect(new URL(call.url()).searchParams.get("uid")).toBe(uids[0]);
  const info = await body<Rebate>(call);
  await expect(page).toHaveTitle(/Rebate info/);
  const card = page.getByTestId("rebate-info");
  await expect(card).toContainText(info.affiliationType);
  await expect(card).toContainText(info.userLevel);
  const pct = (r: string) => `${new Big(r).times(100).toFixed()}%`;
  await expect(card).toContainText(`${pct(info.clientSpotRebateRatio)} (ratio ${info.clientSpotRebateRatio})`);
  await expect(card).toContainText(`${pct(info.clientFuturesRebateRatio)} (ratio ${info.clientFuturesRebateRatio})`);
  await expect(page.getByText(/Real-time data, kept 30 days/)).toBeVisible();

  const second = page.waitForResponse(isCall(REBATES, (u) => u.searchParams.get("uid") === uids[1]));
  await pickSubAccount(page, uids[1]!);
  await expect(page).toHaveURL(new RegExp(`uid=${uids[1]}`));
  await body(await second);
  await expect(
    page.getByRole("heading", { name: new RegExp(`Rebate info of sub-account .*${uids[1]}`) }),
  ).toBeVisible();

  // Free entry: a UID that is not one of the broker's sub-accounts is the platform's refusal, shown as such.
  await page.getByLabel("Any UID").fill("12345");
  await page.getByRole("button", { name: "Look up" }).click();
  await expect(page).toHaveURL(/uid=12345/);
  await expect(page.getByRole("alert").filter({ hasText: "Platform error" })).toContainText(
    /Platform error 40034: Parameter uid does not exist/,
  );
  await expect(card).toHaveCount(0);
  // Not digits: refused in the form, nothing sent.
  await page.getByLabel("Any UID").fill("12a");
  await page.getByRole("button", { name: "Look up" }).click();
  await expect(page.getByText("A UID is 1 to 20 digits")).toBeVisible();
  await expect(page).toHaveURL(/uid=12345/);
});

// ---------------------------------------------------------------------------------------------
// /spot/plan-orders (E3)

test("[planOrders.history][list] broker sees BTCUSDT plan orders at once; symbol and status filter change URL and rows", async ({
  page,
}) => {
  const first = page.waitForResponse(isCall(PLAN_ORDERS, (u) => u.searchParams.get("symbol") === "BTCUSDT"));
  await signIn(page, "broker", "/spot/plan-orders/live");
  const call = await first;
  const u = new URL(call.url());
  expect(Number(u.searchParams.get("endTime")) - Number(u.searchParams.get("startTime"))).toBe(7 * DAY);
  const data = await body<PlanOrders>(call);
  expect(data.orderList.length).toBeGreaterThan(0);
  await expect(page).toHaveTitle(/Spot plan orders/);
  await expect(rows(page).first()).toHaveAttribute("data-row-id", data.orderList[0]!.orderId);
  await rowCount(page, data.orderList.length);

  const status = data.orderList[0]!.status;
  await page.getByLabel("Status (loaded rows)").selectOption(status);
  await expect(page).toHaveURL(new RegExp(`status=${status}`));
  const n = data.orderList.filter((o) => o.status === status).length;
  await rowCount(page, n);
  await expect(page.getByText(`${data.orderList.length} rows loaded · ${n} shown after filters`)).toBeVisible();
  await page.getByRole("button", { name: "Clear filters" }).click();
  await rowCount(page, data.orderList.length);

  const eth = page.waitForResponse(isCall(PLAN_ORDERS, (x) => x.searchParams.get("symbol") === "ETHUSDT"));
  await page.getByLabel("Symbol", { exact: true }).selectOption("ETHUSDT");
  await expect(page).toHaveURL(/symbol=ETHUSDT/);
  const ethData = await body<PlanOrders>(await eth);
  await expect(page.getByRole("table", { name: "ETHUSDT plan orders" })).toBeVisible();
  if (ethData.orderList.length)
    await expect(rows(page).first()).toHaveAttribute("data-row-id", ethData.orderList[0]!.orderId);
  // The zone is said once per time ("… UTC and … UTC"), never "UTC UTC".
  else
    await expect(
      page.getByText(
        /^No ETHUSDT plan orders between \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC and \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC[ .]/,
      ),
    ).toBeVisible();
});

test("[planOrders.history][paging] Older follows E3's idLessThan, Newer comes back", async ({ page }) => {
  await signIn(page, "broker", "/spot/plan-orders/live?range=30d&limit=10");
  await expect(rows(page)).toHaveCount(10);
  const page1 = (await firstRowId(page))!;
  const older = page.waitForResponse(isCall(PLAN_ORDERS, (u) => u.searchParams.has("idLessThan")));
  await page.getByRole("button", { name: "Older →" }).click();
  await expect(page).toHaveURL(/[?&]p=0~\d+/);
  await body(await older);
  await expect(page.getByText(/^Page 2 ·/)).toBeVisible();
  await expect(rows(page).first()).not.toHaveAttribute("data-row-id", page1);
  expect(BigInt((await firstRowId(page))!) < BigInt(page1)).toBe(true);
  await page.getByRole("button", { name: "← Newer" }).click();
  await expect(page).not.toHaveURL(/[?&]p=/);
  await expect(rows(page).first()).toHaveAttribute("data-row-id", page1);
});

test("[planOrders.history][range] a range past 90 days says it is walked in 90-day windows", async ({ page }) => {
  const now = Date.now();
  await signIn(page, "broker", `/spot/plan-orders/live?range=custom&from=${now - 120 * DAY}&to=${now}`);
  await expect(page.getByTestId("window-note")).toHaveText(
    /^Range longer than 90 days: showing window 1 of 2 \(.*\), newest first$/,
  );
  await expect(rows(page).first()).toBeVisible();
});

test("[planOrders.history][export] the CSV of a 120-day range has every plan order an independent walk finds", async ({
  page,
}) => {
  const now = Date.now();
  await signIn(page, "broker", `/spot/plan-orders/live?range=custom&from=${now - 120 * DAY}&to=${now}`);
  await expect(rows(page).first()).toBeVisible();
  const { lines, params } = await exportCsv(page);
  expect(lines[0]).toMatch(/^orderId,clientOid,symbol,/);

  // Count independently: two halves of the range (each within E3's 90 days), E3's cursor while nextFlag.
  const start = Number(params.startTime);
  const end = Number(params.endTime);
  const mid = Math.floor((start + end) / 2);
  let count = 0;
  for (const [s, e] of [
    [mid + 1, end],
    [start, mid],
  ] as const) {
    let cursor: string | null = null;
    for (;;) {
      const qs = new URLSearchParams({
        symbol: params.symbol!,
        startTime: String(s),
        endTime: String(e),
        limit: "100",
        ...(cursor ? { idLessThan: cursor } : {}),
      });
      const res = (await (await page.request.get(`${PLAN_ORDERS}?${qs}`)).json()) as Envelope<PlanOrders>;
      count += res.data.orderList.length;
      if (!res.data.nextFlag) break;
      cursor = res.data.idLessThan;
    }
  }
  expect(count).toBeGreaterThan(100);
  await expectDownloaded(page, lines, count);
});

// ---------------------------------------------------------------------------------------------
// /spot/fills (E4)

test("[fills.list][list] admin sees BTCUSDT fills with the fee in words; symbol and order ID change URL and rows", async ({
  page,
}) => {
  const first = page.waitForResponse(isCall(FILLS, (u) => u.searchParams.get("symbol") === "BTCUSDT"));
  await signIn(page, "admin", "/spot/fills/live");
  const fills = await body<Fill[]>(await first);
  expect(fills.length).toBeGreaterThan(0);
  await expect(page).toHaveTitle(/Spot fills/);
  await expect(rows(page).first()).toHaveAttribute("data-row-id", fills[0]!.tradeId);
  const f = fills[0]!;
  const fee = `${f.feeDetail.totalFee.replace(/^-/, "−")} ${f.feeDetail.feeCoin} (${f.tradeScope})`;
  await expect(rows(page).first()).toContainText(fee);
  await expect(rows(page).first().getByRole("cell", { name: "no", exact: true })).toBeVisible();

  const byOrder = page.waitForResponse(isCall(FILLS, (u) => u.searchParams.get("orderId") === f.orderId));
  await page.getByLabel("Order ID (empty = all)").fill(f.orderId);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(new RegExp(`orderId=${f.orderId}`));
  const ofOrder = await body<Fill[]>(await byOrder);
  expect(ofOrder.length).toBeGreaterThan(0);
  expect(ofOrder.every((x) => x.orderId === f.orderId)).toBe(true);
  await expect(rows(page)).toHaveCount(ofOrder.length);
  await page.getByLabel("Order ID (empty = all)").fill("");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).not.toHaveURL(/orderId=/);

  const sol = page.waitForResponse(isCall(FILLS, (u) => u.searchParams.get("symbol") === "SOLUSDT"));
  await page.getByLabel("Symbol", { exact: true }).selectOption("SOLUSDT");
  await expect(page).toHaveURL(/symbol=SOLUSDT/);
  const solFills = await body<Fill[]>(await sol);
  await expect(page.getByRole("table", { name: "SOLUSDT fills" })).toBeVisible();
  if (solFills.length) await expect(rows(page).first()).toHaveAttribute("data-row-id", solFills[0]!.tradeId);
});

test("[fills.list][paging] Older follows the last tradeId, Newer comes back", async ({ page }) => {
  await signIn(page, "admin", "/spot/fills/live?limit=10");
  await expect(rows(page)).toHaveCount(10);
  const page1 = (await firstRowId(page))!;
  const last = (await rows(page).last().getAttribute("data-row-id"))!;
  const older = page.waitForResponse(isCall(FILLS, (u) => u.searchParams.get("idLessThan") === last));
  await page.getByRole("button", { name: "Older →" }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]p=0~${last}`));
  await body(await older);
  await expect(page.getByText(/^Page 2 ·/)).toBeVisible();
  expect(BigInt((await firstRowId(page))!) < BigInt(last)).toBe(true);
  await page.getByRole("button", { name: "← Newer" }).click();
  await expect(rows(page).first()).toHaveAttribute("data-row-id", page1);
  await expect(page.getByText(/^Page 1 ·/)).toBeVisible();
});

test("[fills.list][range] a start older than E4's 90 days is refused before any request", async ({ page }) => {
  await signIn(page, "admin", "/");
  let asked = 0;
  page.on("request", (r) => {
    if (new URL(r.url()).pathname === FILLS) asked++;
  });
  const now = Date.now();
  await page.goto(`/spot/fills/live?range=custom&from=${now - 100 * DAY}&to=${now - 80 * DAY}`);
  await expect(page.getByRole("alert").filter({ hasText: "Nothing was requested" })).toContainText(
    /keeps only the last 90 days/,
  );
  await expect(page.getByRole("button", { name: "Export CSV" })).toBeDisabled();
  await page.waitForTimeout(500);
  expect(asked).toBe(0);
});

test("[fills.list][export] the CSV of the default range has every fill an independent walk finds", async ({ page }) => {
  await signIn(page, "admin", "/spot/fills/live");
  await expect(rows(page).first()).toBeVisible();
  const { lines, params } = await exportCsv(page);
  expect(lines[0]).toMatch(/^tradeId,orderId,/);
  const count = await countByIdLessThan<Fill>(page.request, FILLS, params, 20, (f) => f.tradeId);
  expect(count).toBeGreaterThan(0);
  await expectDownloaded(page, lines, count);
});

// ---------------------------------------------------------------------------------------------
// /futures/oi-limits (E11)

test("[oiLimits.list][list] compliance sees USDT-FUTURES limits; product type, symbol and the text filter change URL and rows", async ({
  page,
}) => {
  const first = page.waitForResponse(isCall(OI_LIMITS, (u) => u.searchParams.get("productType") === "USDT-FUTURES"));
  await signIn(page, "compliance", "/futures/oi-limits");
  const usdt = await body<OiLimit[]>(await first);
  expect(usdt.length).toBeGreaterThan(1);
  await expect(page).toHaveTitle(/Futures OI limits/);
  await rowCount(page, usdt.length);
  await expect(page.locator(`tr[data-row-id="${usdt[0]!.symbol}"]`)).toContainText(group(usdt[0]!.notionalValue));

  const coin = page.waitForResponse(isCall(OI_LIMITS, (u) => u.searchParams.get("productType") === "COIN-FUTURES"));
  await page.getByLabel("Product type").selectOption("COIN-FUTURES");
  await expect(page).toHaveURL(/productType=COIN-FUTURES/);
  const coinRows = await body<OiLimit[]>(await coin);
  await rowCount(page, coinRows.length);
  await expect(rows(page).first()).toHaveAttribute("data-row-id", coinRows[0]!.symbol);

  // The text filter narrows the loaded rows without a request.
  const needle = coinRows[0]!.symbol.slice(0, 3);
  await page.getByLabel("Symbol (loaded rows)").fill(needle);
  await expect(page).toHaveURL(new RegExp(`find=${needle}`));
  const matching = coinRows.filter((r) => r.symbol.includes(needle)).length;
  await rowCount(page, matching);
  await page.getByLabel("Symbol (loaded rows)").fill("ZZZZ");
  await expect(page.getByText(/None of the \d+ loaded COIN-FUTURES symbols contains “ZZZZ”/)).toBeVisible();
  await page.getByRole("button", { name: "Clear filters" }).click();

  const symbol = coinRows[1]!.symbol;
  const one = page.waitForResponse(isCall(OI_LIMITS, (u) => u.searchParams.get("symbol") === symbol));
  await page.getByLabel("One symbol (empty = all)").fill(symbol);
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(new RegExp(`symbol=${symbol}`));
  expect(await body<OiLimit[]>(await one)).toHaveLength(1);
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toHaveAttribute("data-row-id", symbol);
});

// ---------------------------------------------------------------------------------------------
// Accessibility, with a screenshot of each page in both themes

const PAGES = [
  { path: "/assets", ready: (p: Page) => rows(p).first() },
  { path: "/rebates", ready: (p: Page) => p.getByTestId("rebate-info") },
  { path: "/spot/plan-orders/live", ready: (p: Page) => rows(p).first() },
  { path: "/spot/fills/live", ready: (p: Page) => rows(p).first() },
  { path: "/futures/oi-limits", ready: (p: Page) => rows(p).first() },
] as const;

for (const { path, ready } of PAGES) {
  test(`[a11y] ${path} has no serious or critical axe violations, light and dark`, async ({ page }) => {
    // Axe over every cell of a full page of rows, twice, takes a while on a small CI machine.
    test.setTimeout(120_000);
    await signIn(page, "broker", path);
    await expect(ready(page)).toBeVisible();
    const name = path.replace(/\W+/g, "-").replace(/^-/, "");
    await checkBothSchemes(page, (scheme) => `/tmp/rp-shots/${name}-${scheme}.png`);
    // The wide tables (plan orders, fills) as staff see them on a desktop monitor.
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.screenshot({ path: `/tmp/rp-shots/${name}-wide.png`, fullPage: true });
  });
}

// ---------------------------------------------------------------------------------------------
// Refused access: every role may read the pages above (lib/rbac.ts), so the refusal is shown on a
// page a broker may not open.

test("[rbac][admin/users] a broker cannot reach the staff users page", async ({ page }) => {
  await signIn(page, "broker", "/");
  let listed = false;
  page.on("response", (r) => {
    if (new URL(r.url()).pathname === "/api/admin/users" && r.status() === 200) listed = true;
  });
  await page.goto("/admin/users");
  await expect(page.getByRole("heading", { name: "Not allowed" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Staff users" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /create/i })).toHaveCount(0);
  expect(listed).toBe(false);
  // The API refuses too, whatever the page shows.
  expect((await page.request.get("/api/admin/users")).status()).toBe(403);
});
