// Fills and plan orders from the ledger: an instance with the sync on keeps the main key's fills
// and plan orders from its simulator; a broker opens /spot/plan-orders and /spot/fills, filters in the
// database over a range longer than the platform's 90 days, sees the exact count, pages older, and finds
// the platform's live view one link away.
import type { APIRequestContext, Browser, Page } from "@playwright/test";
import { signInApi, signIn } from "./support/staff";
import type { Instance } from "./support/second-instance";
import { syncedInstance } from "./support/synced-instance";
import { expect, test } from "./support/test";
import { rows } from "./support/tables";

const DAY = 86_400_000;
let instance: Instance;
type Row = { orderId: string; tradeId?: string; symbol: string; side: string; cTime: string };
type TradePage = {
  rows: Row[];
  nextCursor: string | null;
  total: number;
  sync: { key: string; backfillDone: boolean; lastSuccessAt: string | null };
};

const get = async (ctx: APIRequestContext, path: string) => (await (await ctx.get(path)).json()) as TradePage;

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(180_000);
  // The run's shared instance with the sync on (e2e/support/synced-instance.ts).
  instance = await syncedInstance("ledger-trades");
  // Wait, off the clock, until the main key's fills and every plan-order symbol it trades are in.
  const ctx = await playwright.request.newContext({ baseURL: instance.baseURL });
  await signInApi(ctx, "broker");
  await expect
    .poll(
      async () =>
        (await get(ctx, "/api/ledger/fills?limit=1")).sync.backfillDone &&
        (await get(ctx, "/api/ledger/plan-orders?limit=1")).sync.backfillDone,
      {
        timeout: 150_000,
        intervals: [1_000],
      },
    )
    .toBe(true);
  await ctx.dispose();
});

test.afterAll(async () => {
  await instance?.stop();
});

async function brokerPage(browser: Browser, path: string): Promise<Page> {
  const page = await (await browser.newContext({ baseURL: instance.baseURL })).newPage();
  await signIn(page, "broker", path);
  return page;
}

test("[ledger][plan-orders] a broker filters plan orders by symbol and side over 120 days (past E3's 90-day span), sees the exact count, pages older", async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const page = await brokerPage(browser, "/spot/plan-orders");
  await expect(page.getByTestId("ledger-freshness")).toContainText(
    /every symbol synced since \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/,
  );
  await page.getByRole("combobox", { name: "Symbol", exact: true }).selectOption("BTCUSDT");
  await page.getByRole("combobox", { name: "Side", exact: true }).selectOption("sell");
  await page.getByLabel("From (UTC)").fill(new Date(Date.now() - 120 * DAY).toISOString().slice(0, 16));
  await expect(page).toHaveURL(/symbol=BTCUSDT/);
  await expect(page).toHaveURL(/side=sell/);
  await expect(page).toHaveURL(/from=\d+/);

  const from = new URL(page.url()).searchParams.get("from")!;
  const all = await get(page.request, `/api/ledger/plan-orders?symbol=BTCUSDT&side=sell&from=${from}&limit=500`);
  expect(all.nextCursor).toBeNull();
  expect(all.total).toBe(all.rows.length);
  expect(all.total).toBeGreaterThan(50);
  expect(all.rows.every((r) => r.symbol === "BTCUSDT" && r.side === "sell")).toBe(true);
  // Older than 90 days: what one E3 call could not answer.
  expect(Date.now() - Math.min(...all.rows.map((r) => Number(r.cTime)))).toBeGreaterThan(95 * DAY);

  await expect(page.getByTestId("ledger-total")).toHaveText(
    `${all.total.toLocaleString("en-US")} plan orders match these filters`,
  );
  await expect(rows(page).first()).toHaveAttribute("data-row-id", all.rows[0]!.orderId);
  await page.getByRole("button", { name: /Older/ }).click();
  await expect(page).toHaveURL(/[?&]p=/);
  await expect(rows(page).first()).toHaveAttribute("data-row-id", all.rows[50]!.orderId);
  await page.screenshot({ path: "test-results/ledger-plan-orders.png", fullPage: true });

  await page.getByRole("button", { name: "Clear filters" }).click();
  await expect(page.getByTestId("ledger-total")).toContainText("plan orders in the ledger");
  await page.context().close();
});

test("[ledger][fills] a broker filters fills by scope and order, sees the exact count, and reaches the live view", async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const page = await brokerPage(browser, "/spot/fills");
  const maker = await get(page.request, "/api/ledger/fills?tradeScope=maker&limit=500");
  expect(maker.total).toBeGreaterThan(0);
  await page.getByRole("combobox", { name: "Scope", exact: true }).selectOption("maker");
  await expect(page.getByTestId("ledger-total")).toHaveText(
    `${maker.total.toLocaleString("en-US")} fills match these filters`,
  );
  await expect(rows(page).first()).toHaveAttribute("data-row-id", maker.rows[0]!.tradeId!);

  const one = maker.rows[0]!;
  const ofOrder = await get(page.request, `/api/ledger/fills?tradeScope=maker&orderId=${one.orderId}`);
  await page.getByLabel("Order ID (empty = all)").fill(one.orderId);
  await page.getByLabel("Order ID (empty = all)").press("Enter");
  await expect(page).toHaveURL(new RegExp(`orderId=${one.orderId}`));
  // An order has a few fills (the table draws only the rows in view, so a long page is not counted here).
  expect(ofOrder.total).toBeLessThan(10);
  await expect(rows(page)).toHaveCount(ofOrder.total);

  await page.getByRole("link", { name: "live from the platform" }).click();
  await expect(page).toHaveURL(/\/spot\/fills\/live/);
  await expect(page).toHaveTitle(/Spot fills \(live\)/);
  await page.context().close();
});

test("[ledger][coverage] fills and plan orders say what the ledger holds of the range; an empty range not held reads not synced yet, never none", async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const month = Date.now() - 30 * DAY;
  const page = await brokerPage(browser, `/spot/fills?from=${month}`);
  await expect(page.getByTestId("ledger-coverage")).toHaveAttribute("data-complete", "true");
  await expect(page.getByTestId("ledger-coverage")).toContainText('Complete: every one of the fills of key "main"');

  // Older than E4's 90 days, from before the ledger's first walk: not known, so not "no fills".
  const old = Date.now() - 200 * DAY;
  await page.goto(`/spot/fills?from=${old}&to=${old + 5 * DAY}`);
  await expect(page.getByTestId("ledger-coverage")).toHaveAttribute("data-complete", "false");
  await expect(page.getByTestId("ledger-coverage")).toContainText("Not complete over this range");
  await expect(page.getByText(/^Not synced yet: nothing in the ledger so far\./)).toBeVisible();
  await expect(page.getByText("No fills match these filters.")).toHaveCount(0);

  // The API says the same: a plan-order symbol the ledger does not sync for the key (one it never traded) is named.
  const unsynced = (await (await page.request.get("/api/ledger/plan-orders?symbol=NOPEUSDT")).json()) as {
    rows: unknown[];
    coverage: { complete: number; total: number; missingSymbols: string[] };
  };
  expect(unsynced.rows).toEqual([]);
  expect(unsynced.coverage).toMatchObject({ total: 1, complete: 0, missingSymbols: ["NOPEUSDT"] });
  await page.context().close();
});

test("[ledger][fills] a named key's records only for the roles that may choose it; bad filters are refused on their field", async ({
  playwright,
}) => {
  const broker = await playwright.request.newContext({ baseURL: instance.baseURL });
  await signInApi(broker, "broker");
  expect((await broker.get("/api/ledger/fills?key=riskunit")).status()).toBe(403);
  const bad = await broker.get("/api/ledger/plan-orders?side=up&from=yesterday");
  expect(bad.status()).toBe(422);
  const body = (await bad.json()) as { error: { code: string; fieldErrors?: Record<string, string[]> } };
  expect(body.error.code).toBe("invalid_input");
  expect(Object.keys(body.error.fieldErrors ?? {}).sort()).toEqual(["from", "side"]);
  await broker.dispose();
});

test("[ledger][subaccount] a sub-account's page shows its ledger deposits (paged, linked to /deposits), its balance history chart and rebate history", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const page = await brokerPage(browser, "/sub-accounts");
  const { items } = (await (await page.request.get("/api/sub-accounts")).json()) as {
    items: { subUid: string; subaccountName: string | null }[];
  };
  const desk = items.find((e) => e.subaccountName?.startsWith("desk01@"))!;
  // The instance's sync fills the ledger and takes today's snapshots: wait for this sub-account's.
  type Deposits = {
    rows: { orderId: string }[];
    total: number;
    freshness: { backfilled: number; subaccounts: number };
  };
  await expect
    .poll(
      async () => {
        const d = (await (
          await page.request.get(`/api/ledger/deposits?subUid=${desk.subUid}&limit=1`)
        ).json()) as Deposits;
        const b = (await (await page.request.get(`/api/ledger/sub-accounts/${desk.subUid}/balances`)).json()) as {
          days: string[];
        };
        const r = (await (await page.request.get(`/api/ledger/sub-accounts/${desk.subUid}/rebates`)).json()) as {
          rows: unknown[];
        };
        return (
          d.total > 20 && b.days.length > 0 && r.rows.length > 0 && d.freshness.backfilled === d.freshness.subaccounts
        );
      },
      { timeout: 100_000, intervals: [1_000] },
    )
    .toBe(true);
  const all = (await (
    await page.request.get(`/api/ledger/deposits?subUid=${desk.subUid}&limit=40`)
  ).json()) as Deposits;

  await page.goto(`/sub-accounts/${desk.subUid}`);
  const deposits = page.getByRole("region", { name: "Deposits", exact: true });
  await expect(deposits.getByTestId("ledger-total")).toHaveText(
    `${all.total.toLocaleString("en-US")} deposits of this sub-account in the ledger`,
  );
  await expect(deposits.locator("tbody tr[data-row-id]").first()).toHaveAttribute("data-row-id", all.rows[0]!.orderId);
  await deposits.getByRole("button", { name: /Older/ }).click();
  await expect(page).toHaveURL(/[?&]dp=/);
  await expect(deposits.locator("tbody tr[data-row-id]").first()).toHaveAttribute("data-row-id", all.rows[20]!.orderId);
  await expect(deposits.getByRole("link", { name: /All deposits/ })).toHaveAttribute(
    "href",
    `/deposits?subUid=${desk.subUid}`,
  );

  const chart = page.getByTestId("balance-history");
  // Today's is the only snapshot on a fresh instance: the section says so (the chart's series is unit-tested).
  await expect(chart).toContainText(`1 daily snapshot so far, of ${new Date().toISOString().slice(0, 10)} (UTC)`);
  await expect(chart.getByRole("combobox", { name: "Coin" })).toBeVisible();
  // The days before the first snapshot are not known, and the section says so rather than drawing zeros.
  const today = new Date().toISOString().slice(0, 10);
  await expect(chart.getByTestId("balance-coverage")).toContainText(
    `Snapshots of 1 of the 365 UTC days asked; none before ${today}, the first`,
  );
  const rebates = page.getByRole("table", { name: "Rebate info per day" });
  await expect(rebates.locator("tbody tr")).toHaveCount(1);
  // Ratios read as everywhere else: a percentage, with the platform's figure beside it.
  await expect(rebates.locator("tbody tr td").nth(3)).toHaveText(/^\d+(\.\d+)?% \(ratio [\d.]+\)$/);
  await page.screenshot({ path: "test-results/ledger-subaccount.png", fullPage: true });
  await page.context().close();
});

test("[ledger][home] the home page's recent deposits are the ledger's newest of every sub-account, each named beside its UID", async ({
  browser,
}) => {
  const page = await (await browser.newContext({ baseURL: instance.baseURL })).newPage();
  type Newest = { rows: { orderId: string; subUid: string; subaccountName: string | null }[]; total: number };
  // The sync keeps adding deposits (the simulator's arrive live), so a later request may see newer ones: the
  // card is compared with what it was itself answered (its latest answer, should it refetch).
  let answered: Newest | null = null;
  page.on("response", (r) => {
    const url = new URL(r.url());
    if (url.pathname === "/api/ledger/deposits" && url.searchParams.get("limit") === "10" && r.ok())
      void r.json().then((body: Newest) => (answered = body));
  });
  await signIn(page, "broker", "/");
  const card = page.getByRole("region", { name: "Recent deposits" });
  const rows = card.locator("tbody tr");
  await expect(rows).toHaveCount(10);
  const shownIds = () => rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-row-id")));
  await expect.poll(async () => (await shownIds()).join() === answered?.rows.map((r) => r.orderId).join()).toBe(true);
  const newest = answered as Newest | null;
  expect(newest?.rows).toHaveLength(10);
  const first = newest!.rows[0]!;
  await expect(rows.first().getByRole("link", { name: `${first.subaccountName} · ${first.subUid}` })).toHaveAttribute(
    "href",
    `/sub-accounts/${first.subUid}`,
  );
  await expect(card).toContainText(/The newest 10 of [\d,]+ deposits in the ledger, every sub-account/);
  await page.context().close();
});

test("[ledger][picker] the sub-account filter asks the server as one types (never the whole registry) and filters /deposits to the one chosen", async ({
  browser,
}) => {
  const page = await (await browser.newContext({ baseURL: instance.baseURL })).newPage();
  const registryLoads: string[] = [];
  page.on("request", (r) => {
    if (new URL(r.url()).pathname === "/api/sub-accounts") registryLoads.push(r.url());
  });
  await signIn(page, "compliance", "/deposits");
  const picker = page.getByRole("combobox", { name: "Sub-account" });
  const asked = page.waitForRequest(
    (r) =>
      new URL(r.url()).pathname === "/api/sub-accounts/search" && new URL(r.url()).searchParams.get("q") === "DESK02",
  );
  await picker.fill("DESK02");
  await asked;
  const listbox = page.getByRole("listbox", { name: "Sub-accounts" });
  const option = listbox.getByRole("option", { name: /^desk02@\S+ \(\d+\)$/ });
  await expect(option).toHaveCount(1);
  const uid = /\((\d+)\)/.exec((await option.textContent())!)![1]!;
  // Only the match: with a name typed, "All" is not offered (Enter took it and dropped the filter).
  await expect(listbox.getByRole("option")).toHaveCount(1);
  await picker.press("ArrowDown");
  await picker.press("Enter");
  await expect(page).toHaveURL(new RegExp(`subUid=${uid}`));
  await expect(picker).toHaveValue(new RegExp(`^desk02@\\S+ \\(${uid}\\)$`));
  const cells = page.locator("tbody tr[data-row-id] td:nth-child(2)");
  await expect(cells.first()).toContainText(uid);
  expect(new Set(await cells.allTextContents()).size).toBe(1);
  expect(registryLoads).toEqual([]);
  await page.context().close();
});
