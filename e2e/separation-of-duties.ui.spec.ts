// Separation of duties: an admin creates a lead with a password of the admin's choosing,
// then tries to approve as that lead. Refused, naming the rule; the other leads see the account on hold
// beside the approval queue; the holder changes their own password on /account, is still on hold for the
// cool-off (3.6 s on the e2e server), and then may approve.
import { request as playwrightRequest, type APIRequestContext } from "@playwright/test";
import { expect, test } from "./support/test";
import { APPROVER_COOL_OFF_MS, DEMO, sameOrigin, signInApi, signIn, signInWith } from "./support/staff";
import { TRAVEL_RULE } from "./support/travel-rule";

const ADDRESS = "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE";

async function apiAs(baseURL: string | undefined, role: keyof typeof DEMO): Promise<APIRequestContext> {
  const ctx = await playwrightRequest.newContext({ baseURL });
  await signInApi(ctx, role);
  return ctx;
}

test("[security][separation-of-duties] an admin-made lead cannot approve until its holder changed the password and the cool-off passed", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const admin = await apiAs(baseURL, "admin");
  const broker = await apiAs(baseURL, "broker");
  const made = {
    email: `sod-${Date.now()}@brokerdesk.test`,
    name: "Made By Admin",
    role: "lead",
    password: "the-admin-chose-this-1",
  };
  expect((await admin.post("/api/admin/users", { headers: sameOrigin(baseURL), data: made })).status()).toBe(200);

  const { items } = (await (await broker.get("/api/sub-accounts")).json()) as {
    items: { subUid: string; subaccountName: string | null }[];
  };
  const uid = items.find((s) => s.subaccountName?.startsWith("desk02@"))!.subUid;
  const w = (await (
    await broker.post("/api/withdrawals", {
      headers: sameOrigin(baseURL),
      data: {
        subUid: uid,
        coin: "USDT",
        dest: "on_chain",
        travelRule: TRAVEL_RULE,
        address: ADDRESS,
        amount: "0.25",
        reason: "sod e2e",
      },
    })
  ).json()) as { id: string; amount: string; address: string };

  // The admin, signed in as the lead they made: refused, and the refusal names the rule.
  const asMade = await playwrightRequest.newContext({ baseURL });
  expect(await signInWith(asMade, made.email, made.password)).toBe(true);
  const approve = () =>
    asMade.post(`/api/withdrawals/${w.id}/approve`, {
      headers: sameOrigin(baseURL),
      data: { confirmAmount: w.amount, confirmAddress: w.address },
    });
  const refused = await approve();
  expect(refused.status()).toBe(403);
  const body = (await refused.json()) as { error: { code: string; message: string } };
  expect(body.error.code).toBe("approver_on_hold");
  expect(body.error.message).toMatch(
    /^Separation of duties: this account was created by admin@demo\.brokerdesk on .+ UTC/,
  );

  // Another lead sees it beside the approval queue.
  await signIn(page, "lead", "/withdrawals");
  const approvers = page.getByRole("region", { name: "Approvers" });
  const entry = approvers.getByRole("listitem").filter({ hasText: made.email });
  await expect(entry).toContainText("on hold");
  await expect(entry).toContainText("created by admin@demo.brokerdesk");
  await expect(approvers.getByRole("listitem").filter({ hasText: DEMO.lead })).toContainText("may approve");
  await page.screenshot({ path: "test-results/separation-of-duties-approvers.png", fullPage: true });

  // The holder takes the account over on /account.
  const holder = await (await browser.newContext()).newPage();
  await holder.goto("/login?callbackUrl=%2Faccount");
  await holder.getByLabel("E-mail").fill(made.email);
  await holder.getByLabel("Password").fill(made.password);
  await holder.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(holder.getByRole("heading", { name: "Your account" })).toBeVisible();
  await expect(holder.getByTestId("approver-standing")).toContainText("on hold");
  await holder.getByLabel("Current password").fill("not-it");
  await holder.getByLabel("New password").fill("the-lead-chose-this-2");
  await holder.getByRole("button", { name: "Change password" }).click();
  await expect(holder.getByText("The current password is not right")).toBeVisible();
  await holder.getByLabel("Current password").fill(made.password);
  await holder.getByRole("button", { name: "Change password" }).click();
  await expect(holder.getByRole("status").filter({ hasText: "Your password was changed" })).toBeVisible();
  // Every session of the account ended, the admin's copy too.
  expect((await approve()).status()).toBe(401);

  await holder.getByLabel("E-mail").fill(made.email);
  await holder.getByLabel("Password").fill("the-lead-chose-this-2");
  await holder.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(holder.getByTestId("approver-standing")).toContainText(/on hold.*may approve from .+ UTC/);

  const own = await playwrightRequest.newContext({ baseURL });
  expect(await signInWith(own, made.email, "the-lead-chose-this-2")).toBe(true);
  await new Promise((r) => setTimeout(r, APPROVER_COOL_OFF_MS + 500));
  const ok = await own.post(`/api/withdrawals/${w.id}/approve`, {
    headers: sameOrigin(baseURL),
    data: { confirmAmount: w.amount, confirmAddress: w.address },
  });
  expect(ok.status(), await ok.text()).toBe(200);
  await holder.reload();
  await expect(holder.getByTestId("approver-standing")).toContainText("may approve");
  await Promise.all([admin.dispose(), broker.dispose(), asMade.dispose(), own.dispose(), holder.context().close()]);
});

test("[security][separation-of-duties] /alerts/rules: a retirement the admin proposed, and a snooze compliance asked for, are confirmed by the other", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(60_000);
  const headers = sameOrigin(baseURL);
  const [admin, compliance] = [await apiAs(baseURL, "admin"), await apiAs(baseURL, "compliance")];
  const name = `sod ui ${Date.now()}`;
  const drafted = await compliance.post("/api/monitoring/rules", {
    headers,
    data: { name, kind: "new_destination", severity: "high", holds: true, params: { lookbackDays: 30 } },
  });
  const v = (await drafted.json()) as { id: string; ruleId: string };
  expect((await admin.post(`/api/monitoring/rule-versions/${v.id}/activate`, { headers, data: {} })).status()).toBe(
    200,
  );
  const until = new Date(Date.now() + 86_400_000).toISOString();
  const snooze = await compliance.post("/api/monitoring/snoozes", {
    headers,
    data: { ruleId: v.ruleId, subUid: "77", until, reason: "known desk, sod ui" },
  });
  expect(((await snooze.json()) as { state: string }).state).toBe("requested");
  const proposed = await admin.post(`/api/monitoring/rule-versions/${v.id}/propose-retirement`, {
    headers,
    data: { reason: "replaced, sod ui" },
  });
  expect(proposed.status(), await proposed.text()).toBe(200);

  // Compliance sees the admin's proposal and confirms it; its own snooze request it may only withdraw.
  await signIn(page, "compliance", "/alerts/rules");
  const row = page.getByRole("row").filter({ hasText: `${name} v1` });
  await expect(row).toContainText("Retirement proposed by admin@demo.brokerdesk");
  await expect(row).toContainText("replaced, sod ui");
  const requests = page.getByRole("table", { name: "Snooze requests" });
  const mine = requests.getByRole("row").filter({ hasText: "known desk, sod ui" });
  await expect(mine.getByRole("button", { name: /^Withdraw|^Decline/ })).toBeVisible();
  await expect(mine.getByRole("button", { name: /^Approve/ })).toHaveCount(0);
  await row.getByRole("button", { name: `Confirm the retirement of ${name} v1` }).click();
  await expect(row.getByRole("cell", { name: "retired", exact: true })).toBeVisible();
  await page.screenshot({ path: "test-results/separation-of-duties-rules.png", fullPage: true });
  await Promise.all([admin.dispose(), compliance.dispose()]);
});
