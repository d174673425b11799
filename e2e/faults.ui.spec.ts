// Reliability under platform faults, in the browser against the run's simulator: every page that
// calls the platform shows each fault (5xx, gateway 503, connection reset, malformed JSON, 429 storm) as an
// error with the platform's code and message, never as "no records", and shows data again once the fault
// is cleared; a platform slower than PLATFORM_TIMEOUT_MS (5 s here) gives a timeout error within the
// timeout and a margin; a withdrawal whose E5 answer is lost is settled by Reconcile with one debit; and
// every audit intent of the run has its outcome. Faults are cleared after every test, pass or fail.
import { type Locator, type Page } from "@playwright/test";
import { expect, test, E2E_PLATFORM_TIMEOUT_MS } from "./support/test";
import { chooseSubAccount } from "./support/picker";
import type { OperationId } from "../lib/platform/catalog";
import { proxyPath } from "./support/envelope";
import { signInApi, signIn, type DemoRole } from "./support/staff";
import {
  PAGE_FAULTS,
  auditSince,
  clearFaults,
  debitSince,
  markBalance,
  opStats,
  requestWithdrawal,
  setFaults,
  subUid,
  unpairedIntents,
  type PageFault,
} from "./support/faults";
import { rows } from "./support/tables";
import { TRAVEL_RULE } from "./support/travel-rule";

test.describe.configure({ mode: "serial" });

const SUITE_START = Date.now();
const TIMEOUT_MS = E2E_PLATFORM_TIMEOUT_MS; // the workers' PLATFORM_TIMEOUT_MS (e2e/support/test.ts)
const ADDRESS = "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE";
const KINDS = Object.keys(PAGE_FAULTS) as PageFault[];

type PageCase = {
  path: string;
  op: OperationId;
  role: DemoRole;
  /** Where the page shows this operation's answer. */
  area: (page: Page) => Locator;
  /** The data, once the platform answers. */
  data: (page: Page) => Locator;
  /** What the page says for a successful empty answer: must never show under a fault. */
  empty: RegExp;
  /** A table page: its body must say that the request failed. */
  table?: boolean;
};

const main = (page: Page) => page.getByRole("main");
const PAGES: PageCase[] = [
  {
    path: "/deposits/live",
    op: "deposits.list",
    role: "compliance",
    area: main,
    data: rows,
    empty: /No deposits for/,
    table: true,
  },
  {
    path: "/assets",
    op: "subaccounts.assets",
    role: "broker",
    area: main,
    data: rows,
    empty: /No .*assets/,
    table: true,
  },
  {
    path: "/rebates",
    op: "rebates.get",
    role: "broker",
    area: main,
    data: (p) => p.getByTestId("rebate-info"),
    empty: /returned no rebate info/,
  },
  {
    path: "/spot/plan-orders/live",
    op: "planOrders.history",
    role: "compliance",
    area: main,
    data: rows,
    empty: /No \w+ plan orders/,
    table: true,
  },
  {
    path: "/spot/fills/live",
    op: "fills.list",
    role: "broker",
    area: main,
    data: rows,
    empty: /No \w+ fills/,
    table: true,
  },
  {
    path: "/market/trades",
    op: "market.trades",
    role: "compliance",
    area: main,
    data: rows,
    empty: /No \S+ trades/,
    table: true,
  },
  {
    path: "/futures/oi-limits",
    op: "oiLimits.list",
    role: "broker",
    area: main,
    data: rows,
    empty: /None of the|No rows\.$/,
    table: true,
  },
];

test.afterEach(async ({ request }) => {
  await clearFaults(request);
});

/** The page shows this failure as a failure: the alert with its words, no rows, no "nothing found". */
async function expectFailure(page: Page, c: PageCase, kind: PageFault) {
  const alert = c.area(page).getByRole("alert").filter({ hasText: PAGE_FAULTS[kind].shows });
  await expect(alert, `${c.path} under ${kind}`).toBeVisible({ timeout: 20_000 });
  await expect(c.data(page)).toHaveCount(0);
  await expect(c.area(page).getByText(c.empty)).toHaveCount(0);
  if (c.table) {
    await expect(alert).toContainText("This is a failure, not an empty result");
    await expect(page.getByText("No rows: the request failed (see above).")).toBeVisible();
  }
}

const retryOf = (page: Page, c: PageCase) => c.area(page).getByRole("button", { name: "Retry", exact: true });

test("[faults][read pages] on every platform page, 500, 503, reset, malformed JSON and a 429 storm each show as an error; Retry shows data once cleared", async ({
  browser,
}) => {
  test.setTimeout(90_000);
  // One staff session, every page open side by side: each round of faults hits all of them at once.
  const context = await browser.newContext();
  const first = await context.newPage();
  await signIn(first, "lead", "/");
  const pages = [first, ...(await Promise.all(PAGES.slice(1).map(() => context.newPage())))];
  const each = (fn: (page: Page, c: PageCase) => Promise<void>) => Promise.all(PAGES.map((c, i) => fn(pages[i]!, c)));

  await setFaults(first.request, [{ path: "*", ...PAGE_FAULTS[KINDS[0]!].rule }]);
  // Past the short server-side cache of E8/E11 answers: what the page gets is the fault, not an old success.
  await first.waitForTimeout(1_600);
  await each(async (page, c) => {
    await page.goto(c.path);
    await expectFailure(page, c, KINDS[0]!);
  });
  // Fault after fault on the same pages: each Retry asks again and shows the new failure.
  for (const kind of KINDS.slice(1)) {
    await setFaults(first.request, [{ path: "*", ...PAGE_FAULTS[kind].rule }]);
    await each(async (page, c) => {
      await retryOf(page, c).click();
      await expectFailure(page, c, kind);
    });
  }
  await clearFaults(first.request);
  await each(async (page, c) => {
    await retryOf(page, c).click();
    await expect(c.data(page).first(), `${c.path} after the faults were cleared`).toBeVisible({ timeout: 15_000 });
    await expect(
      c
        .area(page)
        .getByRole("alert")
        .filter({ hasText: /Platform error|Request failed/ }),
    ).toHaveCount(0);
  });
  await context.close();
});

test("[faults][timeout] latency past PLATFORM_TIMEOUT_MS: /rebates and /spot/fills show a timeout within the timeout and a margin, then recover", async ({
  browser,
}) => {
  test.setTimeout(60_000);
  const cases = PAGES.filter((c) => c.path === "/rebates" || c.path === "/spot/fills/live");
  const pages = await Promise.all(
    cases.map(async (c) => {
      const page = await (await browser.newContext()).newPage();
      await signIn(page, c.role, "/");
      return page;
    }),
  );
  await setFaults(
    pages[0]!.request,
    cases.map((c) => ({ path: c.op, kind: "latency" as const, latencyMs: TIMEOUT_MS + 5_000 })),
  );
  const MARGIN_MS = 4_000;
  // Counted from the browser's proxy request, not from the navigation: rendering and hydrating two pages at
  // once on a 2-core machine is not the platform call's time.
  const elapsed = await Promise.all(
    cases.map(async (c, i) => {
      const page = pages[i]!;
      let started = 0;
      page.on("request", (r) => {
        if (!started && new URL(r.url()).pathname === proxyPath(c.op)) started = Date.now();
      });
      await page.goto(c.path);
      const alert = page.getByRole("alert").filter({ hasText: "The platform did not answer in time" });
      await expect(alert).toBeVisible({ timeout: TIMEOUT_MS + MARGIN_MS + 5_000 });
      expect(started, `${c.path} asked the proxy for ${c.op}`).toBeGreaterThan(0);
      const ms = Date.now() - started;
      await expect(alert).toContainText(`did not answer ${c.op} within ${TIMEOUT_MS} ms`);
      await expect(c.data(page)).toHaveCount(0);
      await expect(page.getByText(c.empty)).toHaveCount(0);
      return ms;
    }),
  );
  for (const [i, ms] of elapsed.entries()) {
    expect(ms, `${cases[i]!.path} showed its timeout after ${ms} ms`).toBeLessThan(TIMEOUT_MS + MARGIN_MS);
    expect(ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 500);
  }
  await clearFaults(pages[0]!.request);
  for (const [i, c] of cases.entries()) {
    await pages[i]!.getByRole("button", { name: "Retry", exact: true }).click();
    await expect(c.data(pages[i]!).first()).toBeVisible();
  }
  await Promise.all(pages.map((p) => p.context().close()));
});

test("[faults][subaccounts.create] /sub-accounts: E6 answering 500 is said with the platform's code; nothing is registered; a resend creates it", async ({
  page,
}) => {
  await signIn(page, "broker", "/sub-accounts");
  const name = `faults${Date.now() % 1_000_000_000}@brokerdesk-e2e.example`;
  const form = page.getByRole("region", { name: "Create sub-account" });
  await form.getByLabel("Name (e-mail form)").fill(name);
  await setFaults(page.request, [{ path: "subaccounts.create", ...PAGE_FAULTS["status 500"].rule }]);
  await form.getByRole("button", { name: "Create sub-account" }).click();
  await expect(form.getByRole("alert").filter({ hasText: PAGE_FAULTS["status 500"].shows })).toBeVisible();
  const registry = (await (await page.request.get("/api/sub-accounts")).json()) as {
    items: { subaccountName: string | null }[];
  };
  expect(registry.items.some((s) => s.subaccountName === name)).toBe(false);

  await clearFaults(page.request);
  await form.getByRole("button", { name: "Create sub-account" }).click();
  await expect(form.getByText(new RegExp(`Created ${name.replace(/[.]/g, "\\.")} \\(UID \\d+\\)`))).toBeVisible();
});

test("[faults][riskUnits.bind] /risk-units: a reset on E9 is shown as a network failure; binding again succeeds", async ({
  page,
}) => {
  await signIn(page, "broker", "/risk-units");
  // desk07 already sits in riskunit02 on the platform: binding it there again is a success that changes
  // nothing (and leaves riskunit01, which the risk-unit specs count, alone).
  const uid = await subUid(page.request, "desk07");
  const unit = await subUid(page.request, "riskunit02");
  const form = page.getByRole("region", { name: "Bind a UID", exact: true });
  await form.getByLabel("Sub-account UID").fill(uid);
  await form.getByLabel("Risk unit ID").fill(unit);
  await setFaults(page.request, [{ path: "riskUnits.bind", ...PAGE_FAULTS.reset.rule }]);
  await form.getByRole("button", { name: "Bind" }).click();
  await expect(form.getByRole("alert").filter({ hasText: PAGE_FAULTS.reset.shows })).toBeVisible();
  await expect(form.getByText(`Bound UID ${uid}`)).toHaveCount(0);

  await clearFaults(page.request);
  await form.getByRole("button", { name: "Bind" }).click();
  await expect(form.getByText(`Bound UID ${uid} to risk unit ${unit}.`)).toBeVisible();
});

test("[faults][leverage.set] /leverage: a malformed E10 answer and a 429 storm are errors, not a result; resending sets it", async ({
  page,
}) => {
  await signIn(page, "lead", "/leverage");
  const form = page.getByRole("form", { name: "Set leverage" });
  await form.getByLabel("Product type").selectOption("USDT-FUTURES");
  await form.getByLabel("Symbol", { exact: true }).fill("BTCUSDT");
  await form.getByLabel("Margin coin", { exact: true }).fill("USDT");
  await form.getByLabel("Leverage", { exact: true }).fill("21");
  await page.getByRole("radiogroup", { name: "Margin mode" }).getByLabel("crossed").check();
  await page.getByRole("radiogroup", { name: "Position mode" }).getByLabel("one-way").check();
  const result = page.getByRole("region", { name: "The platform's leverage" });
  // A POST is never retried, so one malformed answer and one 429 are enough; the 429 is the platform's own refusal.
  const cases = [
    { kind: "malformed", shows: PAGE_FAULTS.malformed.shows },
    { kind: "429 storm", shows: /Platform code 429\W+Too Many Requests/ },
  ] as const;
  for (const { kind, shows } of cases) {
    await setFaults(page.request, [{ path: "leverage.set", ...PAGE_FAULTS[kind].rule }]);
    await page.getByRole("button", { name: "Set leverage" }).click();
    await expect(page.getByRole("alert").filter({ hasText: shows })).toBeVisible();
    await expect(result).toHaveCount(0);
  }
  await clearFaults(page.request);
  await page.getByRole("button", { name: "Set leverage" }).click();
  await expect(result.locator("dl")).toContainText("Cross margin leverage21");
});

test("[faults][withdrawals] /withdrawals: E2 down says the balance is unavailable; E5 malformed on approval leaves it unknown; Reconcile confirms with one debit", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(60_000);
  await signIn(page, "broker", "/withdrawals");
  const desk01 = await subUid(page.request, "desk01");
  const desk02 = await subUid(page.request, "desk02");
  const form = page.getByRole("region", { name: "Request a withdrawal" });
  const balance = page.getByTestId("available-balance");
  await setFaults(page.request, [{ path: "subaccounts.assets", ...PAGE_FAULTS["status 503"].rule }]);
  await chooseSubAccount(form, desk02);
  await form.getByLabel("Coin").selectOption("USDT");
  await expect(balance).toContainText("Balance unavailable: Platform error 503: HTTP 503 Service Unavailable");
  await expect(balance).not.toContainText("Available");
  await clearFaults(page.request);
  await chooseSubAccount(form, desk01);
  await expect(balance).toContainText(/Available: [\d,.]+ USDT/);

  const before = await markBalance(page.request, desk01);
  const e5Before = await opStats(page.request, "withdrawals.submit");
  const w = await requestWithdrawal(page.request, baseURL, {
    subUid: desk01,
    coin: "USDT",
    dest: "on_chain",
    travelRule: TRAVEL_RULE,
    address: ADDRESS,
    amount: "1.75",
    reason: "faults e2e: malformed E5 answer",
  });

  const lead = await (await browser.newContext()).newPage();
  await signIn(lead, "lead", "/withdrawals");
  await setFaults(lead.request, [{ path: "withdrawals.submit", ...PAGE_FAULTS.malformed.rule }]);
  await lead
    .locator(`tr[data-withdrawal-id="${w.id}"]`)
    .getByRole("button", { name: /^Approve / })
    .click();
  const dialog = lead.getByRole("dialog", { name: "Approve and send this withdrawal" });
  await dialog.getByLabel("Amount").fill(w.amount);
  await dialog.getByLabel("Address").fill(w.address);
  await dialog.getByRole("button", { name: "Approve and send" }).click();
  const queue = lead.getByRole("region", { name: "Approval queue" });
  await expect(queue.getByTestId("queue-notice")).toContainText(/Outcome unknown \(malformed: .*malformed response/);
  const unknown = queue
    .getByRole("list", { name: "Withdrawals whose outcome is unknown" })
    .locator(`li[data-withdrawal-id="${w.id}"]`);
  await expect(unknown).toBeVisible();
  // The fault replaced the answer before the platform acted: nothing moved yet.
  expect(await debitSince(lead.request, before)).toBe("0");

  await clearFaults(lead.request);
  await unknown.getByRole("button", { name: /^Reconcile/ }).click();
  await expect(queue.getByTestId("queue-notice")).toContainText(
    /Reconciled 1\.75 USDT: Accepted by the platform: order ID \d+/,
  );
  await expect(unknown).toHaveCount(0);
  const ledgerRow = lead.getByRole("region", { name: "Withdrawal ledger" }).locator(`tr[data-row-id="${w.id}"]`);
  await expect(ledgerRow).toContainText("accepted by the platform");

  expect(await debitSince(lead.request, before)).toBe("1.75");
  const e5 = await opStats(lead.request, "withdrawals.submit");
  // Two arrivals (the faulted one and the resend); only the resend got past the platform's gate and was carried out.
  expect(e5.requests - e5Before.requests).toBe(2);
  expect(e5.accepted - e5Before.accepted).toBe(1);
  await lead.context().close();
});

test("[faults][audit] every intent written during the fault runs has exactly one outcome", async ({
  playwright,
  baseURL,
}) => {
  const compliance = await playwright.request.newContext({ baseURL });
  await signInApi(compliance, "compliance");
  const rows = await auditSince(compliance, SUITE_START - 1_000);
  const { missing, doubled, intents } = unpairedIntents(rows);
  // The runs above wrote intents for E6, E9, E10, the approval, its reconcile and both E5 sends.
  expect(intents).toBeGreaterThanOrEqual(8);
  expect(missing.map((r) => `${r.id} ${r.action} ${r.target ?? ""}`)).toEqual([]);
  expect(doubled.map((r) => `${r.id} ${r.action}`)).toEqual([]);
  const actions = new Set(rows.filter((r) => r.outcome === "intent").map((r) => r.action));
  for (const a of [
    "subaccounts.create",
    "riskUnits.bind",
    "leverage.set",
    "withdrawals.approve",
    "withdrawals.reconcile",
    "withdrawals.submit",
  ]) {
    expect(actions, a).toContain(a);
  }
  await compliance.dispose();
});
