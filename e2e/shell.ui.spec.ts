import AxeBuilder from "@axe-core/playwright";
import type { Page, Response } from "@playwright/test";
import { expect, test } from "./support/test";
import { NAV_ITEMS } from "../components/shell/nav";
import { can, ROLES, type Role } from "../lib/rbac";
import { signInUi, simControlUrl } from "./support/staff";

const DEPOSITS = "/api/platform/v2/broker/subaccount-deposit";
type Deposit = { orderId: string; coin: string; amount: string; cTime: string };

// The expectation comes from the permission table and the nav data, not from the sidebar's own filter.
const expectedNav = (role: Role) => NAV_ITEMS.filter((i) => i.permission === null || can(role, i.permission));
/** A link's text starts with its label; a lead's Withdrawals link may add how many wait for their approval. */
const navTexts = (role: Role) => expectedNav(role).map((i) => new RegExp(`^${i.label}(\\d+ waiting for your approval)?$`));
const mainNav = (page: Page) => page.getByRole("navigation", { name: "Main" });
const html = (page: Page) => page.locator("html");

async function seriousViolations(page: Page): Promise<string[]> {
  const axe = await new AxeBuilder({ page }).analyze();
  return axe.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
}

const isDepositsCall = (r: Response) => new URL(r.url()).pathname === DEPOSITS && r.request().method() === "GET";

for (const role of ROLES) {
  test(`[shell][nav] ${role}: the sidebar shows exactly the pages the role may open, the current one marked`, async ({ page }) => {
    await signInUi(page, role);
    await expect(page).toHaveTitle("Home · Brokerdesk");
    const expected = expectedNav(role);
    const links = mainNav(page).getByRole("link");
    await expect(links).toHaveText(navTexts(role));
    expect(await links.evaluateAll((as) => as.map((a) => a.getAttribute("href")))).toEqual(expected.map((i) => i.href));
    // Pages the role may not open are not linked at all.
    for (const hidden of NAV_ITEMS.filter((i) => !expected.includes(i))) {
      await expect(mainNav(page).getByRole("link", { name: hidden.label, exact: true })).toHaveCount(0);
    }
    await expect(mainNav(page).getByRole("link", { name: "Home", exact: true })).toHaveAttribute("aria-current", "page");
    await expect(mainNav(page).locator("[aria-current]")).toHaveCount(1);

    // Every role reads deposits: following the link moves the mark.
    await mainNav(page).getByRole("link", { name: "Deposits", exact: true }).click();
    await expect(page).toHaveURL(/\/deposits/);
    await expect(page).toHaveTitle("Deposits · Brokerdesk");
    await expect(mainNav(page).getByRole("link", { name: "Deposits", exact: true })).toHaveAttribute("aria-current", "page");
    await expect(mainNav(page).getByRole("link", { name: "Home", exact: true })).not.toHaveAttribute("aria-current", /.*/);
    await expect(page.getByTestId("session-user")).toContainText(role);
    if (role === "broker") await page.screenshot({ path: "test-results/shell-deposits-broker.png" });
  });
}

test("[shell][a11y] the skip link is the first stop and moves focus to the main region", async ({ page }) => {
  await signInUi(page, "compliance");
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.screenshot({ path: "test-results/shell-skip-link-focus.png", clip: { x: 0, y: 0, width: 1280, height: 160 } });
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

test("[shell][theme] the toggle sets the dark class, which survives a reload and applies before hydration", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "light" });
  await signInUi(page, "broker");
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

test("[shell][home] broker: health and the first sub-account's deposits of the last 24 h, as the platform sent them", async ({ page }) => {
  const call = page.waitForResponse(isDepositsCall);
  await signInUi(page, "broker");
  const res = await call;
  expect(res.status()).toBe(200);
  const url = new URL(res.url());
  expect(url.searchParams.get("limit")).toBe("10");
  const span = Number(url.searchParams.get("endTime")) - Number(url.searchParams.get("startTime"));
  expect(span).toBe(24 * 60 * 60 * 1000);
  const deposits = ((await res.json()) as { data: Deposit[] }).data;
  expect(deposits.length).toBeGreaterThan(0);

  await expect(page.getByRole("region", { name: "Platform health" }).getByRole("status")).toContainText("The platform answers");
  const card = page.getByRole("region", { name: "Recent deposits" });
  const rows = card.locator("tbody tr");
  await expect(rows).toHaveCount(deposits.length);
  const first = deposits[0]!;
  await expect(rows.first()).toContainText(first.orderId);
  await expect(rows.first()).toContainText(first.coin);
  // Digits exactly as sent (grouped in thousands, never rounded).
  const [int, frac] = first.amount.split(".");
  await expect(rows.first()).toContainText(`${int!.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}${frac === undefined ? "" : `.${frac}`}`);
  await expect(rows.first()).toContainText(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC/);
  await expect(card.getByRole("link", { name: /All deposits/ })).toHaveAttribute("href", "/deposits");
  // Brokers do not approve withdrawals.
  await expect(page.getByRole("region", { name: "Pending withdrawals" })).toHaveCount(0);
});

test("[shell][home] a platform failure on the deposits card is shown as an error with the platform's words, not as no deposits", async ({ page, request }) => {
  await request.post(simControlUrl("faults"), { data: { path: "deposits.list", kind: "status", status: 503 } });
  try {
    const call = page.waitForResponse(isDepositsCall);
    await signInUi(page, "compliance");
    const res = await call;
    expect(res.ok()).toBe(false);
    const body = (await res.json()) as { error: { message: string; platform?: { code: string; msg: string } } };
    const alert = page.getByRole("region", { name: "Recent deposits" }).getByRole("alert");
    await expect(alert).toBeVisible({ timeout: 20_000 });
    await expect(alert).toContainText(body.error.platform ? body.error.platform.msg : body.error.message);
    await expect(page.getByRole("region", { name: "Recent deposits" }).locator("tbody tr")).toHaveCount(0);
    await expect(page.getByText(/No deposits to/)).toHaveCount(0);
    await page.screenshot({ path: "test-results/shell-home-deposits-error.png" });
  } finally {
    await request.delete(simControlUrl("faults"));
  }
});

/** A page of GET /api/withdrawals holding one request waiting for approval, in the ledger's row shape (lib/api/withdrawals). */
function pendingPage(over: { coin: string; amount: string }) {
  const at = "2025-01-02T03:04:05.000Z";
  const row = {
    id: "00000000-0000-4000-8000-000000000001", clientOid: "bdtest", subUid: "1234567890", dest: "on_chain", chain: "TRC20", address: "TXyz", tag: null,
    reason: "payout", state: "requested", requestedBy: "broker@demo.brokerdesk", requestedAt: at, approvedBy: null, approvedAt: null, rejectedBy: null,
    rejectedAt: null, rejectReason: null, cancelledAt: null, creditedAt: null, inAddressBook: false, submittedAt: null, settledAt: null, platformOrderId: null, errorCode: null, errorMsg: null, version: 1, ...over,
  };
  return { items: [row], nextCursor: null };
}

test("[shell][home] lead: pending withdrawals — a placeholder while the API is absent, an error when it fails", async ({ page }) => {
  await page.route("**/api/withdrawals?state=requested", (r) => r.fulfill({ status: 404, body: "Not Found" }));
  await signInUi(page, "lead");
  const card = page.getByRole("region", { name: "Pending withdrawals" });
  await expect(card).toContainText("Withdrawal approvals arrive here");
  await expect(card.getByRole("alert")).toHaveCount(0);

  await page.unroute("**/api/withdrawals?state=requested");
  await page.route("**/api/withdrawals?state=requested", (r) =>
    r.fulfill({ status: 500, json: { error: { code: "internal", message: "Something went wrong on the server; it has been logged." } } }),
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
  await signInUi(page, "compliance");
  const shortcuts = page.getByRole("region", { name: "Shortcuts" });
  await expect(shortcuts.getByRole("link", { name: "Audit log" })).toHaveAttribute("href", "/audit");
  await expect(shortcuts.getByRole("link", { name: "Deposits" })).toHaveAttribute("href", "/deposits");
  await expect(page.getByRole("region", { name: "Staff", exact: true })).toHaveCount(0);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login$/);

  await signInUi(page, "admin");
  const staff = page.getByRole("region", { name: "Staff", exact: true });
  await expect(staff.getByText("admin", { exact: true })).toBeVisible();
  await expect(staff.getByRole("link", { name: /Manage accounts/ })).toHaveAttribute("href", "/admin/users");
  await expect(page.getByRole("region", { name: "Pending withdrawals" })).toHaveCount(0);
});

test("[shell][responsive] on a narrow screen the sidebar folds behind Menu", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInUi(page, "lead");
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

for (const scheme of ["light", "dark"] as const) {
  test(`[shell][a11y] the home page has no serious or critical axe violations in ${scheme}`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    // The lead's home has the most cards; fixed withdrawals so the card has rows to check.
    await page.route("**/api/withdrawals?state=requested", (r) =>
      r.fulfill({ json: pendingPage({ coin: "BTC", amount: "0.5" }) }),
    );
    await signInUi(page, "lead");
    await expect(html(page)).toHaveClass(scheme === "dark" ? /\bdark\b/ : /^(?!.*\bdark\b)/);
    await expect(page.getByRole("region", { name: "Recent deposits" }).locator("tbody tr").first()).toBeVisible();
    await expect(page.getByRole("region", { name: "Platform health" }).getByRole("status")).toContainText("The platform answers");
    await expect(page.getByRole("region", { name: "Pending withdrawals" })).toContainText("waiting for approval");
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: `test-results/shell-home-${scheme}-desktop.png`, fullPage: true });

    // The same page with the folded reference table open, and on a phone.
    await page.getByText("About: the platform operations Brokerdesk uses").click();
    expect(await seriousViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `test-results/shell-home-${scheme}-mobile.png`, fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);
  });
}

test("[shell][a11y] admin's home in dark has no serious or critical axe violations", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "dark" });
  await signInUi(page, "admin");
  await expect(page.getByRole("region", { name: "Staff", exact: true }).getByText("Disabled")).toBeVisible();
  await expect(page.getByRole("region", { name: "Recent deposits" }).locator("tbody tr").first()).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.screenshot({ path: "test-results/shell-home-admin-dark.png", fullPage: true });
});
