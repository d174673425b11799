// The deposit ledger as compliance uses it: an instance with the sync on syncs every registry
// sub-account from the simulator; compliance opens /deposits, filters across all sub-accounts by coin,
// amount and a range longer than the platform's three months, sees the exact total and the totals per coin,
// exports, and the file matches the ledger row for row.
import type { APIRequestContext, Browser, Page } from "@playwright/test";
import { downloadText } from "./support/exports";
import { signInApi, signIn } from "./support/staff";
import type { Instance } from "./support/second-instance";
import { syncedInstance } from "./support/synced-instance";
import { expect, test } from "./support/test";
import { textRoom } from "./support/text-room";

let instance: Instance;
type LedgerPage = {
  rows: {
    orderId: string;
    subUid: string;
    coin: string;
    amount: string;
    cTime: string;
    valueUsdt: string | null;
    txId: string;
    fromAddress: string;
    toAddress: string;
  }[];
  nextCursor: string | null;
  total: number;
  totals: { coin: string; count: number; amount: string }[];
  freshness: { subaccounts: number; backfilled: number };
};

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(180_000);
  // The run's shared instance with the sync on (e2e/support/synced-instance.ts).
  instance = await syncedInstance("ledger");
  // Wait, off the clock, until every registry sub-account's history is in the ledger.
  const ctx = await playwright.request.newContext({ baseURL: instance.baseURL });
  await signInApi(ctx, "compliance");
  await expect
    .poll(
      async () => {
        const f = ((await (await ctx.get("/api/ledger/deposits?limit=1")).json()) as LedgerPage).freshness;
        return f.subaccounts > 0 && f.backfilled === f.subaccounts;
      },
      { timeout: 150_000, intervals: [1_000] },
    )
    .toBe(true);
  await ctx.dispose();
});

test.afterAll(async () => {
  await instance?.stop();
});

async function compliancePage(browser: Browser): Promise<Page> {
  const page = await (await browser.newContext({ baseURL: instance.baseURL })).newPage();
  await signIn(page, "compliance", "/deposits");
  return page;
}

async function everyRow(ctx: APIRequestContext, query: string): Promise<LedgerPage["rows"]> {
  const out: LedgerPage["rows"] = [];
  let cursor = "";
  for (;;) {
    const page = (await (
      await ctx.get(`/api/ledger/deposits?${query}&limit=500${cursor ? `&cursor=${cursor}` : ""}`)
    ).json()) as LedgerPage;
    out.push(...page.rows);
    if (!page.nextCursor) return out;
    cursor = encodeURIComponent(page.nextCursor);
  }
}

test("[ledger][deposits] compliance filters every sub-account over more than three months, sees the total, and the export matches row for row", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const page = await compliancePage(browser);
  await expect(page.getByTestId("ledger-freshness")).toContainText(
    /25 of 25 sub-accounts checked, every one checked again since \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/,
  );
  // Every coin the ledger holds can be chosen, not only the usual ones (DOGE was in the totals, not in the list).
  const held = ((await (await page.request.get("/api/ledger/deposits?limit=1")).json()) as LedgerPage).totals.map(
    (t) => t.coin,
  );
  expect(held.length).toBeGreaterThan(1);
  await expect(page.getByRole("table", { name: "Totals per coin" })).toBeVisible();
  const offered = await page.getByRole("combobox", { name: "Coin", exact: true }).locator("option").allTextContents();
  expect(offered).toEqual(expect.arrayContaining(held));
  const from = new Date(Date.now() - 150 * 86_400_000).toISOString().slice(0, 16);
  await page.getByRole("combobox", { name: "Coin", exact: true }).selectOption("USDT");
  await page.getByLabel("From (UTC)").fill(from);
  await page.getByLabel("Amount at least").fill("100");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/coin=USDT/);
  await expect(page).toHaveURL(/minAmount=100/);

  const query = new URL(page.url()).searchParams;
  const api = page.request;
  const expected = await everyRow(api, `coin=USDT&minAmount=100&from=${query.get("from")}`);
  expect(expected.length).toBeGreaterThan(50);
  // More than three months back, across many sub-accounts: beyond what one platform call can answer.
  const oldest = Math.min(...expected.map((r) => Number(r.cTime)));
  expect(Date.now() - oldest).toBeGreaterThan(95 * 86_400_000);
  expect(new Set(expected.map((r) => r.subUid)).size).toBeGreaterThan(5);

  const heading = page.getByRole("heading", { name: /deposits match these filters/ });
  await expect(heading).toHaveText(`${expected.length.toLocaleString("en-US")} deposits match these filters`);
  await expect(page.getByRole("table", { name: "Totals per coin" }).locator('tr[data-coin="USDT"]')).toContainText(
    expected.length.toLocaleString("en-US"),
  );
  await expect(page.locator("tbody tr[data-row-id]").first()).toHaveAttribute("data-row-id", expected[0]!.orderId);
  await page.screenshot({ path: "test-results/ledger-deposits.png", fullPage: true });

  const file = page.waitForEvent("download");
  await page.getByRole("link", { name: /Export CSV/ }).click();
  const downloaded = await file;
  // Its name says every filter it was cut with, then its days.
  expect(downloaded.suggestedFilename()).toMatch(
    /^deposits_all_coin-USDT_amount-min-100_\d{4}-\d\d-\d\d_\d{4}-\d\d-\d\d\.csv$/,
  );
  const csv = await downloadText(downloaded);
  const lines = csv.split(/\r?\n/).filter(Boolean);
  expect(lines[0]).toBe(
    "orderId,subUid,subaccountName,coin,amount,status,chain,dest,fromAddress,toAddress,txId,cTime,cTimeUtc,goneAt,valueUsdt",
  );
  expect(lines.length - 1).toBe(expected.length);
  // Counted again as the file was written: the link says the file's count, and when it was taken.
  await expect(
    page.getByRole("link", {
      name: new RegExp(
        `^Export CSV \\(${(lines.length - 1).toLocaleString("en-US")} rows at \\d\\d:\\d\\d:\\d\\d UTC\\)$`,
      ),
    }),
  ).toBeVisible();
  // Identifiers are written as text formulas ("=""123""") so a spreadsheet keeps every digit.
  expect(lines.slice(1).map((l) => l.split(",")[0])).toEqual(expected.map((r) => `"=""${r.orderId}"""`));
  expect(lines.slice(1).map((l) => l.split(",")[4])).toEqual(expected.map((r) => r.amount));
  // A readable UTC time beside the platform's milliseconds.
  expect(lines.slice(1).map((l) => l.split(",")[12])).toEqual(
    expected.map((r) => new Date(Number(r.cTime)).toISOString()),
  );

  // One record by its transaction hash, typed in capitals: found, and counted as one.
  const one = (
    (await (await page.request.get("/api/ledger/deposits?limit=1")).json()) as {
      rows: { orderId: string; txId: string }[];
    }
  ).rows[0]!;
  await page.goto(`/deposits?q=${encodeURIComponent(one.txId.toUpperCase().replace(/^0X/, "0x"))}`);
  await expect(page.locator("tbody tr[data-row-id]")).toHaveCount(1);
  await expect(page.locator(`tbody tr[data-row-id="${one.orderId}"]`)).toBeVisible();
  // The count is the page's, and says when it was taken (the file is written from the ledger as it is then).
  await expect(page.getByRole("link", { name: /^Export CSV \(1 row at \d\d:\d\d:\d\d UTC\)$/ })).toBeVisible();
  await expect(page.getByRole("heading", { name: "1 deposit matches these filters" })).toBeVisible();
  await page.context().close();
});

test.describe("[ledger][values] on a wide page", () => {
  test.use({ viewport: { width: 1920, height: 1080 } });

  test("[ledger][values] the Value (USDT) column and the value filter across coins; no price said plainly; a deposit's own page", async ({
    browser,
  }) => {
    test.setTimeout(150_000);
    const page = await compliancePage(browser);
    const from = Date.now() - 3 * 86_400_000;
    // The price job fills the newest days first: wait, off the clock, until the last three days hold a priced coin other than USDT.
    await expect
      .poll(
        async () =>
          (await everyRow(page.request, `minValue=1000&from=${from}`)).some((r) => r.coin !== "USDT" && r.valueUsdt),
        { timeout: 120_000, intervals: [2_000] },
      )
      .toBe(true);
    await page.goto(`/deposits?from=${from}`);
    await page.getByLabel("Value at least (USDT)").fill("1000");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/minValue=1000/);
    const expected = await everyRow(page.request, `minValue=1000&from=${new URL(page.url()).searchParams.get("from")}`);
    expect(expected.length).toBeGreaterThan(0);
    expect(new Set(expected.map((r) => r.coin)).size).toBeGreaterThan(1);
    await expect(page.getByRole("heading", { name: /match(es)? these filters/ })).toHaveText(
      `${expected.length.toLocaleString("en-US")} ${expected.length === 1 ? "deposit matches" : "deposits match"} these filters`,
    );
    const valueHeader = page.locator("thead th", { hasText: /^Value \(USDT\)/ });
    await expect(valueHeader).toBeVisible();
    const column = await valueHeader.evaluate((th) => [...th.parentElement!.children].indexOf(th));
    const first = page.locator("tbody tr[data-row-id]").first();
    await expect(first).toHaveAttribute("data-row-id", expected[0]!.orderId);
    const shown = (await first.locator("td, th").nth(column).innerText()).replace(/,/g, "");
    expect(shown).toBe(expected[0]!.valueUsdt);
    expect(Number(shown)).toBeGreaterThanOrEqual(1000);
    // Totals split by status, valued in USDT.
    const totals = page.getByRole("table", { name: "Totals per coin" });
    await expect(totals.getByRole("columnheader", { name: "Successful value (USDT)" })).toBeVisible();
    await expect(page.getByTestId("value-by-status").locator('li[data-status="success"]')).toContainText(/USDT$/);

    // USDC has no USDT market on the platform: its deposits have no price, said so, and no value filter matches them.
    await page.goto(`/deposits?coin=USDC&from=${from}`);
    await expect(page.locator("tbody tr[data-row-id]").first()).toBeVisible();
    await expect(page.locator("tbody tr[data-row-id]").first().getByTestId("no-price")).toHaveText("no price");
    expect(await everyRow(page.request, `coin=USDC&minValue=0.01&from=${from}`)).toEqual([]);

    // One deposit's own page: its fields, addresses, kept status history and links.
    const one = expected[0]!;
    await page.goto(`/deposits/${one.orderId}`);
    await expect(page).toHaveTitle(new RegExp(`Deposit ${one.orderId}`));
    const facts = page.getByTestId("deposit-facts");
    await expect(facts).toContainText(one.txId);
    await expect(facts).toContainText(one.fromAddress);
    await expect(facts).toContainText(one.toAddress);
    await expect(facts).toContainText(`${one.coin}`);
    await expect(page.getByRole("list", { name: "Status history" }).getByRole("listitem").first()).toContainText(
      "first stored as",
    );
    await expect(page.getByRole("link", { name: `Sub-account ${one.subUid}` })).toHaveAttribute(
      "href",
      `/sub-accounts/${one.subUid}`,
    );
    await expect(page.getByRole("link", { name: "Every ledger record of this transaction" })).toHaveAttribute(
      "href",
      `/deposits?q=${encodeURIComponent(one.txId)}`,
    );
    await page.screenshot({ path: "test-results/ledger-deposit.png", fullPage: true });
    await page.goto("/deposits/123456789");
    await expect(
      page.getByRole("alert").filter({ hasText: "holds no deposit with record ID 123456789" }),
    ).toBeVisible();
    await page.context().close();
  });
});

test("[ledger][sync] /sync shows every sub-account current; Check now is audited and makes it due at once; a broker may not open it", async ({
  browser,
  playwright,
}) => {
  const page = await compliancePage(browser);
  await page.goto("/sync");
  await expect(page.getByTestId("sync-summary")).toContainText(
    "25 of 25 sub-accounts checked, 25 with their history complete",
  );
  await expect(page.getByTestId("backfill-estimate")).toContainText(
    "Deposit history: the last three months complete for 25 of 25 (all of them); the whole history for 25 of 25 (all of them)",
  );
  // 25 sub-accounts at 10 calls/s: the bound (2.5 s) is below LEDGER_ACTIVE_SECONDS (60): both kinds every 60 s.
  await expect(page.getByTestId("sync-summary")).toContainText(
    /\(a deposit in the last week: \d+\) are checked at least every 60 s, as every other is\./,
  );
  // Each job in a row: the deposit job has started on all 25, none failing, its lag in seconds or minutes.
  const deposits = page.getByRole("table", { name: "Sync jobs" }).locator('tr[data-job="deposits"]');
  await expect(deposits.getByRole("rowheader")).toHaveText("Deposits (E1), per sub-account");
  await expect(deposits.locator("td").nth(0)).toHaveText("25");
  await expect(deposits.locator("td").nth(2)).toHaveText("0");
  await expect(deposits.locator("td").nth(3)).toHaveText(/^\d+ (s|min)$/);
  // Records read grow with every check's re-read: the header and the note say so, and where the ledger's own count is.
  await expect(
    page.getByRole("table", { name: "Sync jobs" }).getByRole("columnheader", { name: "Records read" }),
  ).toBeVisible();
  await expect(page.getByText(/^Records read are those the platform sent, counted at every read/)).toBeVisible();
  // Budget used: the job's calls per second over the last 60 s against its share (this instance's
  // LEDGER_SYNC_SHARE 1: all of E1's 10/s). Never 0 while the sync runs: the 25 desks are active, each
  // checked every 60 s (a count the page could not see, as when the route read another module's copy, says 0).
  await expect(deposits.locator("td").nth(6)).toHaveText(/^(?!0 of)\d+(\.\d+)? of 10 calls\/s \(\d+%\)$/);
  const table = page.getByRole("table", { name: "Deposit sync per sub-account" });
  await expect(table.locator("tbody tr")).toHaveCount(25);
  await expect(table.getByText("current")).toHaveCount(25);
  // Every synced dataset's coverage of the last 89 days, each in its unit: the deposits of all 25 complete.
  const datasets = page.getByRole("table", { name: "Coverage of each synced dataset over the last 89 days" });
  await expect(datasets.locator("tbody tr")).toHaveCount(6);
  await expect(datasets.locator('tr[data-dataset="deposits"]')).toContainText("25 of 25 sub-accounts");
  await expect(datasets.locator('tr[data-dataset="prices"]')).toContainText(/\d+ of \d+ coins/);
  // The list is bounded (the registry may hold 100,000): any one sub-account is looked up by its picker.
  const picker = page.getByRole("combobox", { name: "Sub-account", exact: true });
  // Its placeholder says what it lists with nothing chosen, and how to choose, whole.
  await expect(picker).toHaveAttribute("placeholder", "Those needing attention most (type a name, label or UID)");
  expect(await textRoom(picker, "placeholder")).toBeGreaterThanOrEqual(0);
  await picker.fill("desk07");
  await page
    .getByRole("listbox", { name: "Sub-accounts" })
    .getByRole("option", { name: /^desk07@/ })
    .click();
  await expect(table.locator("tbody tr")).toHaveCount(1);
  await expect(table.locator("tbody tr")).toContainText("desk07@");
  expect(
    ((await page.request.get("/api/ledger/sync?limit=3").then((r) => r.json())) as { rows: unknown[] }).rows,
  ).toHaveLength(3);
  await picker.fill("");
  await page
    .getByRole("listbox", { name: "Sub-accounts" })
    .getByRole("option", { name: "Those needing attention most" })
    .click();
  await expect(table.locator("tbody tr")).toHaveCount(25);
  const first = table.locator("tbody tr").first();
  const uid = (await first.getAttribute("data-row-id"))!;
  const asked = page.waitForResponse(
    (r) => new URL(r.url()).pathname === `/api/ledger/sync/${uid}` && r.request().method() === "POST",
  );
  await first.getByRole("button", { name: /^Check .* now$/ }).click();
  expect((await asked).status()).toBe(200);
  await expect(page.getByTestId("check-now-outcome")).toHaveText(
    `UID ${uid} is checked now, ahead of every other sync run (with the rest of its history if it is not complete): its row shows the check once done.`,
  );
  await page.screenshot({ path: "test-results/ledger-sync.png", fullPage: true });
  const audit = await page.request.get("/api/audit?action=ledger.check-now&limit=5");
  const { rows } = (await audit.json()) as { rows: { target: string; outcome: string; actor: string }[] };
  expect(
    rows
      .filter((r) => r.target === `subaccount:${uid}`)
      .map((r) => r.outcome)
      .sort(),
  ).toEqual(["intent", "success"]);
  await page.context().close();

  const broker = await playwright.request.newContext({ baseURL: instance.baseURL });
  await signInApi(broker, "broker");
  expect((await broker.get("/api/ledger/sync")).status()).toBe(403);
  await broker.dispose();
});
