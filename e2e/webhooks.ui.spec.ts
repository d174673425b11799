// Webhooks in the browser, on an instance of its own (an endpoint would receive every other spec's events): an
// admin adds an endpoint pointing at a receiver on loopback and is shown its secret once; a second admin confirms
// it; a broker's request reaches the receiver signed per Standard Webhooks; the first admin sees the delivery in
// the endpoint's log and sends it again, which arrives with the same webhook-id.
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import type { APIRequestContext } from "@playwright/test";
import { startInstance, type Instance } from "./support/second-instance";
import { sameOrigin, signIn, signInApi, signInWith, takeOverAccount, waitForHydration } from "./support/staff";
import { expect, test } from "./support/test";
import { TRAVEL_RULE } from "./support/travel-rule";

test.describe.configure({ mode: "serial" });

const ADMIN2 = { email: "hooks-admin@example.com", first: "chosen-by-the-first-admin-2", own: "the-hook-admins-own-2" };
type Got = { headers: IncomingHttpHeaders; body: string };
const got: Got[] = [];
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    got.push({ headers: req.headers, body: Buffer.concat(chunks).toString() });
    res.writeHead(204).end();
  });
});
let instance: Instance;
let hookUrl = "";

test.beforeAll(async () => {
  test.setTimeout(120_000);
  await new Promise<void>((ok) => receiver.listen(0, "127.0.0.1", ok));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/brokerdesk`;
  instance = await startInstance("webhooks", { APPROVER_COOL_OFF_HOURS: "0.001" });
});

test.afterAll(async () => {
  await instance?.stop();
  await new Promise<void>((ok) => receiver.close(() => ok()));
});

/** Standard Webhooks verification, as the spec says it. */
function verifies(secret: string, g: Got): boolean {
  const [id, ts, sigs] = ["webhook-id", "webhook-timestamp", "webhook-signature"].map((h) => String(g.headers[h]));
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const want = createHmac("sha256", key).update(`${id}.${ts}.${g.body}`).digest();
  return sigs!.split(" ").some((s) => {
    const got = Buffer.from(s.split(",")[1] ?? "", "base64");
    return s.startsWith("v1,") && got.length === want.length && timingSafeEqual(got, want);
  });
}

async function requestWithdrawal(ctx: APIRequestContext): Promise<void> {
  const { items } = (await (await ctx.get("/api/sub-accounts")).json()) as {
    items: { subUid: string; subaccountName: string | null }[];
  };
  const subUid = items.find((s) => s.subaccountName?.startsWith("desk01@"))!.subUid;
  const res = await ctx.post("/api/withdrawals", {
    headers: sameOrigin(instance.baseURL),
    data: {
      subUid,
      coin: "USDT",
      dest: "on_chain",
      travelRule: TRAVEL_RULE,
      address: "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE",
      amount: "12.5",
      reason: "webhooks e2e",
    },
  });
  expect(res.status(), await res.text()).toBe(200);
}

test("[webhooks][e2e] an admin adds an endpoint, a second admin confirms it, its deliveries are seen and sent again", async ({
  browser,
  playwright,
}) => {
  test.setTimeout(150_000);
  const admin = await (await browser.newContext({ baseURL: instance.baseURL })).newPage();
  await signIn(admin, "admin", "/admin/webhooks");
  await expect(admin.getByRole("heading", { level: 1, name: "Webhooks" })).toBeVisible();
  await admin.getByLabel("URL").fill(hookUrl);
  await admin.getByLabel("Description").fill("The desk's receiver");
  await admin.getByLabel("Audience role").selectOption("lead");
  await admin.getByRole("checkbox", { name: "withdrawal.awaiting_approval" }).check();
  await admin.getByRole("button", { name: "Add endpoint" }).click();
  const secret = (await admin.getByTestId("webhook-secret").textContent())?.trim() ?? "";
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  const row = admin.locator(`tr[data-endpoint="${hookUrl}"]`);
  await expect(row).toContainText("waiting for a second admin");
  // Its author has no Confirm button.
  await expect(row.getByRole("button", { name: "Confirm" })).toHaveCount(0);

  // A second admin: made by the first, takes the account over, and after the cool-off confirms the endpoint.
  const made = await admin.request.post("/api/admin/users", {
    headers: sameOrigin(instance.baseURL),
    data: { email: ADMIN2.email, name: "Hooks Admin", role: "admin", password: ADMIN2.first },
  });
  expect(made.status(), await made.text()).toBe(200);
  const takeOver = await playwright.request.newContext({ baseURL: instance.baseURL });
  await takeOverAccount(takeOver, instance.baseURL, ADMIN2.email, ADMIN2.first, ADMIN2.own);
  await takeOver.dispose();
  await new Promise((r) => setTimeout(r, 4_000));
  const second = await (await browser.newContext({ baseURL: instance.baseURL })).newPage();
  expect(await signInWith(second.request, ADMIN2.email, ADMIN2.own)).toBe(true);
  await second.goto("/admin/webhooks");
  await waitForHydration(second);
  await second.locator(`tr[data-endpoint="${hookUrl}"]`).getByRole("button", { name: "Confirm" }).click();
  await expect(second.getByText(`Confirmed: ${hookUrl} now receives its events.`)).toBeVisible();

  // A broker's request reaches the receiver, signed.
  const broker = await playwright.request.newContext({ baseURL: instance.baseURL });
  await signInApi(broker, "broker");
  await requestWithdrawal(broker);
  await expect.poll(() => got.length, { timeout: 30_000 }).toBe(1);
  expect(verifies(secret, got[0]!)).toBe(true);
  expect(JSON.parse(got[0]!.body)).toMatchObject({ type: "withdrawal.awaiting_approval", data: { amount: "12.5" } });

  // The first admin sees it in the endpoint's log, and sends it again: the same webhook-id arrives once more.
  await admin.reload();
  await waitForHydration(admin);
  await admin.locator(`tr[data-endpoint="${hookUrl}"]`).getByRole("button", { name: "Deliveries" }).click();
  const id = String(got[0]!.headers["webhook-id"]);
  const delivery = admin.locator(`tr[data-delivery="${id}"]`);
  await expect(delivery).toHaveAttribute("data-state", "sent", { timeout: 20_000 });
  await expect(delivery).toContainText("204");
  await delivery.getByRole("button", { name: "Send again" }).click();
  await expect(admin.getByText(`${id} will be sent again now.`)).toBeVisible();
  await expect.poll(() => got.length, { timeout: 30_000 }).toBe(2);
  expect(got[1]!.headers["webhook-id"]).toBe(id);
  expect(verifies(secret, got[1]!)).toBe(true);
  await expect(delivery).toContainText("2", { timeout: 20_000 });
  await broker.dispose();
});
