// What a list's filters take and refuse, as compliance uses them (a review of 2026-11-27 found each of these
// answered "no rows" or dropped a filter without a word).
import { expect, test } from "./support/test";
import { signIn, waitForHydration } from "./support/staff";
import { brokerRequest } from "./support/requests";
import { rows } from "./support/tables";

test("[filters][picker] Enter takes a sub-account only when the typed name matches one; it never drops the filter to All", async ({
  page,
}) => {
  await signIn(page, "compliance", "/withdrawals");
  await waitForHydration(page);
  const picker = page.getByRole("combobox", { name: "Sub-account", exact: true });
  const list = page.getByRole("listbox", { name: "Sub-accounts" });
  // With a name typed, the list holds its matches only ("All" was first, and Enter took it).
  await picker.fill("desk07");
  await expect(list.getByRole("option")).toHaveText([/^desk07@\S+ \(\d+\)$/]);
  await picker.press("Enter");
  await expect(picker).toHaveValue(/^desk07@\S+ \(\d+\)$/);
  const uid = /\((\d+)\)$/.exec(await picker.inputValue())![1]!;
  await expect(page).toHaveURL(new RegExp(`subUid=${uid}`));
  // A name that matches nothing: the list says so, Enter does nothing, and leaving the field shows the filter as it was.
  await picker.fill("no-such-desk");
  await expect(list).toContainText("No sub-account's name, label or UID holds that.");
  await expect(list.getByRole("option")).toHaveCount(0);
  await picker.press("Enter");
  await picker.press("Tab");
  await expect(page).toHaveURL(new RegExp(`subUid=${uid}`));
  await expect(picker).toHaveValue(new RegExp(`\\(${uid}\\)$`));
  // Emptied, the field offers All first, and Enter takes it.
  await picker.fill("");
  await expect(list.getByRole("option").first()).toHaveText("All");
  await picker.press("Enter");
  await expect(page).not.toHaveURL(/subUid=/);
});

test("[filters][range] a range the other way round is refused on its field on the withdrawals ledger and the audit log, not answered with no rows", async ({
  page,
}) => {
  const t = Date.UTC(2026, 10, 27, 18);
  const reversed = `from=${t}&to=${t - 3_600_000}`;
  await signIn(page, "compliance", `/withdrawals?${reversed}`);
  await expect(
    page
      .getByRole("alert")
      .filter({ hasText: /To must not be before from/ })
      .first(),
  ).toBeVisible();
  await expect(page.getByText(/No withdrawal requests match/)).toHaveCount(0);
  await page.goto(`/audit?${reversed}`);
  await expect(
    page
      .getByRole("alert")
      .filter({ hasText: /To must not be before from/ })
      .first(),
  ).toBeVisible();
  // Amounts too: the least above the most.
  await page.goto("/withdrawals?amountMin=5000&amountMax=100");
  await expect(
    page
      .getByRole("alert")
      .filter({ hasText: /Amount at most must not be below Amount at least/ })
      .first(),
  ).toBeVisible();
});

test("[filters][focus] a filter that leaves no rows keeps the focus, and what it shows, in its control", async ({
  page,
  playwright,
  baseURL,
}) => {
  // A row to start from: a request from desk03.
  await brokerRequest(playwright, baseURL, "e2e filters", { amount: "0.01", desk: "desk03" });

  await signIn(page, "compliance", "/withdrawals");
  await waitForHydration(page);
  await expect(rows(page).first()).toBeVisible();
  // desk21 is frozen: it has never requested anything. The list becomes its empty words, and the toolbar stays
  // (it was drawn again, and the focus and the picker's text went with it).
  const picker = page.getByRole("combobox", { name: "Sub-account", exact: true });
  await picker.fill("desk21");
  await expect(
    page.getByRole("listbox", { name: "Sub-accounts" }).getByRole("option", { name: /^desk21@/ }),
  ).toBeVisible();
  await picker.press("ArrowDown");
  await picker.press("Enter");
  await expect(page.getByText("No withdrawal requests match these filters.")).toBeVisible();
  await expect(picker).toBeFocused();
  await expect(picker).toHaveValue(/^desk21@\S+ \(\d+\)$/);
});

test("[filters][url-time] a time in a link that is no time is said above the list, naming it; an ISO date is read in UTC", async ({
  page,
}) => {
  await signIn(page, "compliance", "/deposits?from=yesterday&to=2026-11-01");
  await expect(
    page
      .getByRole("status")
      .filter({ hasText: "The link gives From as “yesterday”, which is not a time, so it is left out." }),
  ).toBeVisible();
  await expect(page.getByLabel("To (UTC)")).toHaveValue("2026-11-01T00:00");
  // The platform's views say it too, on a custom range (a preset has no ends in the link).
  await page.goto("/spot/fills/live?range=custom&from=1700000000000&to=noon");
  await expect(
    page
      .getByRole("status")
      .filter({ hasText: "The link gives To as “noon”, which is not a time, so it is left out." }),
  ).toBeVisible();
  await page.goto("/deposits?from=2026-11-01");
  // Once the list has answered, the page is drawn and hydrated: a notice would be there by now.
  await expect(
    page
      .getByText(
        /^(No deposits in the ledger match these filters\.|Not synced yet: nothing in the ledger so far\..*|[\d,]+ deposits? match(es)? these filters)$/,
      )
      .first(),
  ).toBeVisible();
  await expect(page.getByLabel("From (UTC)")).toHaveValue("2026-11-01T00:00");
  await expect(page.getByText(/is not a time/)).toHaveCount(0);
});
