// A case of many alerts reads them a keyset page at a time, its count exact. On an instance of its own (an
// active rule there raises an alert for every new withdrawal destination): a desk asks to send to 27 addresses
// it never used, each request screened as it is made; compliance opens the desk's case.
import { createHash, randomBytes } from "node:crypto";
import type { APIRequestContext } from "@playwright/test";
import { startInstance, type Instance } from "./support/second-instance";
import { sameOrigin, signIn, signInApi, type DemoRole } from "./support/staff";
import { rows } from "./support/tables";
import { expect, test } from "./support/test";
import { TRAVEL_RULE } from "./support/travel-rule";

const REQUESTS = 27;
let instance: Instance;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  instance = await startInstance("case-pages", { APPROVER_COOL_OFF_HOURS: "0.001", DESTINATION_LOCK_HOURS: "0" });
});
test.afterAll(async () => {
  await instance?.stop();
});

/** A TRON address nobody used: 0x41 and 20 random bytes, base58check. */
function tronAddress(): string {
  const payload = Buffer.concat([Buffer.from([0x41]), randomBytes(20)]);
  const sha = (b: Buffer) => createHash("sha256").update(b).digest();
  const bytes = Buffer.concat([payload, sha(sha(payload)).subarray(0, 4)]);
  const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
  let n = BigInt(`0x${bytes.toString("hex")}`);
  let out = "";
  while (n > 0n) {
    out = ALPHABET[Number(n % 58n)]! + out;
    n /= 58n;
  }
  return out;
}

async function api(playwright: { request: { newContext(o: object): Promise<APIRequestContext> } }, role: DemoRole) {
  const ctx = await playwright.request.newContext({ baseURL: instance.baseURL });
  await signInApi(ctx, role);
  return ctx;
}

test("[monitoring][case] a case of many alerts pages them by keyset, its count exact", async ({
  browser,
  playwright,
}) => {
  test.setTimeout(120_000);
  const headers = sameOrigin(instance.baseURL);
  const [compliance, admin, broker] = [
    await api(playwright, "compliance"),
    await api(playwright, "admin"),
    await api(playwright, "broker"),
  ];
  const drafted = await compliance.post("/api/monitoring/rules", {
    headers,
    data: {
      name: "Every new destination",
      kind: "new_destination",
      severity: "low",
      holds: false,
      params: { lookbackDays: 30 },
    },
  });
  expect(drafted.status(), await drafted.text()).toBe(200);
  const { id } = (await drafted.json()) as { id: string };
  const activated = await admin.post(`/api/monitoring/rule-versions/${id}/activate`, { headers });
  expect(activated.status(), await activated.text()).toBe(200);

  const { items } = (await (await broker.get("/api/sub-accounts")).json()) as {
    items: { subUid: string; subaccountName: string | null }[];
  };
  const desk = items.find((s) => s.subaccountName?.startsWith("desk02@"))!.subUid;
  for (let i = 0; i < REQUESTS; i++) {
    const res = await broker.post("/api/withdrawals", {
      headers,
      data: {
        subUid: desk,
        coin: "USDT",
        dest: "on_chain",
        travelRule: TRAVEL_RULE,
        address: tronAddress(),
        amount: "1",
        reason: `payout ${i}`,
      },
    });
    expect(res.status(), await res.text()).toBe(200);
  }
  const alerts = (await (await compliance.get(`/api/monitoring/alerts?subUid=${desk}&limit=100`)).json()) as {
    items: { id: string; caseId: string }[];
    total: number;
  };
  expect(alerts.total).toBe(REQUESTS);
  const caseId = alerts.items[0]!.caseId;

  const page = await (await browser.newContext({ baseURL: instance.baseURL })).newPage();
  await signIn(page, "compliance", `/alerts/cases/${caseId}`);
  const panel = page.getByRole("region", { name: `Alerts (${REQUESTS})` });
  await expect(panel.getByTestId("ledger-total")).toHaveText(`${REQUESTS} alerts of this case`);
  await expect(panel.getByText("Page 1 · 25 rows loaded")).toBeVisible();
  // Newest first, as the alert list has them; the next page starts where the first ended.
  await expect(rows(panel).first()).toHaveAttribute("data-row-id", alerts.items[0]!.id);
  await panel.getByRole("button", { name: "Older →" }).click();
  await expect(page).toHaveURL(/[?&]p=/);
  await expect(panel.getByText("Page 2 · 2 rows loaded")).toBeVisible();
  await expect(panel.getByTestId("ledger-total")).toHaveText(`${REQUESTS} alerts of this case`);
  const second = await rows(panel).evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-row-id")));
  expect(second).toEqual(alerts.items.slice(25).map((a) => a.id));
  await page.context().close();
  for (const ctx of [compliance, admin, broker]) await ctx.dispose();
});

// Decisions bound to what was reviewed. Compliance opens a case holding W1 (1 USDT to a new address); the broker
// then asks for W2 (25,000 USDT, another new address), whose alert joins the same case while the page is open.
// The page says so; a clear sent from it releases W1's alert only, and W2 stays held (the lead's approval is
// refused); a close sent from it is refused, naming the new alert, until the reviewer reloads.
test("[monitoring][case] a hold cleared on what the page showed never releases an alert raised since", async ({
  browser,
  playwright,
}) => {
  test.setTimeout(120_000);
  const headers = sameOrigin(instance.baseURL);
  const [compliance, admin, broker, lead] = [
    await api(playwright, "compliance"),
    await api(playwright, "admin"),
    await api(playwright, "broker"),
    await api(playwright, "lead"),
  ];
  const drafted = await compliance.post("/api/monitoring/rules", {
    headers,
    data: {
      name: "Held new destination",
      kind: "new_destination",
      severity: "high",
      holds: true,
      params: { lookbackDays: 30 },
    },
  });
  expect(drafted.status(), await drafted.text()).toBe(200);
  const { id: versionId, ruleId } = (await drafted.json()) as { id: string; ruleId: string };
  expect((await admin.post(`/api/monitoring/rule-versions/${versionId}/activate`, { headers })).status()).toBe(200);

  // A desk that can send 25,000 USDT (the simulator's balances are seeded at random).
  const { items } = (await (await broker.get("/api/sub-accounts")).json()) as {
    items: { subUid: string; subaccountName: string | null }[];
  };
  let desk: string | undefined;
  for (const name of ["desk03", "desk04", "desk05", "desk06", "desk07", "desk08", "desk09", "desk10"]) {
    const uid = items.find((s) => s.subaccountName?.startsWith(`${name}@`))?.subUid;
    if (!uid) continue;
    const funds = (await (await broker.get(`/api/withdrawals/funds?subUid=${uid}&coin=USDT`)).json()) as {
      free: string;
    };
    if (Number(funds.free) > 25_001) {
      desk = uid;
      break;
    }
  }
  expect(desk, "a desk with 25,000 USDT free").toBeDefined();
  const ask = async (amount: string) => {
    const res = await broker.post("/api/withdrawals", {
      headers,
      data: {
        subUid: desk,
        coin: "USDT",
        dest: "on_chain",
        travelRule: TRAVEL_RULE,
        address: tronAddress(),
        amount,
        reason: "payout",
      },
    });
    expect(res.status(), await res.text()).toBe(200);
    return (await res.json()) as { id: string; amount: string; address: string };
  };
  type Alert = { id: string; caseId: string; status: string; clearReason: string | null; records: { id: string }[] };
  const held = async () =>
    (
      (await (await compliance.get(`/api/monitoring/alerts?subUid=${desk}&ruleId=${ruleId}&limit=10`)).json()) as {
        items: Alert[];
      }
    ).items;
  const caseOf = async (id: string) =>
    (await (await compliance.get(`/api/monitoring/cases/${id}`)).json()) as { version: number; alertCount: number };

  const w1 = await ask("1");
  const [a] = await held();
  expect(a!.records[0]!.id).toBe(w1.id);
  const caseId = a!.caseId;
  const opened = await caseOf(caseId);

  const page = await (await browser.newContext({ baseURL: instance.baseURL })).newPage();
  await signIn(page, "compliance", `/alerts/cases/${caseId}`);
  await expect(page.getByText("holding withdrawals")).toBeVisible();
  await expect(page.getByTestId("case-new-alerts")).toHaveCount(0);

  const w2 = await ask("25000");
  const b = (await held()).find((x) => x.records[0]!.id === w2.id)!;
  expect(b.caseId).toBe(caseId);
  // Every alert that joined the case since the page opened (any other active rule's too) is counted.
  const fresh = (await caseOf(caseId)).version - opened.version;
  const words = fresh === 1 ? "1 new alert" : `${fresh} new alerts`;
  await expect(page.getByTestId("case-new-alerts")).toContainText(`${words} since you opened this case`, {
    timeout: 20_000,
  });

  // Cleared from the page as it was opened: W1's alert only.
  await page.getByRole("textbox", { name: "Why the hold can be cleared" }).fill("W1 ok");
  await page.getByRole("button", { name: "Clear hold" }).click();
  await expect(page.getByText(/cleared by compliance@demo\.brokerdesk: “W1 ok”/)).toHaveCount(1);
  await expect(page.getByText("holding withdrawals")).toBeVisible();
  // W2's alert, read again into the list with the case, is marked as new and still holding.
  const rowB = page.locator(`tr[data-row-id="${b.id}"]`);
  await expect(rowB).toContainText("open, holding (new since you opened this case)");
  const after = await held();
  expect(after.find((x) => x.id === a!.id)).toMatchObject({ status: "cleared", clearReason: "W1 ok" });
  expect(after.find((x) => x.id === b.id)).toMatchObject({ status: "open", clearReason: null });
  const approve = await lead.post(`/api/withdrawals/${w2.id}/approve`, {
    headers,
    data: { confirmAmount: w2.amount, confirmAddress: w2.address },
  });
  expect(approve.status(), await approve.text()).toBe(409);
  expect(((await approve.json()) as { error: { code: string } }).error.code).toBe("withdrawal_held");

  // A close from the same view is refused, naming the new alert, and the case stays open.
  await page.getByRole("textbox", { name: "Reason for closing", exact: true }).fill("W1 ok");
  await page.getByRole("button", { name: "Close case" }).click();
  const closeForm = page.locator("form").filter({ hasText: "Reason for closing" });
  await expect(closeForm.getByRole("alert")).toContainText(
    new RegExp(
      "^The case has changed since you opened it\\. \\d+ new alerts? since you opened this case: " +
        `.*alert ${b.id} \\(Held new destination, high, holding\\)`,
    ),
  );
  await expect(page.getByRole("button", { name: "Close case" })).toBeVisible();

  // Reloaded, the reviewer sees W2's alert and decides it on its own.
  await page.getByRole("button", { name: "Reload to see them" }).click();
  await expect(page.getByTestId("case-new-alerts")).toHaveCount(0);
  await expect(rowB).toContainText("open, holding");
  await expect(rowB).not.toContainText("new since you opened");
  await page.getByRole("textbox", { name: "Why the hold can be cleared" }).fill("W2 destination verified");
  await page.getByRole("button", { name: "Clear hold" }).click();
  await expect(page.getByText(/cleared by compliance@demo\.brokerdesk: “W2 destination verified”/)).toBeVisible();
  await expect(page.getByText("holding withdrawals")).toHaveCount(0);

  await page.context().close();
  for (const ctx of [compliance, admin, broker, lead]) await ctx.dispose();
});
