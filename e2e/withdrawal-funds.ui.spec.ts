// Withdrawals, the money path, in Chromium against the embedded simulator: pending
// requests reserve the balance (form, refusal on the field, audit, two requests at once, the approval
// queue's balance and warning), addresses checked per chain, the requester cancels their own request and
// sees what became of it, and the ledger says what it cannot see.
import Big from "big.js";
import { request as playwrightRequest, type APIRequestContext } from "@playwright/test";
import { expect, test } from "./support/test";
import { chooseSubAccount } from "./support/picker";
import { platformDirect } from "./support/platform-direct";
import { DEMO, sameOrigin, signInApi, signIn } from "./support/staff";
import { TRAVEL_RULE, fillTravelRule } from "./support/travel-rule";

test.describe.configure({ mode: "serial" });

const TRON = "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE";
type Funds = { subUid: string; coin: string; available: string; pending: string; pendingCount: number; free: string };

async function apiAs(baseURL: string | undefined, role: keyof typeof DEMO): Promise<APIRequestContext> {
  const ctx = await playwrightRequest.newContext({ baseURL });
  await signInApi(ctx, role);
  return ctx;
}

async function uidOf(ctx: APIRequestContext, name: string): Promise<string> {
  const { items } = (await (await ctx.get("/api/sub-accounts")).json()) as {
    items: { subUid: string; subaccountName: string | null }[];
  };
  const sub = items.find((s) => s.subaccountName?.startsWith(`${name}@`));
  if (!sub) throw new Error(`${name} is not in the registry`);
  return sub.subUid;
}

async function funds(ctx: APIRequestContext, subUid: string, coin = "USDT"): Promise<Funds> {
  const res = await ctx.get(`/api/withdrawals/funds?subUid=${subUid}&coin=${coin}`);
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as Funds;
}

const post = (ctx: APIRequestContext, baseURL: string | undefined, data: Record<string, unknown>) =>
  ctx.post("/api/withdrawals", { headers: sameOrigin(baseURL), data });

test("[withdrawals][reserve] a pending request holds the balance: the form shows what is left, more is refused on Amount and audited, the queue shows balance and pending and warns", async ({
  page,
  browser,
  baseURL,
}) => {
  const broker = await apiAs(baseURL, "broker");
  const desk04 = await uidOf(broker, "desk04");
  const before = await funds(broker, desk04);
  expect(new Big(before.free).gt(10), `desk04 holds ${before.free} USDT`).toBe(true);
  // A request for all but 1 USDT of what is left.
  const big = new Big(before.free).minus(1).toFixed();
  const held = await post(broker, baseURL, {
    subUid: desk04,
    coin: "USDT",
    dest: "on_chain",
    travelRule: TRAVEL_RULE,
    address: TRON,
    amount: big,
    reason: "e2e reserve: big",
  });
  expect(held.status(), await held.text()).toBe(200);
  const heldId = ((await held.json()) as { id: string }).id;
  expect(await funds(broker, desk04)).toMatchObject({
    available: before.available,
    free: "1",
    pendingCount: before.pendingCount + 1,
  });

  await signIn(page, "broker", "/withdrawals");
  const form = page.getByRole("region", { name: "Request a withdrawal" });
  await chooseSubAccount(form, desk04);
  await form.getByLabel("Coin").selectOption("USDT");
  await expect(page.getByTestId("available-balance")).toContainText(
    /^Available: 1 USDT \(balance [\d,.]+ less [\d,.]+ held by \d+ pending requests?\)$/,
  );
  await form.getByLabel("Address").fill(TRON);
  await form.getByLabel("Amount (USDT)").fill("1.5");
  await expect(form.getByText("Above the 1 USDT left after pending requests: it will be refused.")).toBeVisible();
  await form.getByLabel("Reason").fill("e2e reserve: over");
  await fillTravelRule(form);
  await form.getByRole("button", { name: "Request withdrawal" }).click();
  const amount = form.getByLabel("Amount (USDT)");
  await expect(amount).toHaveAttribute("aria-invalid", "true");
  await expect(
    form.getByText(
      /^Amount is above what desk04@[\w.-]+ has left: \d{1,3}(,\d{3})*(\.\d+)? USDT available, [\d.,]+ held by \d+ pending requests?, so at most 1 USDT$/,
    ),
  ).toBeVisible();
  // Said once: the warning under the field gives way to the server's refusal, and the focus is on the field.
  await expect(form.getByText(/above|Above/)).toHaveCount(1);
  await expect(amount).toBeFocused();
  // Nothing was saved, and the refusal is in the audit log, naming the amount.
  expect((await funds(broker, desk04)).pendingCount).toBe(before.pendingCount + 1);
  const compliance = await apiAs(baseURL, "compliance");
  const audit = (await (
    await compliance.get(
      `/api/audit?action=withdrawals.request&outcome=failure&actor=${encodeURIComponent(DEMO.broker)}&limit=20`,
    )
  ).json()) as {
    rows: { outcome: string; detail: { code?: string; msg?: string } | null }[];
  };
  expect(
    audit.rows.some(
      (r) =>
        r.outcome === "failure" &&
        r.detail?.code === "invalid_input" &&
        /^amount is above what desk04@/.test(r.detail.msg ?? ""),
    ),
  ).toBe(true);

  // The queue: balance and pending beside the request; then the balance drops outside Brokerdesk (a
  // transfer made on the platform directly) and the queue warns that approving would exceed it.
  const lead = await (await browser.newContext()).newPage();
  await signIn(lead, "lead", "/withdrawals");
  const row = lead.getByRole("region", { name: "Approval queue" }).locator(`tr[data-withdrawal-id="${heldId}"]`);
  await expect(row.getByTestId("queue-funds")).toContainText(
    /^Balance [\d,.]+ USDT · pending [\d,.]+ in \d+ requests?$/,
  );
  await expect(row.getByRole("status")).toHaveCount(0);
  const desk05 = await uidOf(broker, "desk05");
  const drained = await platformDirect<{ orderId: string }>("withdrawals.submit", {
    subUid: desk04,
    coin: "USDT",
    dest: "internal_transfer",
    address: desk05,
    amount: new Big(before.available).minus(2).toFixed(),
  });
  expect(drained.code).toBe("00000");
  await lead.reload();
  await expect(row.getByRole("status")).toContainText(
    /^Approving would exceed the balance: [\d,.]+ asked, 2 available\. The platform would refuse it\.$/,
  );
  await lead.screenshot({ path: "test-results/withdrawals-queue-funds.png", fullPage: true });

  // The requester cancels it from "Your requests": it no longer holds anything, and the lead's queue loses it.
  await page.reload();
  const mine = page.getByRole("region", { name: "Your requests" }).locator(`li[data-withdrawal-id="${heldId}"]`);
  await expect(mine).toContainText("Waiting for a lead's decision.");
  await mine.getByRole("button", { name: /^Cancel request of / }).click();
  await expect(page.getByRole("region", { name: "Your requests" }).getByRole("status")).toContainText(
    /^Cancelled your request of [\d,.]+ USDT; it no longer holds the balance\.$/,
  );
  await expect(mine).toContainText("cancelled by the requester");
  await expect(mine.getByRole("button")).toHaveCount(0);
  expect(await funds(broker, desk04)).toMatchObject({ available: "2", pendingCount: before.pendingCount });
  await lead.reload();
  await expect(lead.locator(`tr[data-withdrawal-id="${heldId}"]`)).toHaveCount(0);
  // Only the requester may cancel; a decided request cannot be cancelled.
  const leadApi = await apiAs(baseURL, "lead");
  const again = await broker.post(`/api/withdrawals/${heldId}/cancel`, { headers: sameOrigin(baseURL) });
  expect(again.status()).toBe(409);
  const small = (await (
    await post(broker, baseURL, {
      subUid: desk04,
      coin: "USDT",
      dest: "on_chain",
      travelRule: TRAVEL_RULE,
      address: TRON,
      amount: "0.5",
      reason: "e2e reserve: small",
    })
  ).json()) as { id: string };
  expect((await leadApi.post(`/api/withdrawals/${small.id}/cancel`, { headers: sameOrigin(baseURL) })).status()).toBe(
    403,
  );
  // A page that still offers Cancel for a request decided meanwhile says why nothing changed, then shows what did.
  await page.reload();
  const stale = page.getByRole("region", { name: "Your requests" }).locator(`li[data-withdrawal-id="${small.id}"]`);
  await expect(stale.getByRole("button", { name: /^Cancel request of / })).toBeVisible();
  expect((await broker.post(`/api/withdrawals/${small.id}/cancel`, { headers: sameOrigin(baseURL) })).status()).toBe(
    200,
  );
  await stale.getByRole("button", { name: /^Cancel request of / }).click();
  await expect(page.getByRole("region", { name: "Your requests" }).getByRole("alert")).toHaveText(
    "Not cancelled: Request failed (HTTP 409). This withdrawal was already decided: it is cancelled",
  );
  await expect(stale).toContainText("You cancelled it at");
  await Promise.all([broker.dispose(), compliance.dispose(), leadApi.dispose()]);
});

test("[withdrawals][reserve] two requests sent at once that together exceed what is left: exactly one is accepted", async ({
  baseURL,
}) => {
  const a = await apiAs(baseURL, "broker");
  const b = await apiAs(baseURL, "lead");
  const desk04 = await uidOf(a, "desk04");
  const before = await funds(a, desk04, "USDT");
  expect(new Big(before.free).gt(1), `desk04 holds ${before.free} USDT`).toBe(true);
  // Each asks for a little more than half of what is left.
  const half = new Big(before.free).div(2).round(8, Big.roundDown).plus("0.00000001").toFixed();
  const body = {
    subUid: desk04,
    coin: "USDT",
    dest: "on_chain",
    travelRule: TRAVEL_RULE,
    address: TRON,
    amount: half,
    reason: "e2e reserve: race",
  };
  const [r1, r2] = await Promise.all([post(a, baseURL, body), post(b, baseURL, body)]);
  expect([r1.status(), r2.status()].sort(), `${await r1.text()} ${await r2.text()}`).toEqual([200, 422]);
  const refused = r1.status() === 422 ? r1 : r2;
  expect(
    Object.keys(((await refused.json()) as { error: { fieldErrors: Record<string, string[]> } }).error.fieldErrors),
  ).toEqual(["amount"]);
  expect((await funds(a, desk04, "USDT")).pendingCount).toBe(before.pendingCount + 1);
  // Clean up: the requester cancels the one that passed.
  const passed = (await (r1.status() === 200 ? r1 : r2).json()) as { id: string; requestedBy: string };
  const owner = passed.requestedBy === DEMO.broker ? a : b;
  expect((await owner.post(`/api/withdrawals/${passed.id}/cancel`, { headers: sameOrigin(baseURL) })).status()).toBe(
    200,
  );
  await Promise.all([a.dispose(), b.dispose()]);
});

test("[withdrawals][address] an address is checked for its chain by the server, which names the field the form marks", async ({
  page,
  baseURL,
}) => {
  const broker = await apiAs(baseURL, "broker");
  const desk04 = await uidOf(broker, "desk04");
  const bad = await post(broker, baseURL, {
    subUid: desk04,
    coin: "USDT",
    dest: "on_chain",
    travelRule: TRAVEL_RULE,
    address: "abc",
    amount: "0.1",
    reason: "e2e address",
  });
  expect(bad.status()).toBe(422);
  expect(((await bad.json()) as { error: { fieldErrors: Record<string, string[]> } }).error.fieldErrors).toEqual({
    address: ["address is not a valid Tron address (chain TRC20): check it character by character"],
  });
  // An Ethereum address on TRC20, and a Tron address on ERC20: refused; an unknown chain is the chain's fault.
  const wrongChain = await post(broker, baseURL, {
    subUid: desk04,
    coin: "USDT",
    dest: "on_chain",
    travelRule: TRAVEL_RULE,
    chain: "ERC20",
    address: TRON,
    amount: "0.1",
    reason: "e2e address",
  });
  expect(
    Object.keys(((await wrongChain.json()) as { error: { fieldErrors: Record<string, string[]> } }).error.fieldErrors),
  ).toEqual(["address"]);
  const unknownChain = await post(broker, baseURL, {
    subUid: desk04,
    coin: "USDT",
    dest: "on_chain",
    travelRule: TRAVEL_RULE,
    chain: "Moonchain",
    address: TRON,
    amount: "0.1",
    reason: "e2e address",
  });
  expect(
    Object.keys(
      ((await unknownChain.json()) as { error: { fieldErrors: Record<string, string[]> } }).error.fieldErrors,
    ),
  ).toEqual(["chain"]);

  await signIn(page, "broker", "/withdrawals");
  const form = page.getByRole("region", { name: "Request a withdrawal" });
  await chooseSubAccount(form, desk04);
  await form.getByLabel("Coin").selectOption("USDT");
  await form.getByLabel("Address").fill("abc");
  await form.getByLabel("Amount (USDT)").fill("0.1");
  await form.getByLabel("Reason").fill("e2e address");
  await fillTravelRule(form);
  await form.getByRole("button", { name: "Request withdrawal" }).click();
  await expect(form.getByLabel("Address")).toHaveAttribute("aria-invalid", "true");
  await expect(
    form.getByText("Address is not a valid Tron address (chain TRC20): check it character by character"),
  ).toBeVisible();
  // XRP needs its destination tag (the form says so before sending) as well as a valid XRP address.
  await form.getByLabel("Coin").selectOption("XRP");
  await form.getByLabel("Address").fill("rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTX");
  await form.getByRole("button", { name: "Request withdrawal" }).click();
  await expect(form.getByText("XRP withdrawals on chain need a destination tag")).toBeVisible();
  await form.getByLabel("Destination tag").fill("12345");
  await form.getByRole("button", { name: "Request withdrawal" }).click();
  await expect(
    form.getByText("Address is not a valid XRP Ledger address (chain XRP): check it character by character"),
  ).toBeVisible();
  // Another destination asks for another thing in that field: the refusal of the last one goes with it.
  await form.getByLabel("Destination", { exact: true }).selectOption("internal_transfer");
  await expect(form.getByLabel("Recipient UID")).not.toHaveAttribute("aria-invalid", "true");
  await expect(form.getByText(/not a valid XRP Ledger address/)).toHaveCount(0);
  await broker.dispose();
});

test("[withdrawals][states] the ledger says the platform accepted it, with its order ID, and what it cannot see", async ({
  page,
  baseURL,
}) => {
  await signIn(page, "compliance", "/withdrawals");
  await expect(page.getByTestId("ledger-scope")).toHaveText(
    /Withdrawals made outside Brokerdesk .* cannot be seen: the platform has no operation that lists them\./,
  );
  const ledger = page.getByRole("region", { name: "Withdrawal ledger", exact: true });
  await ledger.getByRole("combobox", { name: "State" }).selectOption({ label: "accepted by the platform" });
  await expect(page).toHaveURL(/state=confirmed/);
  const rows = ledger.locator("tbody tr[data-row-id]");
  // Earlier specs of the run sent some; if this spec runs alone, send one now.
  if ((await rows.count()) === 0) {
    const broker = await apiAs(baseURL, "broker");
    const lead = await apiAs(baseURL, "lead");
    const desk04 = await uidOf(broker, "desk04");
    const w = (await (
      await post(broker, baseURL, {
        subUid: desk04,
        coin: "USDT",
        dest: "on_chain",
        travelRule: TRAVEL_RULE,
        address: TRON,
        amount: "0.1",
        reason: "e2e states",
      })
    ).json()) as { id: string };
    expect(
      (
        await lead.post(`/api/withdrawals/${w.id}/approve`, {
          headers: sameOrigin(baseURL),
          data: { confirmAmount: "0.1", confirmAddress: TRON },
        })
      ).status(),
    ).toBe(200);
    await page.reload();
    await Promise.all([broker.dispose(), lead.dispose()]);
  }
  await expect(rows.first()).toContainText("accepted by the platform");
  await expect(rows.first()).toContainText(/order ID\s*\d+/);
  await expect(ledger).not.toContainText(/\bconfirmed\b/);
  // Nothing is cut by its cell without a mark (a 16-digit order ID showed 8 digits, the state's end was cut):
  // the badge and the order ID's copy button end inside their cells, and the ID is whole in its title.
  const within = async (inner: import("@playwright/test").Locator) => {
    const box = (await inner.boundingBox())!;
    const cell = (await inner.locator("xpath=ancestor::td[1]").boundingBox())!;
    return box.x + box.width <= cell.x + cell.width + 0.5;
  };
  const copy = rows.first().getByRole("button", { name: /^Copy platform order ID \d+$/ });
  await expect(copy).toBeVisible();
  expect(await within(copy), "the order ID's copy button is inside its cell").toBe(true);
  const id = (await copy.getAttribute("aria-label"))!.replace(/^Copy platform order ID /, "");
  await expect(rows.first().getByTitle(id, { exact: true })).toHaveText(id);
  expect(await within(rows.first().getByTitle("accepted by the platform")), "the state badge is inside its cell").toBe(
    true,
  );
});

test("[withdrawals][page] a withdrawal has a page with its timeline, opened from the ledger; the ledger shows the decision time and the rejection reason", async ({
  page,
  baseURL,
}) => {
  const broker = await apiAs(baseURL, "broker");
  const lead = await apiAs(baseURL, "lead");
  const desk04 = await uidOf(broker, "desk04");
  const w = (await (
    await post(broker, baseURL, {
      subUid: desk04,
      coin: "USDT",
      dest: "on_chain",
      travelRule: TRAVEL_RULE,
      address: TRON,
      amount: "0.2",
      reason: "e2e timeline",
    })
  ).json()) as { id: string };
  const rejected = await lead.post(`/api/withdrawals/${w.id}/reject`, {
    headers: sameOrigin(baseURL),
    data: { reason: "not the client's address" },
  });
  expect(rejected.status()).toBe(200);

  await signIn(page, "compliance", "/withdrawals");
  const row = page.getByRole("region", { name: "Withdrawal ledger", exact: true }).locator(`tr[data-row-id="${w.id}"]`);
  await expect(row).toContainText("not the client's address");
  await expect(row).toContainText(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
  await row.getByRole("link", { name: new RegExp(`^Open withdrawal ${w.id}`) }).click();
  await expect(page).toHaveURL(new RegExp(`/withdrawals/${w.id}$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Withdrawal");
  const timeline = page.getByRole("list", { name: "Timeline" });
  await expect(timeline.locator("li")).toHaveCount(2);
  await expect(timeline.locator('li[data-step="requested"]')).toContainText(`Requested · `);
  await expect(timeline.locator('li[data-step="requested"]')).toContainText(`by ${DEMO.broker}: “e2e timeline”`);
  await expect(timeline.locator('li[data-step="rejected"]')).toContainText(
    /Rejected · \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC/,
  );
  await expect(timeline.locator('li[data-step="rejected"]')).toContainText(
    `by ${DEMO.lead}: “not the client's address”; nothing was sent`,
  );
  await page.screenshot({ path: "test-results/withdrawal-page.png", fullPage: true });
  // A request that does not exist is said so, not a blank page.
  await page.goto("/withdrawals/00000000-0000-4000-8000-000000000000");
  await expect(page.getByRole("main").getByRole("alert")).toHaveText(
    "There is no withdrawal 00000000-0000-4000-8000-000000000000 in Brokerdesk: check the link. All withdrawals",
  );
  await Promise.all([broker.dispose(), lead.dispose()]);
});

test("[withdrawals][concerning-me] a lead sees how many requests wait for them in the navigation; the requester sees the decision and its reason", async ({
  page,
  browser,
  baseURL,
}) => {
  const broker = await apiAs(baseURL, "broker");
  const lead = await apiAs(baseURL, "lead");
  const desk04 = await uidOf(broker, "desk04");
  const waitingNow = async () => {
    const { items } = (await (await lead.get("/api/withdrawals?state=requested&limit=500")).json()) as {
      items: { requestedBy: string }[];
    };
    return items.filter((w) => w.requestedBy !== DEMO.lead).length;
  };
  const w = (await (
    await post(broker, baseURL, {
      subUid: desk04,
      coin: "USDT",
      dest: "on_chain",
      travelRule: TRAVEL_RULE,
      address: TRON,
      amount: "0.3",
      reason: "e2e concerning me",
    })
  ).json()) as { id: string };
  const expected = await waitingNow();
  expect(expected).toBeGreaterThan(0);

  await signIn(page, "lead", "/");
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(
    nav.getByRole("link", { name: new RegExp(`^Withdrawals ${expected} waiting for your approval$`) }),
  ).toBeVisible();
  // A broker may not decide: no count.
  const brokerPage = await (await browser.newContext()).newPage();
  await signIn(brokerPage, "broker", "/withdrawals");
  await expect(brokerPage.getByRole("navigation", { name: "Main" }).getByTestId("waiting-approvals")).toHaveCount(0);

  expect(
    (
      await lead.post(`/api/withdrawals/${w.id}/reject`, {
        headers: sameOrigin(baseURL),
        data: { reason: "wrong desk" },
      })
    ).status(),
  ).toBe(200);
  await page.reload();
  const after = expected - 1;
  if (after > 0)
    await expect(
      nav.getByRole("link", { name: new RegExp(`^Withdrawals ${after} waiting for your approval$`) }),
    ).toBeVisible();
  else await expect(nav.getByTestId("waiting-approvals")).toHaveCount(0);

  await brokerPage.reload();
  const mine = brokerPage.getByRole("region", { name: "Your requests" }).locator(`li[data-withdrawal-id="${w.id}"]`);
  await expect(mine).toContainText(
    /Rejected by lead@demo\.brokerdesk at \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC: “wrong desk”\. Nothing was sent\./,
  );
  await Promise.all([broker.dispose(), lead.dispose()]);
});

test("[withdrawals][ledger] compliance filters the ledger by amount range and address in the database, with the exact count and totals per coin", async ({
  page,
  baseURL,
}) => {
  const broker = await apiAs(baseURL, "broker");
  const desk04 = await uidOf(broker, "desk04");
  const desk05 = await uidOf(broker, "desk05");
  for (const amount of ["0.00000111", "0.00000112", "0.00000113"]) {
    const r = await post(broker, baseURL, {
      subUid: desk04,
      coin: "USDT",
      dest: "internal_transfer",
      address: desk05,
      amount,
      reason: "e2e ledger filters",
    });
    expect(r.status(), await r.text()).toBe(200);
  }
  await signIn(page, "compliance", "/withdrawals");
  const ledger = page.getByRole("region", { name: "Withdrawal ledger", exact: true });
  await page.getByLabel("Amount at least").fill("0.00000111");
  await page.getByLabel("Amount at least").press("Enter");
  await page.getByLabel("Amount at most").fill("0.00000112");
  await page.getByLabel("Amount at most").press("Enter");
  await page.getByLabel("Address or UID holds").fill(desk05);
  await page.getByLabel("Address or UID holds").press("Enter");
  await expect(page).toHaveURL(/amountMin=0\.00000111/);
  await expect(page).toHaveURL(/amountMax=0\.00000112/);
  await expect(page.getByTestId("ledger-summary")).toHaveText("2 withdrawal requests match · 0.00000223 USDT (2)");
  await expect(ledger.locator("tbody tr[data-row-id]")).toHaveCount(2);
  // The same filters over the API: the count is the database's, not the page's.
  const compliance = await apiAs(baseURL, "compliance");
  const summary = await (
    await compliance.get(`/api/withdrawals/summary?amountMin=0.00000111&amountMax=0.00000113&address=${desk05}`)
  ).json();
  expect(summary).toEqual({ count: 3, totals: [{ coin: "USDT", count: 3, amount: "0.00000336" }] });
  const bad = await compliance.get("/api/withdrawals/summary?amountMin=abc");
  expect(bad.status()).toBe(422);
  await Promise.all([broker.dispose(), compliance.dispose()]);
});

test("[withdrawals][address-book] a destination needs a second person; the queue flags a request to a destination not in the book", async ({
  page,
  browser,
  baseURL,
}) => {
  const broker = await apiAs(baseURL, "broker");
  const desk04 = await uidOf(broker, "desk04");
  const ETH_ADDR = "0x32Be343B94f860124dC4fEe278FDCBD38C102D88";
  await signIn(page, "broker", "/withdrawals");
  const book = page.getByRole("region", { name: "Address book" });
  await chooseSubAccount(book, desk04);
  await book.getByLabel("Chain").fill("ERC20");
  await book.getByLabel("Destination address").fill("0x32Be343B94f860124dC4fEe278FDCBD38C102D8");
  await book.getByLabel("Name in the book").fill("Client B cold wallet");
  await book.getByRole("button", { name: "Add to the book" }).click();
  await expect(book.getByText(/^Destination address is not a valid Ethereum address \(chain ERC20\)/)).toBeVisible();
  await book.getByLabel("Destination address").fill(ETH_ADDR);
  await book.getByRole("button", { name: "Add to the book" }).click();
  await expect(book.getByTestId("address-book-notice")).toHaveText(
    "Asked to add “Client B cold wallet”: another person must approve it.",
  );
  const entry = book
    .getByRole("list", { name: "Destinations in the address book" })
    .locator("li", { hasText: "Client B cold wallet" });
  await expect(entry).toContainText("waiting for approval");
  // The one who asked cannot approve it (no button for a broker; the server refuses a lead's own).
  await expect(entry.getByRole("button")).toHaveCount(0);

  // Two requests: one to the destination being added, one elsewhere. Both flagged while it waits.
  const toBook = (await (
    await post(broker, baseURL, {
      subUid: desk04,
      coin: "USDT",
      dest: "on_chain",
      travelRule: TRAVEL_RULE,
      chain: "ERC20",
      address: ETH_ADDR,
      amount: "0.1",
      reason: "e2e book: in",
    })
  ).json()) as { id: string };
  const elsewhere = (await (
    await post(broker, baseURL, {
      subUid: desk04,
      coin: "USDT",
      dest: "on_chain",
      travelRule: TRAVEL_RULE,
      address: TRON,
      amount: "0.1",
      reason: "e2e book: out",
    })
  ).json()) as { id: string };
  const lead = await (await browser.newContext()).newPage();
  await signIn(lead, "lead", "/withdrawals");
  const queue = lead.getByRole("region", { name: "Approval queue" });
  await expect(queue.locator(`tr[data-withdrawal-id="${toBook.id}"]`).getByTestId("not-in-book")).toHaveText(
    "Not in this sub-account's address book",
  );

  const leadBook = lead.getByRole("region", { name: "Address book" });
  // Before a sub-account is chosen, a lead sees what waits for approval in every book, each with its sub-account.
  const waiting = leadBook
    .getByRole("list", { name: "Destinations waiting for approval, every sub-account" })
    .locator("li", { hasText: "Client B cold wallet" });
  await expect(waiting).toContainText(new RegExp(`^desk04@\\S+ \\(${desk04}\\):`));
  // Its buttons name the sub-account: two books may each hold a "Client B cold wallet".
  await expect(
    waiting.getByRole("button", { name: new RegExp(`^Approve Client B cold wallet of desk04@\\S+ \\(${desk04}\\)$`) }),
  ).toBeVisible();
  await chooseSubAccount(leadBook, desk04);
  await leadBook.getByRole("button", { name: "Approve Client B cold wallet" }).click();
  await expect(leadBook.locator("li", { hasText: "Client B cold wallet" })).toContainText(`approved by ${DEMO.lead}`);
  // Said, and the keyboard goes on from what was said: the Approve button is gone.
  const approved = leadBook.getByTestId("address-book-notice").getByRole("status");
  await expect(approved).toHaveText(
    new RegExp(`^Approved “Client B cold wallet”: it is in the address book of desk04@\\S+ \\(${desk04}\\) now\\.$`),
  );
  await expect(approved).toBeFocused();
  await lead.reload();
  await expect(queue.locator(`tr[data-withdrawal-id="${toBook.id}"]`)).toBeVisible();
  await expect(queue.locator(`tr[data-withdrawal-id="${toBook.id}"]`).getByTestId("not-in-book")).toHaveCount(0);
  await expect(queue.locator(`tr[data-withdrawal-id="${elsewhere.id}"]`).getByTestId("not-in-book")).toBeVisible();
  await lead.screenshot({ path: "test-results/withdrawals-approval-queue.png", fullPage: true });
  for (const id of [toBook.id, elsewhere.id])
    expect((await broker.post(`/api/withdrawals/${id}/cancel`, { headers: sameOrigin(baseURL) })).status()).toBe(200);
  await broker.dispose();
});
