// The README's user guide: the screenshots it shows are taken here, by the suite,
// as each role sees the page, so the guide shows what the code does today. They are written to
// reports/guide/ on every run; `npm run guide` copies the last run's into docs/guide/, which the README shows.
import { request as playwrightRequest, type Page } from "@playwright/test";
import { expect, test } from "./support/test";
import { sameOrigin, signInApi, signIn } from "./support/staff";

const SHOTS = "reports/guide";
const shoot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });

test.describe.configure({ mode: "serial" });

let withdrawalId = "";

test("[guide][broker] a broker requests a withdrawal and opens its page", async ({ page, baseURL }) => {
  const broker = await playwrightRequest.newContext({ baseURL });
  await signInApi(broker, "broker");
  const { items } = (await (await broker.get("/api/sub-accounts")).json()) as {
    items: { subUid: string; subaccountName: string | null }[];
  };
  const uid = (name: string) => items.find((s) => s.subaccountName?.startsWith(`${name}@`))?.subUid ?? "";
  const res = await broker.post("/api/withdrawals", {
    headers: sameOrigin(baseURL),
    data: {
      subUid: uid("desk03"),
      coin: "USDT",
      dest: "internal_transfer",
      address: uid("desk06"),
      amount: "12.5",
      reason: "Client payout, ticket 4411",
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  withdrawalId = ((await res.json()) as { id: string }).id;
  await broker.dispose();

  await signIn(page, "broker", "/withdrawals");
  await expect(page.getByRole("region", { name: "Request a withdrawal" })).toBeVisible();
  await shoot(page, "withdrawals-broker");
  await page.goto(`/withdrawals/${withdrawalId}`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByText("Client payout, ticket 4411").first()).toBeVisible();
  // Names, not bare UIDs: both sub-accounts are named beside their UIDs.
  await expect(page.getByText(/^desk03@/).first()).toBeVisible();
  await expect(page.getByText(/^desk06@/).first()).toBeVisible();
  await shoot(page, "withdrawal-page");
});

test("[guide][lead] a lead sees the approval queue with the balance and what is pending", async ({ page }) => {
  await signIn(page, "lead", "/withdrawals");
  const queue = page.getByRole("region", { name: "Approval queue" });
  await expect(queue.getByText("Client payout, ticket 4411")).toBeVisible();
  await expect(queue.getByText(/^desk03@/).first()).toBeVisible();
  await shoot(page, "approval-queue");
});

test("[guide][compliance] compliance reads the audit log", async ({ page }) => {
  await signIn(page, "compliance", "/audit");
  await expect(page.locator("tr[data-row-id]").first()).toBeVisible();
  // The request's rows: its reason, and its target (the sub-account) a link to that sub-account's page.
  await expect(page.getByText("Client payout, ticket 4411").first()).toBeVisible();
  await expect(page.getByRole("link", { name: /^subaccount:\d+$/ }).first()).toHaveAttribute(
    "href",
    /^\/sub-accounts\/\d+$/,
  );
  await shoot(page, "audit-log");
});
