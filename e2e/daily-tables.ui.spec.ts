// Tables and time, in Chromium at 1,440 px in a zone that is not UTC (India, UTC+05:30): the
// "Local time" choice is the person's across pages and visits, says it is on, shows its offset whole, and
// date filters are read in it; key columns stay in view; column choices are remembered; every page starts
// at the same place; a total is set as its rows are.
import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./support/test";
import { signInApi, signIn, waitForHydration } from "./support/staff";
import { subUid } from "./support/faults";
import { brokerRequest, requestWithdrawal } from "./support/requests";

test.use({ viewport: { width: 1440, height: 900 }, timezoneId: "Asia/Kolkata" });

const toggle = (page: Page) => page.getByRole("button", { name: /^Local time/ }).first();

/** Wholly inside the window and inside its table's scrolling box: seen without scrolling sideways. */
async function expectInView(page: Page, cell: Locator) {
  await expect(cell).toBeVisible();
  const box = (await cell.boundingBox())!;
  const scroller = (await cell.locator("xpath=ancestor::*[@data-testid='data-table-scroll']").boundingBox())!;
  expect(box.x + box.width, (await cell.textContent()) ?? "").toBeLessThanOrEqual(
    Math.min(1440, scroller.x + scroller.width) + 1,
  );
  expect(box.x).toBeGreaterThanOrEqual(scroller.x - 1);
}

test("[tables][time] Local time is remembered across pages and visits, visibly pressed, its offset whole; date filters use it", async ({
  page,
  playwright,
  baseURL,
}) => {
  await brokerRequest(playwright, baseURL, "e2e local time");
  await signIn(page, "compliance", "/withdrawals");
  const button = toggle(page);
  await expect(button).toHaveAttribute("aria-pressed", "false");
  const offBackground = await button.evaluate((b) => getComputedStyle(b).backgroundColor);
  await button.click();
  await expect(button).toHaveAttribute("aria-pressed", "true");
  await expect(button).toHaveText(/Local time \(UTC\+05:30\)/);
  // Pressed looks pressed, not only to a screen reader; and its words are not cut.
  expect(await button.evaluate((b) => getComputedStyle(b).backgroundColor)).not.toBe(offBackground);
  expect(await button.evaluate((b) => b.scrollWidth <= b.clientWidth)).toBe(true);

  // A time cell in local time carries its offset, and its column is wide enough for it.
  const time = page.getByRole("region", { name: "Withdrawal ledger", exact: true }).locator("tbody time").first();
  await expect(time).toHaveText(/UTC\+05:30$/);
  expect(
    await time.evaluate((t) => {
      const td = t.closest("td")!;
      return td.scrollWidth <= td.clientWidth;
    }),
  ).toBe(true);

  // A withdrawal's own page says its times in it too (they were always in UTC: "Your requests", the queue, the timeline).
  await time.click();
  await expect(page).toHaveURL(/\/withdrawals\/[0-9a-f-]{36}$/);
  await expect(page.locator("main time").first()).toHaveText(/UTC\+05:30$/);

  // Another page: the same choice, and its date filters are read in it.
  await page.goto("/deposits");
  await expect(toggle(page)).toHaveAttribute("aria-pressed", "true");
  // What the page is for says the zone in force, not always UTC.
  await expect(
    page.getByText(
      /Filters, counts and totals cover the whole matching set\. Times are in your local time \(UTC\+05:30\)\.$/,
    ),
  ).toBeVisible();
  const from = page.getByLabel("From (local, UTC+05:30)");
  await from.fill("2026-11-01T10:00");
  await expect(page).toHaveURL(new RegExp(`from=${Date.UTC(2026, 10, 1, 4, 30)}`));
  await page.reload();
  await expect(page.getByLabel("From (local, UTC+05:30)")).toHaveValue("2026-11-01T10:00");

  // Back to UTC: everywhere, and the same filter reads in UTC.
  await toggle(page).click();
  await expect(toggle(page)).toHaveAttribute("aria-pressed", "false");
  await expect(page.getByLabel("From (UTC)")).toHaveValue("2026-11-01T04:30");
  await expect(
    page.getByText(/Filters, counts and totals cover the whole matching set\. Times are in UTC\.$/),
  ).toBeVisible();
  await page.goto("/audit");
  await expect(toggle(page)).toHaveAttribute("aria-pressed", "false");
});

test("[tables][columns] key columns stay in view at 1,440 px; a column someone shows or hides stays so", async ({
  page,
  playwright,
  baseURL,
}) => {
  await brokerRequest(playwright, baseURL, "e2e columns");
  await signIn(page, "compliance", "/deposits");
  const ledger = page.getByRole("region", { name: "Deposit ledger", exact: true });
  await expect(ledger.locator("thead")).toBeVisible();
  for (const name of ["Status", "Transaction ID", "Amount", "Time"])
    await expectInView(page, page.locator("thead th", { hasText: new RegExp(`^${name}`) }).first());

  const uid = await subUid(page.request, "desk01");
  await page.goto(`/deposits/live?uid=${uid}`);
  await expect(page.locator("tbody tr[data-row-id]").first()).toBeVisible();
  for (const name of ["Status", "Transaction ID"])
    await expectInView(page, page.locator("thead th", { hasText: new RegExp(`^${name}`) }).first());

  await page.goto("/withdrawals");
  const table = page.getByRole("region", { name: "Withdrawal ledger", exact: true });
  // Measured as staff see it: hydrated (stored column choices applied) and with its rows.
  await waitForHydration(page);
  await expect(table.locator("tbody tr").first()).toBeVisible();
  for (const name of ["Address / UID", "Requested by", "Reason", "Amount", "State"])
    await expectInView(page, table.locator("thead th", { hasText: new RegExp(`^${name.replace("/", "\\/")}`) }));
  await expect(table.locator("thead th", { hasText: /^Tag/ })).toHaveCount(0);
  // A UTC time is whole in its narrower column too.
  const time = table.locator("tbody time").first();
  await expect(time).toBeVisible();
  expect(
    await time.evaluate((t) => {
      const td = t.closest("td")!;
      return td.scrollWidth <= td.clientWidth;
    }),
  ).toBe(true);

  // Shown by choice: it stays shown on the next visit; hidden by choice: it stays hidden.
  await table.getByText("Columns", { exact: true }).click();
  await table.getByRole("checkbox", { name: "Tag" }).check();
  await table.getByRole("checkbox", { name: "State" }).uncheck();
  await page.goto("/audit");
  await page.goto("/withdrawals");
  await expect(table.locator("thead th", { hasText: /^Tag/ })).toHaveCount(1);
  await expect(table.locator("thead th", { hasText: /^State/ })).toHaveCount(0);
  await table.getByText("Columns", { exact: true }).click();
  await table.getByRole("checkbox", { name: "State" }).check();
  await table.getByRole("checkbox", { name: "Tag" }).uncheck();
});

test("[tables][pages] every page starts at the same place; an unknown address is a page in the shell with a way back", async ({
  page,
}) => {
  await signIn(page, "broker", "/");
  const uid = await subUid(page.request, "desk01");
  const lefts = new Map<string, number>();
  for (const path of [
    "/",
    "/withdrawals",
    "/deposits",
    "/spot/fills",
    "/sub-accounts",
    `/sub-accounts/${uid}`,
    "/account",
    "/account/security",
  ]) {
    await page.goto(path);
    const h1 = page.getByRole("heading", { level: 1 });
    await expect(h1).toBeVisible();
    // Read once the page has settled (a heading can be replaced while the page hydrates).
    await page.waitForLoadState("networkidle");
    lefts.set(path, Math.round(await h1.evaluate((el) => el.getBoundingClientRect().x)));
  }
  expect(new Set(lefts.values()).size, JSON.stringify(Object.fromEntries(lefts))).toBe(1);

  const res = await page.goto("/no-such-page/here");
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
  await expect(page.getByRole("navigation").getByRole("link", { name: "Withdrawals" })).toBeVisible();
  await expect(page.getByTestId("session-user")).toBeVisible();
  // An unknown API path is still a plain 404, not a page and not a redirect to sign-in.
  const api = await page.request.get("/api/no-such-route", { maxRedirects: 0 });
  expect(api.status()).toBe(404);
  await page.getByRole("link", { name: "Back to Home" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();
});

test("[tables][totals] a ledger total is set with its rows' decimals (0.0350, not 0.035)", async ({
  page,
  playwright,
  baseURL,
}) => {
  const broker = await playwright.request.newContext({ baseURL });
  await signInApi(broker, "broker");
  const desk = await subUid(broker, "desk15");
  for (const amount of ["0.0125", "0.0225"]) await requestWithdrawal(broker, baseURL, amount, "e2e totals scale");
  await signIn(page, "compliance", `/withdrawals?subUid=${desk}&amountMin=0.0125&amountMax=0.0225`);
  await expect(page.getByTestId("ledger-summary")).toContainText(/ · \d+\.\d{4} USDT \(\d+\)/);
  await broker.dispose();
});

test("[tables][admin] role selects show their whole role, at 1,440, 1,280, 1,024 and 390 px, light and dark", async ({
  page,
}) => {
  await signIn(page, "admin", "/admin/users");
  const seen: string[] = [];
  for (const width of [1440, 1280, 1024, 390]) {
    for (const scheme of ["light", "dark"] as const) {
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto("/admin/users");
      // The theme follows the `dark` class (components/shell); set it as the toggle would.
      await page.evaluate((dark) => document.documentElement.classList.toggle("dark", dark), scheme === "dark");
      // Every role select: each staff row's, and the create form's.
      const selects = page.locator("select").filter({ has: page.locator("option[value='compliance']") });
      // The create form's select comes first; the staff rows' come with the list.
      await expect.poll(() => selects.count()).toBeGreaterThanOrEqual(5);
      const measured = await selects.evaluateAll((els) =>
        els.map((el) => {
          const s = el as HTMLSelectElement;
          const style = getComputedStyle(s);
          // The widest role as the select draws it: a span with the select's font, in the select's place.
          const probe = document.createElement("span");
          probe.style.cssText = `position:absolute;visibility:hidden;white-space:pre;font:${style.font};letter-spacing:${style.letterSpacing}`;
          document.body.append(probe);
          const widest = Math.max(
            ...[...s.options].map((o) => ((probe.textContent = o.text), probe.getBoundingClientRect().width)),
          );
          probe.remove();
          // Room for the text: the inner width less both paddings and the native arrow (Chromium draws it in about 20 px).
          const room = s.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
          return {
            id: s.id,
            room: Math.floor(room),
            widest: Math.ceil(widest),
            overflows: s.scrollWidth > s.clientWidth,
          };
        }),
      );
      const cut = measured.filter((m) => m.widest > m.room || m.overflows);
      seen.push(`${width} ${scheme}: ${measured.map((m) => `${m.room}/${m.widest}`).join(" ")}`);
      expect(cut, `at ${width} px, ${scheme}: room/widest text ${JSON.stringify(cut)}`).toEqual([]);
    }
  }
  test.info().annotations.push({ type: "room/widest px", description: seen.join("; ") });
});
