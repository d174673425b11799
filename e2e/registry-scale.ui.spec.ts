// The registry and its pickers at a broker's scale: an instance whose simulator has 2,000
// sub-accounts. /sub-accounts pages and searches on the server (by name, exact count, filters in the URL);
// the pickers of live deposits, the withdrawal request form and the address book ask the server as one
// types, list by name with UIDs beside, and none of these pages loads the whole registry.
import type { APIRequestContext, Browser, Page } from "@playwright/test";
import { sameOrigin, signInApi, signIn, type DemoRole } from "./support/staff";
import { startInstance, type Instance } from "./support/second-instance";
import { expect, test } from "./support/test";
import { rows } from "./support/tables";

let instance: Instance;
type Entry = { subUid: string; subaccountName: string | null; label: string | null; status: string };
type Browse = { rows: Entry[]; nextCursor: string | null; total: number };

test.beforeAll(async () => {
  test.setTimeout(120_000);
  instance = await startInstance("registry", { SIM_SUBACCOUNTS: "2000" });
});
test.afterAll(async () => {
  await instance?.stop();
});

/** A page on the instance, signed in, that records every load of the whole registry (GET /api/sub-accounts). */
async function openAs(
  browser: Browser,
  role: DemoRole,
  path: string,
): Promise<{ page: Page; wholeRegistry: string[]; nameLookups: URL[] }> {
  const page = await (await browser.newContext({ baseURL: instance.baseURL })).newPage();
  const wholeRegistry: string[] = [];
  const nameLookups: URL[] = [];
  page.on("request", (r) => {
    const u = new URL(r.url());
    if (u.pathname === "/api/sub-accounts" && r.method() === "GET") wholeRegistry.push(r.url());
    if (u.pathname === "/api/sub-accounts/names") nameLookups.push(u);
  });
  await signIn(page, role, path);
  return { page, wholeRegistry, nameLookups };
}
const browse = async (ctx: APIRequestContext, query: string) =>
  (await (await ctx.get(`/api/sub-accounts/registry?${query}`)).json()) as Browse;
const shownName = (e: Entry) => e.subaccountName ?? e.label ?? `UID ${e.subUid}`;

test("[subaccounts][browse] /sub-accounts at 2,000: pages by name on the server with the exact count; search, status and pages live in the URL", async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const { page, wholeRegistry } = await openAs(browser, "compliance", "/sub-accounts");
  await expect(page).toHaveTitle(/Sub-accounts/);
  const first = await browse(page.request, "order=name&limit=50");
  expect(first.total).toBeGreaterThanOrEqual(2000);
  await expect(page.getByTestId("ledger-total")).toHaveText(
    `${first.total.toLocaleString("en-US")} sub-accounts in the registry`,
  );
  await expect(page.getByText("Page 1 · 50 rows loaded")).toBeVisible();
  // Names beside UIDs, in the server's order (by name); the table draws the rows in view (it windows them).
  const ids = await rows(page).evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-row-id")));
  expect(ids.length).toBeGreaterThan(10);
  expect(ids).toEqual(first.rows.slice(0, ids.length).map((r) => r.subUid));
  await expect(
    rows(page)
      .first()
      .getByRole("link", { name: shownName(first.rows[0]!) }),
  ).toHaveAttribute("href", `/sub-accounts/${first.rows[0]!.subUid}`);
  await expect(rows(page).first()).toContainText(first.rows[0]!.subUid);

  await page.getByRole("button", { name: "Next →" }).click();
  await expect(page).toHaveURL(/[?&]p=/);
  const second = await browse(page.request, `order=name&limit=50&cursor=${encodeURIComponent(first.nextCursor!)}`);
  await expect(rows(page).first()).toHaveAttribute("data-row-id", second.rows[0]!.subUid);
  expect(second.rows.map((r) => r.subUid)).not.toContain(first.rows[0]!.subUid);

  // A search by the start of a name, label or UID, on the whole registry; the count is of what matches.
  const search = page.getByLabel("Name, label or UID starts with");
  await search.fill("DESK0");
  await search.press("Enter");
  await expect(page).toHaveURL(/[?&]q=DESK0/);
  await expect(page).not.toHaveURL(/[?&]p=/);
  const desks = await browse(page.request, "order=name&q=desk0&limit=50");
  expect(desks.total).toBe(9);
  await expect(page.getByTestId("ledger-total")).toHaveText("9 sub-accounts match these filters");
  await expect(rows(page)).toHaveCount(9);
  for (const name of await rows(page).locator("td:first-child").allTextContents()) expect(name).toMatch(/^desk0/);

  // A status filter narrows the search on the server; the URL keeps both, and a reload shows the same.
  await page.getByRole("combobox", { name: "Status", exact: true }).selectOption("normal");
  await expect(page).toHaveURL(/status=normal/);
  const normal = await browse(page.request, "order=name&q=desk0&status=normal");
  await expect(page.getByTestId("ledger-total")).toHaveText(`${normal.total} sub-accounts match these filters`);
  await page.reload();
  await expect(rows(page)).toHaveCount(normal.total);
  await expect(page.getByLabel("Name, label or UID starts with")).toHaveValue("DESK0");
  expect(wholeRegistry).toEqual([]);
  await page.screenshot({ path: "test-results/registry-at-2000.png", fullPage: true });
  await page.context().close();
});

test("[subaccounts][browse] bad input is refused on its field, naming it", async ({ playwright }) => {
  const ctx = await playwright.request.newContext({ baseURL: instance.baseURL });
  await signInApi(ctx, "compliance");
  for (const [query, field] of [
    ["status=gone", "status"],
    ["order=size", "order"],
    ["source=x", "source"],
    ["cursor=zzz&order=name", "cursor"],
    [`q=${"a".repeat(101)}`, "q"],
  ] as const) {
    const res = await ctx.get(`/api/sub-accounts/registry?${query}`);
    expect(res.status(), query).toBe(422);
    const body = (await res.json()) as { error: { fieldErrors: Record<string, string[]> } };
    expect(Object.keys(body.error.fieldErrors), query).toEqual([field]);
    expect(body.error.fieldErrors[field]!.join(" "), query).toContain(field);
  }
  await ctx.dispose();
});

test("[pickers] live deposits, the request form and the address book search the server by name at 2,000 sub-accounts", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const { page, wholeRegistry } = await openAs(browser, "broker", "/deposits/live");
  const searches: URL[] = [];
  page.on("request", (r) => {
    const u = new URL(r.url());
    if (u.pathname === "/api/sub-accounts/search") searches.push(u);
  });
  // /deposits/live: the picker lists matches by name, UIDs beside, and says when more match.
  const picker = page.getByRole("combobox", { name: "Sub-account", exact: true });
  await picker.fill("client0001");
  const listbox = page.getByRole("listbox", { name: "Sub-accounts" });
  await expect(listbox.getByRole("option")).toHaveCount(20);
  const names = (await listbox.getByRole("option").allTextContents()).map((t) => t.replace(/ \(\d+\)$/, ""));
  expect(names).toEqual([...names].sort());
  expect(names[0]).toMatch(/^client0001\d\d@/);
  await expect(listbox).toContainText("More match: keep typing to narrow.");
  expect(searches.some((u) => u.searchParams.get("q") === "client0001" && u.searchParams.get("order") === "name")).toBe(
    true,
  );
  await picker.press("ArrowDown");
  await picker.press("Enter");
  // The name comes with the chosen UID's lookup: read the value once it is shown.
  await expect(picker).toHaveValue(/^client0001\d\d@\S+ \(\d+\)$/);
  const chosen = /\((\d+)\)$/.exec(await picker.inputValue())![1]!;
  await expect(page).toHaveURL(new RegExp(`uid=${chosen}`));
  // Shut again, the list opens on its first option, not on the second one chosen last.
  await picker.press("ArrowDown");
  await expect(listbox.getByRole("option").first()).toHaveAttribute("aria-selected", "true");
  await expect(listbox.getByRole("option", { selected: true })).toHaveCount(1);
  await picker.press("Escape");
  await expect(listbox).toHaveCount(0);
  expect(wholeRegistry).toEqual([]);

  // The request form offers normal sub-accounts only (desk21 is frozen), chosen by name.
  await page.goto("/withdrawals");
  const form = page.getByRole("region", { name: "Request a withdrawal" });
  const sub = form.getByRole("combobox", { name: "Sub-account", exact: true });
  await sub.fill("desk2");
  // desk21 is frozen and desk22 deleted: neither is offered.
  await expect(form.getByRole("listbox", { name: "Sub-accounts" }).getByRole("option")).toHaveText([
    /^desk20@\S+ \(\d+\)$/,
    /^desk23@\S+ \(\d+\)$/,
  ]);
  await sub.fill("desk04");
  // Enter picks from the matches of what is typed now; while the search answers, the list says "Searching…".
  await expect(form.getByRole("listbox", { name: "Sub-accounts" }).getByRole("option")).toHaveText([
    /^desk04@\S+ \(\d+\)$/,
  ]);
  await sub.press("Enter");
  await expect(sub).toHaveValue(/^desk04@\S+ \(\d+\)$/);
  await expect(page.getByTestId("available-balance")).toContainText(/Available: [\d,.]+ USDT/);
  await page.context().close();
});

test("[pickers] a name that arrives while one types does not rewrite the field under the cursor", async ({
  browser,
}) => {
  // CI at 827f011: the default sub-account's name arrived between the picker's select-all and the typing, so
  // "client0001" landed after the name. Held here until the UID is selected, then let through.
  const page = await (await browser.newContext({ baseURL: instance.baseURL })).newPage();
  // Once on CI (ci21, 86afe4d+) the field ended open as "54818921331": the UID and the last key typed, as if the
  // field had been set back to the UID (a blur and a focus?) after "client000". Not reproduced here (alone,
  // throttled 8x, beside busy loops); what the field went through is kept, and said when the check fails.
  await page.addInitScript(() => {
    const log: string[] = [];
    (window as unknown as { __pickerLog: string[] }).__pickerLog = log;
    const t0 = performance.now();
    for (const type of ["focusin", "focusout", "input", "keydown"]) {
      document.addEventListener(
        type,
        (e) => {
          const el = e.target as HTMLElement;
          if (el.getAttribute?.("role") !== "combobox") return;
          const key = e instanceof KeyboardEvent ? ` ${e.key}` : "";
          log.push(
            `${Math.round(performance.now() - t0)} ms ${type}${key} value=${JSON.stringify((el as HTMLInputElement).value)} connected=${el.isConnected} active=${document.activeElement === el}`,
          );
        },
        true,
      );
    }
  });
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/api\/sub-accounts\/\d+$/, async (route) => {
    await held;
    await route.continue();
  });
  await signIn(page, "broker", "/deposits/live");
  const picker = page.getByRole("combobox", { name: "Sub-account", exact: true });
  await expect(picker).toHaveValue(/^\d+$/);
  await picker.focus();
  await picker.press("ControlOrMeta+a");
  release();
  // The name has arrived and is drawn (the table's label says it) while the UID is still selected.
  await expect(page.getByRole("region", { name: /^Deposits of sub-account \S+@\S+ \(\d+\)$/ })).toBeVisible();
  await picker.pressSequentially("client0001");
  try {
    await expect(picker).toHaveValue("client0001");
  } catch (e) {
    const log = await page.evaluate(() => (window as unknown as { __pickerLog: string[] }).__pickerLog.join("\n"));
    throw new Error(`${e instanceof Error ? e.message : String(e)}\nWhat the field went through:\n${log}`);
  }
  await expect(page.getByRole("listbox", { name: "Sub-accounts" }).getByRole("option")).toHaveCount(20);
  await page.context().close();
});

test("[pickers][address book] chosen by name; after a submit the focus is on the first refused field, then on the answer", async ({
  browser,
}) => {
  const { page } = await openAs(browser, "broker", "/withdrawals");
  const book = page.getByRole("region", { name: "Address book" });
  const add = book.getByRole("button", { name: "Add to the book" });
  await add.click();
  // Nothing chosen: the picker is the first refused field and takes the focus.
  const sub = book.getByRole("combobox", { name: "Sub-account", exact: true });
  await expect(sub).toHaveAttribute("aria-invalid", "true");
  await expect(sub).toBeFocused();
  await sub.fill("desk05");
  await expect(book.getByRole("option", { name: /^desk05@\S+ \(\d+\)$/ })).toHaveCount(1);
  await sub.press("Enter");
  await book.getByLabel("Chain").fill("ERC20");
  await book.getByLabel("Destination address").fill("0x32Be343B94f860124dC4fEe278FDCBD38C102D8");
  await book.getByLabel("Name in the book").fill(`Focus ${Date.now()}`);
  await add.click();
  // The server refuses the address (one character short): its field takes the focus.
  await expect(book.getByLabel("Destination address")).toBeFocused();
  await expect(book.getByText(/^Destination address is not a valid Ethereum address/)).toBeVisible();
  await book.getByLabel("Destination address").fill("0x32Be343B94f860124dC4fEe278FDCBD38C102D88");
  await add.click();
  const answer = book
    .getByRole("status")
    .filter({ hasText: /^Asked to add “Focus \d+”: another person must approve it\.$/ });
  await expect(answer).toBeVisible();
  await expect(answer).toBeFocused();
  await page.context().close();
});

test("[names] the audit log and the approval queue name the UIDs they show by asking for those UIDs only, never the whole registry", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  // A sub-account deep in the registry (by name), so no first page of anything would hold it, and desk04 (funded).
  const broker = await (await browser.newContext({ baseURL: instance.baseURL })).newPage();
  await signIn(broker, "broker", "/withdrawals");
  const deep = (await browse(broker.request, "q=client00177&order=name&limit=1")).rows[0]!;
  const desk04 = (await browse(broker.request, "q=desk04&order=name&limit=1")).rows[0]!;
  expect(deep.subaccountName).toMatch(/^client00177/);
  // A refused "add by UID" (already in the registry) is audited against the sub-account.
  const added = await broker.request.post("/api/sub-accounts/add", {
    headers: sameOrigin(instance.baseURL),
    data: { subUid: deep.subUid },
  });
  expect(added.status(), await added.text()).toBe(409);
  const w = await broker.request.post("/api/withdrawals", {
    headers: sameOrigin(instance.baseURL),
    data: {
      subUid: desk04.subUid,
      coin: "USDT",
      dest: "internal_transfer",
      address: deep.subUid,
      amount: "0.01",
      reason: "names e2e",
    },
  });
  expect(w.status(), await w.text()).toBe(200);
  const { id } = (await w.json()) as { id: string };
  await broker.context().close();

  const {
    page: compliance,
    wholeRegistry,
    nameLookups,
  } = await openAs(browser, "compliance", "/audit?action=subaccounts.add");
  const row = compliance
    .locator("tbody tr[data-row-id]")
    .filter({ hasText: `subaccount:${deep.subUid}` })
    .first();
  await expect(row).toContainText(shownName(deep));
  await compliance.context().close();

  const lead = await openAs(browser, "lead", "/withdrawals");
  const queued = lead.page.getByRole("region", { name: "Approval queue" }).locator(`tr[data-withdrawal-id="${id}"]`);
  await expect(queued).toContainText(shownName(desk04));
  await expect(queued).toContainText(shownName(deep));
  await lead.page.context().close();

  expect([...wholeRegistry, ...lead.wholeRegistry]).toEqual([]);
  // Each lookup names only UIDs on the page: at most the 200 a lookup answers, far fewer than the registry holds.
  const looked = [...nameLookups, ...lead.nameLookups];
  expect(looked.length).toBeGreaterThan(0);
  for (const u of looked) expect((u.searchParams.get("uids") ?? "").split(",").length).toBeLessThanOrEqual(200);
  expect(looked.some((u) => u.searchParams.get("uids")!.split(",").includes(deep.subUid))).toBe(true);
});
