// Over 60 s (about 77 s on the loaded 2-core machine, docs/testing.md): 15 tests; every role's navigation, every
// lead page at 800 px wide, and axe over the home page (one full pass per theme, and the phone's layout).
import type { Page } from "@playwright/test";
import { expect, test } from "./support/test";
import { NAV_ITEMS } from "../components/shell/nav";
import { can, ROLES, type Role } from "../lib/rbac";
import { signIn } from "./support/staff";
import { brokerRequest } from "./support/requests";
import { seriousViolations } from "./support/axe";

const DEPOSITS = "/api/platform/v2/broker/subaccount-deposit";

// The expectation comes from the permission table and the nav data, not from the sidebar's own filter.
const expectedNav = (role: Role) => NAV_ITEMS.filter((i) => i.permission === null || can(role, i.permission));
/** A link's text starts with its label; a lead's Withdrawals link may add how many wait for their approval. */
const navTexts = (role: Role) =>
  expectedNav(role).map((i) => new RegExp(`^${i.label}(\\d+ waiting for your approval)?$`));
const mainNav = (page: Page) => page.getByRole("navigation", { name: "Main" });
const html = (page: Page) => page.locator("html");

for (const role of ROLES) {
  test(`[shell][nav] ${role}: the sidebar shows exactly the pages the role may open, the current one marked`, async ({
    page,
  }) => {
    await signIn(page, role);
    await expect(page).toHaveTitle("Home · Brokerdesk");
    const expected = expectedNav(role);
    const links = mainNav(page).getByRole("link");
    await expect(links).toHaveText(navTexts(role));
    expect(await links.evaluateAll((as) => as.map((a) => a.getAttribute("href")))).toEqual(expected.map((i) => i.href));
    // Pages the role may not open are not linked at all.
    for (const hidden of NAV_ITEMS.filter((i) => !expected.includes(i))) {
      await expect(mainNav(page).getByRole("link", { name: hidden.label, exact: true })).toHaveCount(0);
    }
    await expect(mainNav(page).getByRole("link", { name: "Home", exact: true })).toHaveAttribute(
      "aria-current",
      "page",
    );
    await expect(mainNav(page).locator("[aria-current]")).toHaveCount(1);

    // Every role reads deposits: following the link moves the mark.
    await mainNav(page).getByRole("link", { name: "Deposits", exact: true }).click();
    await expect(page).toHaveURL(/\/deposits/);
    await expect(page).toHaveTitle("Deposits · Brokerdesk");
    await expect(mainNav(page).getByRole("link", { name: "Deposits", exact: true })).toHaveAttribute(
      "aria-current",
      "page",
    );
    await expect(mainNav(page).getByRole("link", { name: "Home", exact: true })).not.toHaveAttribute(
      "aria-current",
      /.*/,
    );
    await expect(page.getByTestId("session-user")).toContainText(role);
    if (role === "broker") await page.screenshot({ path: "test-results/shell-deposits-broker.png" });
  });
}

test("[shell][nav] a page under another entry's path marks only its own entry", async ({ page }) => {
  await signIn(page, "admin");
  // Rules (/alerts/rules) under Alerts, the leverage policy (/policy/leverage) under the money-out policy.
  for (const [path, label] of [
    ["/alerts/rules", "Rules"],
    ["/policy/leverage", "Leverage policy"],
  ] as const) {
    await page.goto(path);
    await expect(mainNav(page).getByRole("link", { name: label, exact: true })).toHaveAttribute("aria-current", "page");
    await expect(mainNav(page).locator("[aria-current]")).toHaveCount(1);
  }
});

test("[shell][a11y] the skip link is the first stop and moves focus to the main region", async ({ page }) => {
  await signIn(page, "compliance");
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.screenshot({
    path: "test-results/shell-skip-link-focus.png",
    clip: { x: 0, y: 0, width: 1280, height: 160 },
  });
  await page.keyboard.press("Enter");
  await expect(page.locator("main#main")).toBeFocused();
  // The next Tab continues inside the page's content, past the header and the sidebar.
  await page.keyboard.press("Tab");
  expect(await page.evaluate(() => document.activeElement?.closest("main")?.id)).toBe("main");
  // The theme radios are transparent; their label must show the keyboard focus instead.
  await page.getByRole("radio", { name: "System" }).focus();
  await page.keyboard.press("ArrowLeft");
  await expect(page.getByRole("radio", { name: "Dark" })).toBeFocused();
  await expect(page.getByTitle("Dark theme")).toHaveCSS("outline-style", "solid");
  await page.screenshot({ path: "test-results/shell-theme-focus.png", clip: { x: 880, y: 0, width: 400, height: 60 } });
});

test("[shell][theme] the toggle sets the dark class, which survives a reload and applies before hydration", async ({
  page,
}) => {
  await page.emulateMedia({ colorScheme: "light" });
  await signIn(page, "broker");
  await expect(html(page)).not.toHaveClass(/\bdark\b/);
  await expect(page.getByRole("radio", { name: "System" })).toBeChecked();

  await page.getByRole("radio", { name: "Dark" }).check();
  await expect(html(page)).toHaveClass(/\bdark\b/);
  expect(await page.evaluate(() => localStorage.getItem("brokerdesk-theme"))).toBe("dark");

  // Set by the inline script in <head>: present as soon as the document is parsed, before React runs.
  await page.reload({ waitUntil: "domcontentloaded" });
  expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);
  await expect(page.getByRole("radio", { name: "Dark" })).toBeChecked();

  // "System" follows the operating system, live.
  await page.getByRole("radio", { name: "System" }).check();
  await expect(html(page)).not.toHaveClass(/\bdark\b/);
  await page.emulateMedia({ colorScheme: "dark" });
  await expect(html(page)).toHaveClass(/\bdark\b/);

  // "Light" wins over a dark system, also after a reload.
  await page.getByRole("radio", { name: "Light" }).check();
  await expect(html(page)).not.toHaveClass(/\bdark\b/);
  await page.reload();
  await expect(html(page)).not.toHaveClass(/\bdark\b/);
  await expect(page.getByRole("radio", { name: "Light" })).toBeChecked();
});

/** A page of the deposit ledger as /api/ledger/deposits answers it: this server's sync is off, so the home
 * card's rows are given here; e2e/ledger-trades.ui.spec.ts sees the card filled by a real sync. */
function ledgerDepositsPage() {
  const row = (orderId: string, subUid: string, name: string | null, coin: string, amount: string, cTime: number) => ({
    orderId,
    subUid,
    subaccountName: name,
    coin,
    amount,
    status: "success",
    chain: "TRC20",
    dest: "on_chain",
    fromAddress: "",
    toAddress: "",
    txId: "",
    cTime: String(cTime),
    goneAt: null,
    valueUsdt: null,
  });
  const t = Date.parse("2026-03-04T05:06:07Z");
  return {
    rows: [
      row("1001", "5481892133", "desk01@brokerdesk-sim.example", "USDT", "1234567.8900001", t),
      row("1000", "5481892134", null, "BTC", "0.5", t - 60_000),
    ],
    nextCursor: null,
    total: 2,
    totals: [],
    totalsByStatus: [],
    valueByStatus: {
      success: { count: 2, value: null, unpriced: 2 },
      pending: { count: 0, value: null, unpriced: 0 },
      fail: { count: 0, value: null, unpriced: 0 },
    },
    perDay: [],
    freshness: { subaccounts: 25, checked: 25, backfilled: 25, oldestCheckAt: null, newestCheckAt: null, failing: 0 },
    coverage: {
      dataset: "deposits",
      from: null,
      to: null,
      total: 25,
      complete: 25,
      currentTo: "2026-03-04T05:06:07.000Z",
      missing: [],
    },
  };
}
const isLedgerHomeCall = (url: string) =>
  new URL(url).pathname === "/api/ledger/deposits" && new URL(url).searchParams.get("limit") === "10";

test("[shell][home] broker: health and the newest deposits of every sub-account from the ledger, names beside UIDs, amounts as kept", async ({
  page,
}) => {
  const platformCalls: string[] = [];
  page.on("request", (r) => {
    if (new URL(r.url()).pathname === DEPOSITS) platformCalls.push(r.url());
  });
  await page.route("**/api/ledger/deposits?limit=10", (r) => r.fulfill({ json: ledgerDepositsPage() }));
  const call = page.waitForRequest((r) => isLedgerHomeCall(r.url()));
  await signIn(page, "broker");
  // Every sub-account: no sub-account filter, no time window; and no platform call per sub-account.
  expect([...new URL((await call).url()).searchParams.keys()]).toEqual(["limit"]);

  await expect(page.getByRole("region", { name: "Platform health" }).getByRole("status")).toContainText(
    "The platform answers",
  );
  const card = page.getByRole("region", { name: "Recent deposits" });
  const rows = card.locator("tbody tr");
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText("2026-03-04 05:06:07 UTC");
  await expect(rows.first()).toContainText("1,234,567.8900001");
  await expect(rows.first().getByRole("link", { name: "desk01@brokerdesk-sim.example · 5481892133" })).toHaveAttribute(
    "href",
    "/sub-accounts/5481892133",
  );
  await expect(rows.nth(1).getByRole("link", { name: "5481892134" })).toHaveAttribute(
    "href",
    "/sub-accounts/5481892134",
  );
  await expect(card).toContainText("The newest 2 of 2 deposits in the ledger, every sub-account");
  await expect(card.getByRole("link", { name: /All deposits/ })).toHaveAttribute("href", "/deposits");
  expect(platformCalls).toEqual([]);
  // Brokers do not approve withdrawals.
  await expect(page.getByRole("region", { name: "Pending withdrawals" })).toHaveCount(0);
});

test("[shell][home] a failure of the ledger's answer on the deposits card is shown as an error, not as no deposits", async ({
  page,
}) => {
  await page.route("**/api/ledger/deposits?limit=10", (r) =>
    r.fulfill({ status: 503, json: { error: { code: "internal", message: "The ledger's database did not answer" } } }),
  );
  await signIn(page, "compliance");
  const alert = page.getByRole("region", { name: "Recent deposits" }).getByRole("alert");
  await expect(alert).toBeVisible({ timeout: 20_000 });
  await expect(alert).toContainText("The ledger's database did not answer");
  await expect(page.getByRole("region", { name: "Recent deposits" }).locator("tbody tr")).toHaveCount(0);
  await expect(page.getByText(/No deposits in the ledger/)).toHaveCount(0);
  await page.screenshot({ path: "test-results/shell-home-deposits-error.png" });
});

function pendingPage(over: { coin: string; amount: string }) {
  const at = "2025-01-02T03:04:05.000Z";
  const row = {
    id: "00000000-0000-4000-8000-000000000001",
    clientOid: "bdtest",
    subUid: "1234567890",
    dest: "on_chain",
    chain: "TRC20",
    address: "TXyz",
    tag: null,
    reason: "payout",
    state: "requested",
    requestedBy: "broker@demo.brokerdesk",
    requestedAt: at,
    approvedBy: null,
    approvedAt: null,
    rejectedBy: null,
    rejectedAt: null,
    rejectReason: null,
    cancelledAt: null,
    creditedAt: null,
    inAddressBook: false,
    submittedAt: null,
    settledAt: null,
    platformOrderId: null,
    errorCode: null,
    errorMsg: null,
    version: 1,
    policy: {
      version: null,
      rule: "default",
      required: [{ role: "lead", count: 1 }],
      approvals: [],
      stillNeeded: "needs one approval: lead",
      valueUsdt: "1250.5",
    },
    travelRule: null,
    ...over,
  };
  return { items: [row], nextCursor: null };
}

test("[shell][home] lead: pending withdrawals — none waiting, an error when the list fails, then the requests", async ({
  page,
}) => {
  await page.route("**/api/withdrawals?state=requested", (r) => r.fulfill({ json: { items: [], nextCursor: null } }));
  await signIn(page, "lead");
  const card = page.getByRole("region", { name: "Pending withdrawals" });
  await expect(card).toContainText("No withdrawal requests are waiting for approval.");

  await page.unroute("**/api/withdrawals?state=requested");
  await page.route("**/api/withdrawals?state=requested", (r) =>
    r.fulfill({
      status: 500,
      json: { error: { code: "internal", message: "Something went wrong on the server; it has been logged." } },
    }),
  );
  await page.reload();
  await expect(card.getByRole("alert")).toContainText("Something went wrong on the server");

  await page.unroute("**/api/withdrawals?state=requested");
  await page.route("**/api/withdrawals?state=requested", (r) =>
    r.fulfill({ json: pendingPage({ coin: "USDT", amount: "1250.5" }) }),
  );
  await page.reload();
  await expect(card).toContainText("1 request is waiting for approval");
  await expect(card).toContainText("1,250.5 USDT");
  await expect(card).toContainText("2025-01-02 03:04:05 UTC");
});

test("[shell][home] compliance and admin see their own cards", async ({ page }) => {
  await signIn(page, "compliance");
  const shortcuts = page.getByRole("region", { name: "Shortcuts" });
  await expect(shortcuts.getByRole("link", { name: "Audit log" })).toHaveAttribute("href", "/audit");
  await expect(shortcuts.getByRole("link", { name: "Deposits" })).toHaveAttribute("href", "/deposits");
  await expect(page.getByRole("region", { name: "Staff", exact: true })).toHaveCount(0);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login$/);

  await signIn(page, "admin");
  const staff = page.getByRole("region", { name: "Staff", exact: true });
  await expect(staff.getByText("admin", { exact: true })).toBeVisible();
  await expect(staff.getByRole("link", { name: /Manage accounts/ })).toHaveAttribute("href", "/admin/users");
  await expect(page.getByRole("region", { name: "Pending withdrawals" })).toHaveCount(0);
});

test("[shell][responsive] on a narrow screen the sidebar folds behind Menu", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, "lead");
  const menu = page.getByRole("button", { name: "Menu" });
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  const panel = page.locator(`#${await menu.getAttribute("aria-controls")}`);
  await expect(mainNav(page)).toBeHidden();
  await menu.click();
  await expect(menu).toHaveAttribute("aria-expanded", "true");
  await expect(panel).toBeVisible();
  await expect(mainNav(page).getByRole("link")).toHaveText(navTexts("lead"));
  await page.screenshot({ path: "test-results/shell-mobile-menu.png" });
  // Escape closes it and gives focus back to the button.
  await page.keyboard.press("Escape");
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(menu).toBeFocused();
  // Following a link closes it too.
  await menu.click();
  await mainNav(page).getByRole("link", { name: "Market trades" }).click();
  await expect(page).toHaveURL(/\/market\/trades/);
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(mainNav(page)).toBeHidden();
});

test("[shell][responsive] at 800 px no lead's page scrolls sideways: a wide table scrolls in its own box", async ({
  page,
  playwright,
  baseURL,
}) => {
  // A request in the lead's approval queue (its table overflowed the page, Approve and Reject off screen).
  await brokerRequest(playwright, baseURL, "e2e narrow screen", { amount: "0.02", desk: "desk05" });

  await page.setViewportSize({ width: 800, height: 900 });
  await signIn(page, "lead", "/withdrawals");
  await expect(
    page.getByRole("table", { name: "Requests waiting for your decision" }).locator("tbody tr").first(),
  ).toBeVisible();
  // The queue's own box needs no scrolling to reach a decision: Approve and Reject are inside it, and it inside the window.
  for (const verb of ["Approve", "Reject"]) {
    const at = await page
      .getByRole("button", { name: new RegExp(`^${verb} 0\\.02 USDT requested by`) })
      .first()
      .evaluate((b) => {
        let box = b.parentElement!;
        while (getComputedStyle(box).overflowX === "visible" && box.parentElement) box = box.parentElement;
        return {
          button: b.getBoundingClientRect().right,
          box: box.getBoundingClientRect().right,
          hidden: box.scrollWidth - box.clientWidth,
        };
      });
    expect(at.hidden, "the queue's box scrolls sideways").toBeLessThanOrEqual(0);
    expect(at.button, `${verb} is past the queue's edge`).toBeLessThanOrEqual(at.box);
    expect(at.box, "the queue is past the window's edge").toBeLessThanOrEqual(800);
  }
  for (const path of ["/withdrawals", "/leverage", "/sub-accounts", "/deposits", "/audit", "/risk-units", "/"]) {
    if (path !== "/withdrawals") await page.goto(path);
    await expect(page.getByRole("main")).toBeVisible();
    await page.waitForLoadState("networkidle");
    const wide = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(wide, `${path} is wider than the window`).toBeLessThanOrEqual(0);
  }
});

for (const scheme of ["light", "dark"] as const) {
  test(`[shell][a11y] the home page has no serious or critical axe violations in ${scheme}`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    // The lead's home has the most cards; fixed withdrawals so the card has rows to check.
    await page.route("**/api/withdrawals?state=requested", (r) =>
      r.fulfill({ json: pendingPage({ coin: "BTC", amount: "0.5" }) }),
    );
    await page.route("**/api/ledger/deposits?limit=10", (r) => r.fulfill({ json: ledgerDepositsPage() }));
    await signIn(page, "lead");
    await expect(html(page)).toHaveClass(scheme === "dark" ? /\bdark\b/ : /^(?!.*\bdark\b)/);
    await expect(page.getByRole("region", { name: "Recent deposits" }).locator("tbody tr").first()).toBeVisible();
    await expect(page.getByRole("region", { name: "Platform health" }).getByRole("status")).toContainText(
      "The platform answers",
    );
    await expect(page.getByRole("region", { name: "Pending withdrawals" })).toContainText("waiting for approval");
    await page.screenshot({ path: `test-results/shell-home-${scheme}-desktop.png`, fullPage: true });

    // One full pass per theme, with the folded reference table open: what the closed page shows, and the table
    // (each state used to get a pass of its own). Then the phone's layout: every rule in light; in dark the
    // contrast rule only, since the `dark` class changes colours, not the structure the others read (axe.ts).
    await page.getByText("About: the platform operations Brokerdesk uses").click();
    await expect(page.getByRole("table", { name: /platform operations Brokerdesk uses/ })).toBeVisible();
    expect(await seriousViolations(page), "desktop").toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `test-results/shell-home-${scheme}-mobile.png`, fullPage: true });
    expect(await seriousViolations(page, { colorsOnly: scheme === "dark" }), "phone").toEqual([]);
  });
}

test("[shell][a11y] admin's home in dark has no serious or critical axe violations", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "dark" });
  await page.route("**/api/ledger/deposits?limit=10", (r) => r.fulfill({ json: ledgerDepositsPage() }));
  await signIn(page, "admin");
  await expect(page.getByRole("region", { name: "Staff", exact: true }).getByText("Disabled")).toBeVisible();
  await expect(page.getByRole("region", { name: "Recent deposits" }).locator("tbody tr").first()).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.screenshot({ path: "test-results/shell-home-admin-dark.png", fullPage: true });
});
