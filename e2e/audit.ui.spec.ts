import type { Browser, Page } from "@playwright/test";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { mkdtempSync, rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "./support/test";
import { checkBothSchemes as checkAxeBothSchemes } from "./support/axe";
import { seedDataDir } from "./support/pglite-template";
import { startInstance } from "./support/second-instance";
import { DEMO, sameOrigin, signInApi, signIn } from "./support/staff";
import { rows } from "./support/tables";
import { TRAVEL_RULE } from "./support/travel-rule";

/** axe in light and dark, with a screenshot of each into /tmp. */
function checkBothSchemes(page: Page, name: string) {
  return checkAxeBothSchemes(page, (scheme) => `/tmp/as-${name}-${scheme}.png`);
}

test("[audit][list] compliance opens /audit and sees rows, newest first, with their details", async ({ page }) => {
  await signIn(page, "compliance", "/audit");
  await expect(page).toHaveTitle(/Audit log/);
  await expect(page.getByRole("heading", { level: 1, name: "Audit log" })).toBeVisible();
  await expect(rows(page).first()).toBeVisible();
  // Newest first: ids fall down the page.
  const ids = (await rows(page).evaluateAll((trs) => trs.map((tr) => Number(tr.getAttribute("data-row-id"))))).slice(
    0,
    10,
  );
  expect(ids.length).toBeGreaterThan(0);
  expect([...ids].sort((a, b) => b - a)).toEqual(ids);
  // The compliance sign-in itself is recorded.
  const signInRow = rows(page).filter({ hasText: "auth.sign-in" }).filter({ hasText: DEMO.compliance }).first();
  await expect(signInRow).toBeVisible();
  await signInRow.getByRole("button", { name: /^Details of audit row/ }).click();
  const details = page.getByTestId("audit-details");
  await expect(details).toContainText("auth.sign-in");
  await expect(details.getByRole("heading", { name: "Parameters (redacted)" })).toBeVisible();
  await expect(page.getByText("Page 1 ·")).toBeVisible();
  await checkBothSchemes(page, "audit-list");
});

test("[audit][filter] a broker's refused request shows under outcome refused, with its reason", async ({
  page,
  request,
}) => {
  await signInApi(request, "broker");
  expect((await request.get("/api/audit")).status()).toBe(403);

  await signIn(page, "compliance", "/audit");
  await expect(rows(page).first()).toBeVisible();
  await page.getByRole("combobox", { name: "Outcome" }).selectOption("refused");
  await expect(page).toHaveURL(/outcome=refused/);
  await page.getByLabel("Actor (part of the e-mail)").fill(DEMO.broker);
  await page.getByRole("button", { name: "Apply", exact: true }).click();
  await expect(page).toHaveURL(/actor=broker%40demo\.brokerdesk|actor=broker@demo\.brokerdesk/);
  const refusal = rows(page).filter({ hasText: "/api/audit" }).first();
  await expect(refusal).toBeVisible();
  await expect(refusal).toContainText("request.refused");
  await expect(refusal).toContainText("Your role (broker) may not do this (audit.read)");
  // Every row on screen is a refusal by the broker.
  const headers = await page.locator("thead th").allTextContents();
  const outcomeColumn = headers.findIndex((h) => h.startsWith("Outcome")) + 1;
  expect(outcomeColumn).toBeGreaterThan(0);
  const outcomes = await rows(page).locator(`td:nth-child(${outcomeColumn})`).allTextContents();
  expect(outcomes.length).toBeGreaterThan(0);
  expect(new Set(outcomes)).toEqual(new Set(["refused"]));
  await refusal.getByRole("button", { name: /^Details of audit row/ }).click();
  const details = page.getByTestId("audit-details");
  await expect(details).toContainText('"reason": "Your role (broker) may not do this (audit.read)"');
  await expect(details).toContainText('"status": 403');
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: "/tmp/as-audit-refused.png", fullPage: true });

  // The CSV has the same filters: a header line and at least that refusal.
  const link = page.getByRole("link", { name: "Download CSV" });
  await expect(link).toHaveAttribute("href", /\/api\/audit\/export\?.*outcome=refused/);
  const download = page.waitForEvent("download");
  await link.click();
  const file = await download;
  const text = await readFile((await file.path())!, "utf8");
  const lines = text.trim().split("\r\n");
  expect(lines[0]).toBe(
    "id,at,actor,actorRole,action,outcome,target,intentId,requestId,ip,params,detail,prevHash,hash",
  );
  expect(lines.length).toBeGreaterThanOrEqual(2);
  expect(lines.slice(1).every((l) => l.includes(",refused,"))).toBe(true);
  expect(lines.some((l) => l.includes("/api/audit") && l.includes(DEMO.broker))).toBe(true);
});

test("[audit][paging] Older and Newer walk the log by keyset and come back", async ({ page }) => {
  await signIn(page, "lead", "/audit");
  await page.goto("/audit?limit=3");
  await expect(rows(page).first()).toBeVisible();
  const first = await rows(page).first().getAttribute("data-row-id");
  const older = page.getByRole("button", { name: "Older →" });
  if (!(await older.isEnabled())) test.skip(true, "fewer than one page of audit rows in this run");
  await older.click();
  await expect(page).toHaveURL(/before=\d+/);
  await expect(page.getByText(/^Page 2 ·/)).toBeVisible();
  const second = Number(await rows(page).first().getAttribute("data-row-id"));
  expect(second).toBeLessThan(Number(first));
  await page.getByRole("button", { name: "← Newer" }).click();
  await expect(page.getByText(/^Page 1 ·/)).toBeVisible();
  await expect(rows(page).first()).toHaveAttribute("data-row-id", first!);
});

test("[audit][refused] a broker cannot see /audit", async ({ page }) => {
  await signIn(page, "broker", "/audit");
  await expect(page.getByRole("heading", { level: 1, name: "Not allowed" })).toBeVisible();
  await expect(page.getByRole("alert").filter({ hasText: "403" })).toHaveText(
    "403: The audit log needs the audit.read permission (compliance, lead, admin); you are signed in as broker.",
  );
  await expect(page.getByRole("table")).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Download CSV" })).toHaveCount(0);
});

test("[audit][refused-page] a page the role may not open is refused in the audit log, as a refused API call is", async ({
  page,
  playwright,
  baseURL,
}) => {
  await signIn(page, "broker");
  const marker = `/admin/users?probe=${Date.now()}`;
  await page.goto(marker);
  await expect(page.getByRole("heading", { level: 1, name: "Not allowed" })).toBeVisible();
  const compliance = await playwright.request.newContext({ baseURL });
  await signInApi(compliance, "compliance");
  const res = await compliance.get("/api/audit?action=request.refused&actor=broker%40demo.brokerdesk&limit=20");
  const { rows } = (await res.json()) as {
    rows: { target: string; actorRole: string; detail: { status: number; code: string; reason: string } }[];
  };
  const refused = rows.find((r) => r.target === "/admin/users");
  expect(refused, JSON.stringify(rows.slice(0, 3))).toBeTruthy();
  expect(refused).toMatchObject({ actorRole: "broker", detail: { status: 403, code: "forbidden" } });
  expect(refused!.detail.reason).toContain("users.read");
  await compliance.dispose();
});

test("[audit][daily] a reject row shows the lead's reason, not the requester's; targets link to the withdrawal and the sub-account (named)", async ({
  page,
  playwright,
  baseURL,
}) => {
  const broker = await playwright.request.newContext({ baseURL });
  await signInApi(broker, "broker");
  const subs = (await (await broker.get("/api/sub-accounts")).json()) as {
    items: { subUid: string; subaccountName: string | null }[];
  };
  const desk = subs.items.find((s) => s.subaccountName?.startsWith("desk01@"))!;
  const requesterReason = `payout ${Date.now()}`;
  const made = await broker.post("/api/withdrawals", {
    headers: sameOrigin(baseURL),
    data: {
      subUid: desk.subUid,
      coin: "USDT",
      dest: "on_chain",
      travelRule: TRAVEL_RULE,
      address: "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE",
      amount: "2",
      reason: requesterReason,
    },
  });
  expect(made.status(), await made.text()).toBe(200);
  const w = (await made.json()) as { id: string };
  const lead = await playwright.request.newContext({ baseURL });
  await signInApi(lead, "lead");
  const leadReason = "destination not on the client's whitelist";
  const rejected = await lead.post(`/api/withdrawals/${w.id}/reject`, {
    headers: sameOrigin(baseURL),
    data: { reason: leadReason },
  });
  expect(rejected.status(), await rejected.text()).toBe(200);
  await broker.dispose();
  await lead.dispose();

  await signIn(page, "compliance", "/audit");
  await page.goto("/audit?action=withdrawals.reject");
  const mine = rows(page).filter({ hasText: `withdrawal:${w.id}` });
  await expect(mine).toHaveCount(2);
  for (const row of await mine.all()) {
    await expect(row).toContainText(leadReason);
    await expect(row).not.toContainText(requesterReason);
  }
  const link = mine.first().getByRole("link", { name: `withdrawal:${w.id}` });
  await expect(link).toHaveAttribute("href", `/withdrawals/${w.id}`);

  // The request's own rows keep the requester's reason, and their target is the sub-account, named.
  await page.goto("/audit?action=withdrawals.request");
  const request = rows(page).filter({ hasText: requesterReason }).first();
  await expect(request).toBeVisible();
  await expect(request.getByRole("link", { name: `subaccount:${desk.subUid}` })).toHaveAttribute(
    "href",
    `/sub-accounts/${desk.subUid}`,
  );
  await expect(request).toContainText(desk.subaccountName!);
});

test('[audit][daily] the actor filter matches part of the e-mail: "lead" finds lead@…', async ({
  page,
  playwright,
  baseURL,
}) => {
  // A sign-in of the lead is recorded, whatever ran before.
  const lead = await playwright.request.newContext({ baseURL });
  await signInApi(lead, "lead");
  await lead.dispose();
  await signIn(page, "compliance", "/audit");
  await expect(rows(page).first()).toBeVisible();
  await page.getByLabel("Actor (part of the e-mail)").fill("lead");
  await page.getByRole("button", { name: "Apply", exact: true }).click();
  await expect(page).toHaveURL(/actor=lead(&|$)/);
  await expect(rows(page).first()).toBeVisible();
  const headers = await page.locator("thead th").allTextContents();
  const actorColumn = headers.findIndex((h) => h.startsWith("Actor")) + 1;
  const actors = await rows(page).locator(`td:nth-child(${actorColumn})`).allTextContents();
  expect(actors.length).toBeGreaterThan(0);
  expect(actors.every((a) => a.includes("lead"))).toBe(true);
  expect(actors).toContain(DEMO.lead);
});

test("[audit][daily] a change to a member of staff names them by e-mail beside their id, for compliance too", async ({
  page,
  playwright,
  baseURL,
}) => {
  const admin = await playwright.request.newContext({ baseURL });
  await signInApi(admin, "admin");
  const email = `audit-target-${Date.now()}@demo.brokerdesk`;
  const created = await admin.post("/api/admin/users", {
    headers: sameOrigin(baseURL),
    data: { email, name: "Audit Target", role: "compliance", password: "a-long-enough-password" },
  });
  expect(created.status(), await created.text()).toBe(200);
  const { user } = (await created.json()) as { user: { id: string } };
  const changed = await admin.patch(`/api/admin/users/${user.id}`, {
    headers: sameOrigin(baseURL),
    data: { name: "Audit Target, renamed" },
  });
  expect(changed.status(), await changed.text()).toBe(200);
  await admin.dispose();

  await signIn(page, "compliance", "/audit?action=users.update");
  const row = rows(page).filter({ hasText: user.id }).first();
  await expect(row).toBeVisible();
  // The email, not only the id: a reviewer can tell who was changed.
  await expect(row).toContainText(email);
});

/** /audit of a Brokerdesk started on `dataDir`, as compliance reads it; the instance is stopped after. */
async function auditPageOn(browser: Browser, dataDir: string, read: (page: Page) => Promise<void>): Promise<void> {
  const app = await startInstance("audit-head", { DATA_DIR: dataDir }, 120_000);
  const context = await browser.newContext({ baseURL: app.baseURL });
  try {
    const page = await context.newPage();
    await signIn(page, "compliance", "/audit");
    await expect(rows(page).first()).toBeVisible();
    await read(page);
  } finally {
    await context.close();
    await app.stop();
  }
}

test("[audit][head] /audit warns its readers when the chain's head did not match at start, and only then", async ({
  browser,
}) => {
  test.setTimeout(300_000);
  // One data folder, two starts: intact, then with its newest entry edited while Brokerdesk was stopped.
  const dataDir = mkdtempSync(path.join(tmpdir(), "brokerdesk-e2e-audit-head-"));
  seedDataDir(dataDir);
  const banner = (page: Page) => page.getByRole("alert").filter({ hasText: "The audit chain does not verify" });
  try {
    await auditPageOn(browser, dataDir, async (page) => {
      await expect(page.getByRole("heading", { level: 1, name: "Audit log" })).toBeVisible();
      await expect(banner(page)).toHaveCount(0);
    });

    // Edited as someone with the database's files would: the append-only triggers off, one row changed.
    const pg = await PGlite.create(path.join(dataDir, "pglite"), { extensions: { pg_trgm } });
    let edited: number;
    try {
      edited = Number((await pg.query<{ id: string }>("SELECT max(id)::text AS id FROM audit_log")).rows[0]!.id);
      expect(edited).toBeGreaterThan(0);
      await pg.exec(`ALTER TABLE audit_log DISABLE TRIGGER ALL;
        UPDATE audit_log SET actor = 'someone-else@demo.brokerdesk' WHERE id = ${edited};
        ALTER TABLE audit_log ENABLE TRIGGER ALL;`);
    } finally {
      await pg.close();
    }

    await auditPageOn(browser, dataDir, async (page) => {
      await expect(banner(page)).toHaveCount(1);
      await expect(banner(page)).toContainText(`content does not match its hash (row edited) (at row ${edited})`);
      await expect(banner(page)).toContainText("ask an administrator to run npm run audit:verify");
      // Above the log it warns about.
      const [b, table] = await Promise.all([banner(page).boundingBox(), page.getByRole("table").boundingBox()]);
      expect(b!.y).toBeLessThan(table!.y);
    });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
