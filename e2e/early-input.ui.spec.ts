import type { Page } from "@playwright/test";
import { expect, test } from "./support/test";
import { holdScripts, signIn, waitForHydration } from "./support/staff";
import { rows } from "./support/tables";

// The server's HTML can be used before React hydrates it: on a slow machine, for a second or more. A choice made
// in that gap stays in the DOM, and React fires no change for it; components/ui/early-change.ts hands it to the
// control's own handler, so the page uses what the control shows, and only when it was an edit. CI once clicked
// the theme's Dark there: the radio showed Dark and the page stayed light.

/** Reloads `page` with its scripts held, runs `act` on the server's HTML, then lets React hydrate it. */
async function beforeHydration(page: Page, act: () => Promise<unknown>): Promise<void> {
  const release = await holdScripts(page);
  await page.reload({ waitUntil: "commit" });
  await expect(page.getByTestId("session-user")).toBeVisible();
  await act();
  const owned = await page.evaluate(() =>
    [...document.querySelectorAll("input, select")].some((el) =>
      Object.keys(el).some((k) => k.startsWith("__reactFiber$")),
    ),
  );
  expect(owned, "React hydrated before the scripts were let go").toBe(false);
  release();
  await waitForHydration(page);
}

const html = (page: Page) => page.locator("html");

test("[early-input][theme] a theme chosen before the page hydrates is the page's theme, and is stored", async ({
  page,
}) => {
  await page.emulateMedia({ colorScheme: "light" });
  await signIn(page, "broker");
  // From nothing stored to Dark; from a stored Dark (the client's choice differs from the server's) to Light;
  // then System, which the server's HTML must not claim checked (a click on a checked radio is no edit).
  for (const [label, dark] of [
    ["Dark", true],
    ["Light", false],
    ["System", false],
  ] as const) {
    await beforeHydration(page, () => page.getByRole("radio", { name: label }).check());
    await expect(html(page)).toHaveClass(dark ? /\bdark\b/ : /^(?!.*\bdark\b)/);
    await expect(page.getByRole("radio", { checked: true })).toHaveCount(1);
    await expect(page.getByRole("radio", { name: label })).toBeChecked();
    expect(await page.evaluate(() => localStorage.getItem("brokerdesk-theme"))).toBe(label.toLowerCase());
  }
});

test("[early-input][filters] a filter chosen, or a search typed, before the page hydrates is the one the list uses", async ({
  page,
}) => {
  await signIn(page, "compliance", "/audit");
  await expect(rows(page).first()).toBeVisible();

  // A select applies at once: the choice made before hydration is applied when React takes the page.
  await beforeHydration(page, () => page.getByRole("combobox", { name: "Outcome" }).selectOption("success"));
  await expect(page).toHaveURL(/outcome=success/);
  const headers = await page.locator("thead th").allTextContents();
  const outcomeColumn = headers.findIndex((h) => h.startsWith("Outcome")) + 1;
  expect(outcomeColumn).toBeGreaterThan(0);
  // Every row shown is a success, once the filtered page has come.
  await expect
    .poll(async () => [...new Set(await rows(page).locator(`td:nth-child(${outcomeColumn})`).allTextContents())])
    .toEqual(["success"]);

  // Typed text waits for Apply, as it always does; the draft typed before hydration is the one applied.
  await beforeHydration(page, () => page.getByLabel("Actor (part of the e-mail)").fill("compliance@demo"));
  await page.getByRole("button", { name: "Apply", exact: true }).click();
  await expect(page).toHaveURL(/actor=compliance%40demo|actor=compliance@demo/);
  await expect(page).toHaveURL(/outcome=success/);
});

test("[early-input][columns] a column hidden before the page hydrates is hidden", async ({ page }) => {
  await signIn(page, "compliance", "/audit");
  await expect(page.locator("thead th", { hasText: /^Target/ })).toHaveCount(1);
  // The Columns disclosure is a native <details>: it opens without React.
  await beforeHydration(page, async () => {
    await page.getByText("Columns", { exact: true }).click();
    await page.getByRole("checkbox", { name: "Target" }).uncheck();
  });
  await expect(page.locator("thead th", { hasText: /^Target/ })).toHaveCount(0);
  await expect(page.getByRole("checkbox", { name: "Target" })).not.toBeChecked();
  await page.getByRole("checkbox", { name: "Target" }).check();
  await expect(page.locator("thead th", { hasText: /^Target/ })).toHaveCount(1);
});

test("[early-input][sign-in] an e-mail and password typed (or autofilled) before the page hydrates are the ones sent", async ({
  page,
}) => {
  const release = await holdScripts(page);
  await page.goto("/login", { waitUntil: "commit" });
  await page.getByLabel("E-mail").fill("broker@demo.brokerdesk");
  await page.getByLabel("Password").fill("brokerdesk-demo");
  release();
  await waitForHydration(page);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByTestId("session-user")).toContainText("broker@demo.brokerdesk", { timeout: 20_000 });
});

test("[early-input][untouched] a URL value a select does not offer is not taken for an edit: the URL keeps it", async ({
  page,
}) => {
  // The withdrawal ledger's Coin offers only the withdrawal coins (closed); for "XYZ" the select shows its
  // first option, which nobody chose. The URL is not rewritten under it, and the server names the field.
  await signIn(page, "compliance", "/withdrawals?coin=XYZ");
  await expect(page.getByText("coin must be one of the withdrawal coins").first()).toBeVisible();
  await page.waitForLoadState("networkidle");
  await expect(page).toHaveURL(/coin=XYZ/);
  // An open select shows the URL's value itself, so the control says what the list uses.
  await page.goto("/deposits?status=bogus");
  await expect(page.getByRole("combobox", { name: "Status" })).toHaveValue("bogus");
  // This server's sync is off: the empty answer says the ledger is not synced yet, not that nothing matches.
  await expect(page.getByText(/^Not synced yet: nothing in the ledger so far\./)).toBeVisible();
  await page.waitForLoadState("networkidle");
  await expect(page).toHaveURL(/status=bogus/);
});

test("[early-input][picker] a sub-account typed before the page hydrates is searched for, and Enter takes it", async ({
  page,
}) => {
  await signIn(page, "compliance", "/assets");
  const uid = "5481892133"; // desk01, seeded
  const picker = page.getByRole("combobox", { name: "Sub-account" });
  await beforeHydration(page, () => picker.fill(uid));
  // The field kept the focus: the list opens with the match, as if typed now.
  await expect(
    page.getByRole("listbox", { name: "Sub-accounts" }).getByRole("option", { name: new RegExp(`\\(${uid}\\)$`) }),
  ).toHaveCount(1);
  await picker.press("Enter");
  await expect(page).toHaveURL(new RegExp(`uid=${uid}`));
});
