import type { Page } from "@playwright/test";
import { expect, test } from "./support/test";
import { checkBothSchemes as checkAxeBothSchemes } from "./support/axe";
import { sameOrigin, signInApi, signIn, simControlUrl } from "./support/staff";
import { platformDirect } from "./support/platform-direct";
import { rows } from "./support/tables";

/** A sub-account's deposits on this server, whose sync is off: the ledger says it has not synced them. */
const NOT_SYNCED =
  "Not synced yet: the ledger does not hold the whole history of this sub-account's deposits, and has nothing of it so far.";

type Entry = { subUid: string; subaccountName: string | null; source: string };

/** axe in light and dark, with a screenshot of each into /tmp. */
function checkBothSchemes(page: Page, name: string) {
  return checkAxeBothSchemes(page, (scheme) => `/tmp/as-${name}-${scheme}.png`);
}

/** How many E6 calls the simulator has seen (the platform side of "nothing was sent"). */
async function createCalls(page: Page): Promise<number> {
  const stats = (await (await page.request.get(simControlUrl("stats"))).json()) as {
    operations: Record<string, { requests: number } | undefined>;
  };
  return stats.operations["subaccounts.create"]?.requests ?? 0;
}

/** Every row of the virtualised registry, read from the API the page reads. */
async function registry(page: Page): Promise<Entry[]> {
  const res = await page.request.get("/api/sub-accounts");
  expect(res.status()).toBe(200);
  return ((await res.json()) as { items: Entry[] }).items;
}

test("[subaccounts][list] the registry lists the simulator's sub-accounts with links to each", async ({ page }) => {
  await signIn(page, "compliance", "/sub-accounts");
  await expect(page).toHaveTitle(/Sub-accounts/);
  await expect(rows(page).first()).toBeVisible();
  const items = await registry(page);
  const seeded = items.filter((i) => i.source === "simulator-seed");
  expect(seeded.length).toBeGreaterThanOrEqual(20);
  await expect(page.getByText(`${items.length} sub-accounts in the registry`)).toBeVisible();
  const first = seeded[0]!;
  const row = page.locator(`tr[data-row-id="${first.subUid}"]`);
  await expect(row).toContainText(first.subUid);
  await expect(row.getByRole("link", { name: first.subaccountName! })).toHaveAttribute(
    "href",
    `/sub-accounts/${first.subUid}`,
  );
  // Compliance reads but may not write: no forms.
  await expect(page.getByRole("heading", { name: "Create sub-account" })).toHaveCount(0);
  await expect(page.getByRole("heading", { name: "Add by UID" })).toHaveCount(0);
  await checkBothSchemes(page, "subaccounts-compliance");
});

test("[subaccounts][create] a broker creates one; it is listed and its page shows no assets", async ({ page }) => {
  await signIn(page, "broker", "/sub-accounts");
  await expect(rows(page).first()).toBeVisible();
  const name = `e2e${Date.now()}@example.com`;
  const form = page.getByRole("region", { name: "Create sub-account" });
  await form.getByLabel("Name (e-mail form)").fill(name);
  await form.getByLabel("Label (optional)").fill(`e2e${Date.now() % 1_000_000}`);
  const reply = page.waitForResponse(
    (r) => new URL(r.url()).pathname === "/api/sub-accounts" && r.request().method() === "POST",
  );
  await form.getByRole("button", { name: "Create sub-account" }).click();
  const res = await reply;
  expect(res.status()).toBe(200);
  const { entry } = (await res.json()) as { entry: Entry };
  expect(entry.subaccountName).toBe(name);
  await expect(form.getByText(`Created ${name} (UID ${entry.subUid}).`)).toBeVisible();
  // The list refreshes: the new row is there (searched on the server by the start of its name).
  await page.getByLabel("Name, label or UID starts with").fill(name);
  await page.getByLabel("Name, label or UID starts with").press("Enter");
  await expect(page).toHaveURL(/[?&]q=e2e/);
  const row = page.locator(`tr[data-row-id="${entry.subUid}"]`);
  await expect(row).toBeVisible();
  await expect(row).toContainText("Created here");
  await expect(row).toContainText("broker@demo.brokerdesk");
  await checkBothSchemes(page, "subaccounts-broker");

  await row.getByRole("link", { name }).click();
  await expect(page).toHaveURL(new RegExp(`/sub-accounts/${entry.subUid}$`));
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  const assets = page.getByRole("region", { name: "Spot assets" }).first();
  await expect(assets.getByText("No assets: this sub-account has never held a coin.")).toBeVisible();
  // From the ledger (this server's sync is off: e2e/ledger-trades.ui.spec.ts sees it filled): not synced yet,
  // never "no deposits", and how far back its history is complete.
  const deposits = page.getByRole("region", { name: "Deposits", exact: true });
  await expect(deposits.getByText(NOT_SYNCED)).toBeVisible();
  await expect(deposits.getByTestId("deposit-history-coverage")).toHaveText(
    "Deposit history not synced yet; the rest is being synced ahead of the queue.",
  );
});

test("[subaccounts][create] an invalid name is refused on its field and nothing is sent", async ({ page }) => {
  await signIn(page, "broker", "/sub-accounts");
  const before = await createCalls(page);
  const posts: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST" && new URL(r.url()).pathname.startsWith("/api/sub-accounts")) posts.push(r.url());
  });
  const form = page.getByRole("region", { name: "Create sub-account" });
  await form.getByLabel("Name (e-mail form)").fill("not-an-email");
  await form.getByLabel("Label (optional)").fill("x".repeat(25));
  await form.getByRole("button", { name: "Create sub-account" }).click();
  const nameField = form.getByLabel("Name (e-mail form)");
  await expect(nameField).toHaveAttribute("aria-invalid", "true");
  await expect(form.getByText("Name must be in e-mail form, e.g. desk01@example.com", { exact: true })).toBeVisible();
  await expect(form.getByText("Label must be shorter than 20 characters", { exact: true })).toBeVisible();
  await page.waitForTimeout(300);
  expect(posts).toEqual([]);
  expect(await createCalls(page)).toBe(before);
  await page.screenshot({ path: "/tmp/as-subaccounts-invalid.png", fullPage: true });
});

test("[subaccounts][create] a name the registry already holds is refused on the field before E6 is sent (was the platform's 40020)", async ({
  page,
}) => {
  await signIn(page, "broker", "/sub-accounts");
  const existing = (await registry(page)).find((e) => e.subaccountName)!;
  const before = await createCalls(page);
  const form = page.getByRole("region", { name: "Create sub-account" });
  // Another case: names are unique on the platform whatever their case.
  await form.getByLabel("Name (e-mail form)").fill(existing.subaccountName!.toUpperCase());
  await form.getByRole("button", { name: "Create sub-account" }).click();
  await expect(
    form.getByText(new RegExp(`already exists \\(UID ${existing.subUid}\\): names are unique on the platform`)),
  ).toBeVisible();
  await expect(form.getByLabel("Name (e-mail form)")).toHaveAttribute("aria-invalid", "true");
  expect(await createCalls(page)).toBe(before);
  await page.screenshot({ path: "/tmp/as-subaccounts-duplicate.png", fullPage: true });
});

test("[subaccounts][add] add by UID: unknown to the platform → 422 on subUid; already known → 409", async ({
  page,
  request,
  baseURL,
}) => {
  await signIn(page, "lead", "/sub-accounts");
  const form = page.getByRole("region", { name: "Add by UID" });
  await form.getByLabel("Sub-account UID").fill("123");
  await form.getByRole("button", { name: "Add sub-account" }).click();
  await expect(form.getByText(/^The platform does not know this sub-account: 40034 /)).toBeVisible();
  await expect(form.getByLabel("Sub-account UID")).toHaveAttribute("aria-invalid", "true");

  const known = (await registry(page))[0]!;
  await signInApi(request, "broker");
  const dup = await request.post("/api/sub-accounts/add", {
    headers: sameOrigin(baseURL),
    data: { subUid: known.subUid },
  });
  expect(dup.status()).toBe(409);
  const bad = await request.post("/api/sub-accounts/add", { headers: sameOrigin(baseURL), data: { subUid: "12ab" } });
  expect(bad.status()).toBe(422);
  expect(((await bad.json()) as { error: { fieldErrors: Record<string, string[]> } }).error.fieldErrors.subUid).toEqual(
    ["subUid must be a numeric UID"],
  );

  // One made on the platform outside Brokerdesk (a signed call of the broker's own) is added, then listed as added.
  const made = await platformDirect<{ subUid: string }>("subaccounts.create", {
    subaccountName: `e2eadd${Date.now()}@example.com`,
  });
  expect(made.code, made.msg).toBe("00000");
  const sub = made.data;
  await form.getByLabel("Sub-account UID").fill(sub.subUid);
  await form.getByLabel("Label (optional)").fill("added in e2e");
  await form.getByRole("button", { name: "Add sub-account" }).click();
  await expect(form.getByText(`Added UID ${sub.subUid}.`)).toBeVisible();
  const row = page.locator(`tr[data-row-id="${sub.subUid}"]`);
  await page.getByRole("combobox", { name: "Source", exact: true }).selectOption("added");
  await expect(page).toHaveURL(/source=added/);
  await expect(row).toContainText("Added by UID");
  await expect(row).toContainText("lead@demo.brokerdesk");

  await signInApi(request, "compliance");
  const refused = await request.post("/api/sub-accounts", {
    headers: sameOrigin(baseURL),
    data: { subaccountName: "nope@example.com" },
  });
  expect(refused.status()).toBe(403);
});

test("[subaccounts][detail] a seeded sub-account's page shows assets, deposits, withdrawals and rebate info", async ({
  page,
}) => {
  await signIn(page, "compliance", "/sub-accounts");
  const seeded = (await registry(page)).find((e) => e.source === "simulator-seed")!;
  await page.goto(`/sub-accounts/${seeded.subUid}`);
  await expect(page.getByRole("heading", { level: 1, name: seeded.subaccountName! })).toBeVisible();
  const assets = page.getByRole("region", { name: "Spot assets" }).first();
  await expect(assets.locator("tbody tr[data-row-id]").first()).toBeVisible();
  // Deposits, balance and rebate history come from the ledger, empty on this server (its sync is off);
  // e2e/ledger-trades.ui.spec.ts sees them filled on an instance with the sync on.
  const deposits = page.getByRole("region", { name: "Deposits", exact: true });
  await expect(deposits.getByText(NOT_SYNCED)).toBeVisible();
  await expect(deposits.getByRole("link", { name: /All deposits/ })).toHaveAttribute(
    "href",
    `/deposits?subUid=${seeded.subUid}`,
  );
  await expect(
    page
      .getByRole("region", { name: "Balance history" })
      .getByText(/Not synced yet: no snapshot of this sub-account so far/),
  ).toBeVisible();
  const rebate = page.getByTestId("rebate-info");
  // A ratio reads as on /rebates: a percentage, with the platform's figure beside it.
  await expect(rebate).toContainText(/Spot rebate ratio\s*\d+(\.\d+)?% \(ratio [\d.]+\)/);
  const withdrawals = page.getByRole("region", { name: "Withdrawals" }).first();
  await expect(withdrawals.getByText(/No withdrawal ledger yet|No withdrawals of this sub-account/)).toBeVisible();
  await checkBothSchemes(page, "subaccount-detail");
});

test("[subaccounts][detail] an unknown UID says so, with a way back", async ({ page }) => {
  await signIn(page, "broker", "/sub-accounts/999999999");
  await expect(page.getByRole("heading", { level: 1, name: "Sub-account not found" })).toBeVisible();
  await expect(page.getByText("Brokerdesk's registry has no sub-account with UID 999999999.")).toBeVisible();
  await page.getByRole("link", { name: "sub-accounts page" }).click();
  await expect(page).toHaveURL(/\/sub-accounts$/);
});
