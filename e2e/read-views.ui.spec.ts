// Over 60 s (about 62 s on the loaded 2-core machine, docs/testing.md): 12 tests; axe over full tables in both
// themes, and the trades export walks every page of an hour (over 1,000 trades) and counts them independently.
import type { Page, Response } from "@playwright/test";
import { expect, test } from "./support/test";
import { checkBothSchemes, seriousViolations } from "./support/axe";
import Big from "big.js";
import { subUid } from "./support/faults";
import { signIn } from "./support/staff";
import { platformData } from "./support/envelope";
import { countByIdLessThan, downloadText, exportCsv, expectDownloaded } from "./support/exports";
import { rows } from "./support/tables";

type Trade = { tradeId: string; price: string; ts: string };
type Deposit = { orderId: string; coin: string; amount: string; userId: string };

const TRADES = "/api/platform/v2/spot/market/fills-history";
const DEPOSITS = "/api/platform/v2/broker/subaccount-deposit";

const isCall =
  (path: string, match: (u: URL) => boolean = () => true) =>
  (r: Response) => {
    const u = new URL(r.url());
    return u.pathname === path && r.request().method() === "GET" && match(u);
  };

const body = platformData;

const firstRowId = (page: Page) => rows(page).first().getAttribute("data-row-id");

test.beforeEach(async ({ page }) => {
  await signIn(page, "broker");
});

test("[market.trades][list] opens on BTCUSDT with rows; 1,000 rows are virtualised and scroll to the last", async ({
  page,
}) => {
  const first = page.waitForResponse(isCall(TRADES, (u) => u.searchParams.get("symbol") === "BTCUSDT"));
  await page.goto("/market/trades");
  await expect(page).toHaveTitle(/Market trades/);
  const trades = await body<Trade[]>(await first);
  expect(trades.length).toBeGreaterThan(0);
  await expect(rows(page).first()).toHaveAttribute("data-row-id", trades[0]!.tradeId);
  await expect(page.getByRole("img", { name: /BTCUSDT price, [\d,]+ loaded trades: .*low .* high/ })).toBeVisible();

  const big = page.waitForResponse(isCall(TRADES, (u) => u.searchParams.get("limit") === "1000"));
  await page.getByLabel("Page size").selectOption("1000");
  await expect(page).toHaveURL(/limit=1000/);
  const thousand = await body<Trade[]>(await big);
  expect(thousand).toHaveLength(1000);
  await expect(page.getByText("1,000 rows loaded")).toBeVisible();
  const rendered = await rows(page).count();
  console.log(`DOM rows rendered for 1000 loaded: ${rendered}`);
  expect(rendered).toBeGreaterThan(10);
  expect(rendered).toBeLessThan(100);

  const last = thousand.at(-1)!.tradeId;
  await expect(page.locator(`tr[data-row-id="${last}"]`)).toHaveCount(0);
  await page.getByTestId("data-table-scroll").evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
  await expect(page.locator(`tr[data-row-id="${last}"]`)).toBeVisible();
  await expect(page.getByRole("button", { name: `Copy tradeId ${last}` })).toBeVisible();
  expect(await rows(page).count()).toBeLessThan(100);
});

test("[market.trades][filter] changing the symbol changes the URL and the rows", async ({ page }) => {
  await page.goto("/market/trades");
  await expect(rows(page).first()).toBeVisible();
  const eth = page.waitForResponse(isCall(TRADES, (u) => u.searchParams.get("symbol") === "ETHUSDT"));
  await page.getByLabel("Symbol", { exact: true }).selectOption("ETHUSDT");
  await expect(page).toHaveURL(/symbol=ETHUSDT/);
  const trades = await body<Trade[]>(await eth);
  await expect(page.getByRole("table", { name: "ETHUSDT market trades" })).toBeVisible();
  await expect(rows(page).first()).toHaveAttribute("data-row-id", trades[0]!.tradeId);
  // Prices are grouped exactly as sent, never through a float.
  const [int, frac] = trades[0]!.price.split(".");
  const grouped = `${int!.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}${frac === undefined ? "" : `.${frac}`}`;
  await expect(rows(page).first()).toContainText(grouped);
});

test("[market.trades][paging] Older, Newer, Latest, and back/forward restore the page", async ({ page }) => {
  await page.goto("/market/trades");
  await expect(rows(page).first()).toBeVisible();
  const page1 = (await firstRowId(page))!;

  await page.getByRole("button", { name: "Older →" }).click();
  await expect(page).toHaveURL(/[?&]p=0~\d+/);
  await expect(page.getByText(/^Page 2 ·/)).toBeVisible();
  await expect(rows(page).first()).not.toHaveAttribute("data-row-id", page1);
  const page2 = (await firstRowId(page))!;
  expect(BigInt(page2) < BigInt(page1)).toBe(true);

  await page.getByRole("button", { name: "← Newer" }).click();
  await expect(page).not.toHaveURL(/[?&]p=/);
  await expect(rows(page).first()).toHaveAttribute("data-row-id", page1);

  await page.getByRole("button", { name: "Older →" }).click();
  await expect(rows(page).first()).toHaveAttribute("data-row-id", page2);
  // Page 2 comes from the query cache at once, but nuqs writes the URL a moment later (its update queue): a
  // second click before that write is merged into one history entry, and Back would skip page 2. Wait for it,
  // as a person's next click would.
  await expect(page).toHaveURL(/[?&]p=0~\d+(?:&|$)/);
  await page.getByRole("button", { name: "Older →" }).click();
  await expect(page.getByText(/^Page 3 ·/)).toBeVisible();
  await expect(page).toHaveURL(/[?&]p=[^&]*(?:,|%2C)/);

  await page.goBack();
  await expect(page.getByText(/^Page 2 ·/)).toBeVisible();
  await expect(rows(page).first()).toHaveAttribute("data-row-id", page2);
  await page.goForward();
  await expect(page.getByText(/^Page 3 ·/)).toBeVisible();

  await page.getByRole("button", { name: "Latest" }).click();
  await expect(page).not.toHaveURL(/[?&]p=/);
  await expect(page.getByText(/^Page 1 ·/)).toBeVisible();
  // Latest moves "now" forward: the newest trade is the one we started on or a newer one.
  expect(BigInt((await firstRowId(page))!) >= BigInt(page1)).toBe(true);
});

test("[market.trades][range] a long range says it is walked in windows; one past retention is refused without a request", async ({
  page,
}) => {
  await page.goto("/market/trades?range=30d");
  await expect(page.getByTestId("window-note")).toHaveText(
    /^Range longer than 7 days: showing window 1 of 5 \(.*\), newest first$/,
  );

  // Count only requests for the refused range: the 30-day page's own fetch may still be in flight.
  const now = Date.now();
  let asked = 0;
  page.on("request", (r) => {
    const u = new URL(r.url());
    if (u.pathname === TRADES && Number(u.searchParams.get("endTime")) < now - 90 * 86_400_000) asked++;
  });
  await page.goto(`/market/trades?range=custom&from=${now - 100 * 86_400_000}&to=${now - 99 * 86_400_000}`);
  await expect(page.getByRole("alert").filter({ hasText: "Nothing was requested" })).toContainText(
    /keeps only the last 90 days/,
  );
  await page.waitForTimeout(500);
  expect(asked).toBe(0);
});

test("[market.trades][error] a platform refusal shows its code and message, not an empty table; no Retry for what retrying cannot fix", async ({
  page,
}) => {
  await page.goto("/market/trades");
  await expect(rows(page).first()).toBeVisible();
  await page.getByLabel("Symbol", { exact: true }).selectOption("__other");
  await page.getByLabel("Other symbol").fill("NOPEUSDT");
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(/symbol=NOPEUSDT/);
  const alert = page.getByRole("alert").filter({ hasText: "Platform error" });
  await expect(alert).toContainText(/Platform error 40034: Parameter .* does not exist/);
  await expect(alert).toContainText("The platform refused the request. An identifier was not found.");
  await expect(alert).not.toContainText("market.trades");
  await expect(alert.getByRole("button", { name: "Retry" })).toHaveCount(0);
  await expect(rows(page)).toHaveCount(0);
});

test("[deposits.list][list] opens on the first sub-account; totals per coin equal the loaded amounts", async ({
  page,
}) => {
  // The registry's first by UID, as the page's default asks for it (never the whole registry).
  const subs = (await (await page.request.get("/api/sub-accounts/search?limit=20")).json()) as {
    items: { subUid: string }[];
  };
  const firstUid = subs.items[0]!.subUid;
  // The view's own call (its default page size, 50), not another deposits call the page may make (the
  // home page's recent-deposits card asks for 10 of the last day and can answer while /deposits loads).
  const call = page.waitForResponse(
    isCall(DEPOSITS, (u) => u.searchParams.get("userId") === firstUid && u.searchParams.get("limit") === "50"),
  );
  await page.goto("/deposits/live");
  await expect(page).toHaveTitle(/Live deposits/);
  const deposits = await body<Deposit[]>(await call);
  expect(deposits.length).toBeGreaterThan(0);
  await expect(page.getByRole("combobox", { name: "Sub-account", exact: true })).toHaveValue(
    new RegExp(`\\(${firstUid}\\)$`),
  );
  await expect(rows(page).first()).toHaveAttribute("data-row-id", deposits[0]!.orderId);
  await expect(page.getByText(`${deposits.length} rows loaded`)).toBeVisible();

  const expected = new Map<string, Big>();
  for (const d of deposits) expected.set(d.coin, (expected.get(d.coin) ?? new Big(0)).plus(d.amount));
  const totals = page.getByTestId("coin-totals");
  await expect(totals.locator("tbody tr")).toHaveCount(expected.size);
  for (const [coin, sum] of expected) {
    const cell = totals.locator(`tr[data-coin="${coin}"] [data-amount]`);
    expect(new Big((await cell.getAttribute("data-amount"))!).eq(sum)).toBe(true);
  }
  await expect(page.getByRole("img", { name: /Deposits per day \(UTC\): \d+ bars/ })).toBeVisible();

  // A client-side filter narrows the rows and the totals, and lives in the URL.
  const coin = deposits[0]!.coin;
  await page.getByLabel("Coin (loaded rows)").selectOption(coin);
  await expect(page).toHaveURL(new RegExp(`coin=${coin}`));
  await expect(totals.locator("tbody tr")).toHaveCount(1);
  const n = deposits.filter((d) => d.coin === coin).length;
  await expect(page.getByText(`${deposits.length} rows loaded · ${n} shown after filters`)).toBeVisible();
  await expect(page.getByText(`Of the ${n} rows shown`)).toBeVisible();
});

for (const path of ["/market/trades", "/deposits/live"]) {
  test(`[a11y] ${path} has no serious or critical axe violations; screenshots light and dark`, async ({ page }) => {
    await page.goto(path);
    await expect(rows(page).first()).toBeVisible();
    const name = path.replace(/\W+/g, "-").replace(/^-/, "");
    await checkBothSchemes(page, (scheme) => `test-results/read-views-${name}-${scheme}.png`);
  });
}

// The ledgers as a fresh instance shows them (this server's sync is off: no deposits) and filtered to nothing:
// an empty wide table once scrolled sideways with no way to reach it by keyboard (axe, /withdrawals at 2237197).
test("[a11y] the deposit and withdrawal ledgers, empty and filtered to nothing, have no serious or critical axe violations", async ({
  page,
}) => {
  test.setTimeout(90_000);
  // A range older than E1's newest window: an approval's own refresh (another spec's, on this server) reads that
  // window into the ledger, sync or no sync.
  const day = (daysAgo: number) =>
    encodeURIComponent(new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 16));
  const pages = [
    // The registry's sub-accounts are not synced here: an empty ledger says so, never "no deposits".
    { path: `/deposits?from=${day(200)}&to=${day(100)}`, empty: /^Not synced yet: nothing in the ledger so far\./ },
    { path: "/withdrawals?requestedBy=nobody%40example.invalid", empty: "No withdrawal requests match these filters." },
  ];
  await signIn(page, "compliance", pages[0]!.path);
  for (const { path, empty } of pages) {
    if (path !== pages[0]!.path) await page.goto(path);
    await expect(page.getByText(empty)).toBeVisible();
    expect(await seriousViolations(page), path).toEqual([]);
  }
});

test("[market.trades][export] Export CSV downloads every trade of the range (all pages)", async ({ page }) => {
  await page.goto("/market/trades?range=1h");
  await expect(rows(page).first()).toBeVisible();
  const { lines, operation, params } = await exportCsv(page);
  expect(operation).toBe("market.trades");

  // Count independently: walk the proxy with the same range, cursor by cursor.
  const count = await countByIdLessThan<Trade>(page.request, TRADES, params, 1000, (t) => t.tradeId);
  expect(count).toBeGreaterThan(1000);
  await expectDownloaded(page, lines, count);
});

test("[deposits.list][lookup] by record ID: asks for one first, then says what was searched, each time with its zone once", async ({
  page,
}) => {
  await signIn(page, "compliance", "/deposits/live?by=order");
  await expect(page.getByText("Enter a record ID (orderId) to look it up.")).toBeVisible();
  await page.getByLabel("Record ID (within the range)").fill("1");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/orderId=1/);
  // It said "… UTC UTC" when the view wrote its own empty state.
  await expect(
    page.getByText(
      /^No deposits for record ID 1 between \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC and \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC( —|\.)/,
    ),
  ).toBeVisible();
});

test("[deposits.list][export] Export CSV of the default range has exactly the loaded records", async ({ page }) => {
  // desk07: fewer deposits in the default week than one page holds (the registry's first UID, the page's
  // default sub-account, may have more).
  const uid = await subUid(page.request, "desk07");
  const call = page.waitForResponse(isCall(DEPOSITS, (u) => u.searchParams.get("limit") === "50")); // the view's own call, as above
  await page.goto(`/deposits/live?uid=${uid}`);
  const deposits = await body<Deposit[]>(await call);
  // The default page holds the whole range when there is nothing older to load.
  await expect(page.getByRole("button", { name: "Older →" })).toBeDisabled();
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export CSV" }).click();
  const csv = await downloadText(await download);
  const lines = csv.split(/\r?\n/).filter(Boolean);
  expect(lines.length - 1).toBe(deposits.length);
  for (const d of deposits) expect(csv).toContain(d.orderId);
});
