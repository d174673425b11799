// Nobody has to watch a page, in Chromium, on an instance of its own (its requests and mails touch no other spec):
// a broker's request reaches the lead's bell and the lead's mail (the simulator's SMTP sink, /dev/mail); the lead
// follows the mail's link to the approval queue and approves; the broker's bell then says it was sent. The open
// bell passes axe.
import type { Browser, Page } from "@playwright/test";
import { seriousViolations } from "./support/axe";
import { startInstance, type Instance } from "./support/second-instance";
import { sameOrigin, signIn, type DemoRole } from "./support/staff";
import { expect, test } from "./support/test";
import { TRAVEL_RULE } from "./support/travel-rule";

test.describe.configure({ mode: "serial" });

const ADDRESS = "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE";
let instance: Instance;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  instance = await startInstance("notifications-ui", {}, 100_000);
});
test.afterAll(async () => {
  await instance?.stop();
});

async function pageAs(browser: Browser, role: DemoRole, at: string): Promise<Page> {
  const page = await (await browser.newContext({ baseURL: instance.baseURL })).newPage();
  await signIn(page, role, at);
  return page;
}

async function openBell(page: Page) {
  await page.getByRole("button", { name: /^Notifications/ }).click();
  const panel = page.getByRole("region", { name: "Notifications" });
  await expect(panel).toBeVisible();
  return panel;
}

test("[notifications] a request reaches the lead's bell and mail; approved from the mail's link; the broker's bell says sent", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const broker = await pageAs(browser, "broker", "/");
  const subs = (await (await broker.request.get("/api/sub-accounts")).json()) as {
    items: { subUid: string; subaccountName: string | null }[];
  };
  const desk01 = subs.items.find((s) => s.subaccountName?.startsWith("desk01@"))!.subUid;
  const made = await broker.request.post("/api/withdrawals", {
    headers: sameOrigin(instance.baseURL),
    data: {
      subUid: desk01,
      coin: "USDT",
      dest: "on_chain",
      address: ADDRESS,
      amount: "1.5",
      reason: "notify e2e",
      travelRule: TRAVEL_RULE,
    },
  });
  expect(made.status(), await made.text()).toBe(200);
  const { id } = (await made.json()) as { id: string };

  // The lead's bell: one unread, the request in it; the open bell passes axe and closes on Escape.
  const lead = await pageAs(browser, "lead", "/");
  await expect(lead.getByTestId("notification-unread")).toContainText("1");
  const panel = await openBell(lead);
  await expect(panel.getByRole("link", { name: /A withdrawal waits for your approval/ })).toContainText(
    `1.5 USDT from sub-account ${desk01}`,
  );
  expect(await seriousViolations(lead)).toEqual([]);
  await lead.keyboard.press("Escape");
  await expect(panel).toBeHidden();
  await expect(lead.getByRole("button", { name: /^Notifications/ })).toBeFocused();

  // The lead's mail, through the simulator's SMTP sink: its link leads to the approval queue.
  await lead.goto("/dev/mail");
  const mail = lead.getByRole("article", { name: "Brokerdesk: A withdrawal waits for your approval" });
  await expect(async () => {
    await lead.reload();
    await expect(mail).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await expect(mail).toContainText(`1.5 USDT from sub-account ${desk01}`);
  await mail.getByRole("link", { name: `${instance.baseURL}/withdrawals` }).click();
  await expect(lead).toHaveURL(`${instance.baseURL}/withdrawals`);
  const row = lead.getByRole("region", { name: "Approval queue" }).locator(`tr[data-withdrawal-id="${id}"]`);
  await row.getByRole("button", { name: /^Approve / }).click();
  const dialog = lead.getByRole("dialog", { name: "Approve and send this withdrawal" });
  await dialog.getByLabel("Amount").fill("1.5");
  await dialog.getByLabel("Address").fill(ADDRESS);
  await dialog.getByRole("button", { name: "Approve and send" }).click();
  await expect(dialog).toBeHidden();

  // The broker's bell: approved, then sent.
  await expect(async () => {
    await broker.reload();
    const bell = await openBell(broker);
    await expect(bell.getByRole("link", { name: /Your withdrawal request was decided/ }).first()).toContainText(
      "sent (confirmed by the platform)",
      { timeout: 1_000 },
    );
  }).toPass({ timeout: 30_000 });
  await broker.screenshot({ path: "test-results/notifications-broker-bell.png" });
});
