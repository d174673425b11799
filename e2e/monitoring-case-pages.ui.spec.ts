// A case of many alerts reads them a keyset page at a time, its count exact. On an instance of its own (an
// active rule there raises an alert for every new withdrawal destination): a desk asks to send to 27 addresses
// it never used, each request screened as it is made; compliance opens the desk's case.
import { createHash, randomBytes } from "node:crypto";
import type { APIRequestContext } from "@playwright/test";
import { startInstance, type Instance } from "./support/second-instance";
import { sameOrigin, signIn, signInApi, type DemoRole } from "./support/staff";
import { rows } from "./support/tables";
import { expect, test } from "./support/test";

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
