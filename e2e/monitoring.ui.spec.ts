// Over 60 s (about 120 s of tests on the loaded 2-core machine, docs/testing.md): the holds test waits for the
// ledger's next check of the pass-through desk (LEDGER_ACTIVE_SECONDS, 60, as the ledger spec's /sync text says)
// before the evaluation can raise its holding alert, and the demo test for the evaluation of the seeded patterns.
// Waiting, not CPU: the other worker has the cores meanwhile.
// Monitoring as compliance works it: an instance with the sync on, started as `npm start` starts one (the demo's
// preset rules active from the first start). What a newcomer sees: the presets drafted by compliance and activated
// by the admin, audited, and on /alerts the seeded patterns' alerts and cases. Then compliance drafts a rule, the
// admin (a second person) activates it, its evaluation over the whole history raises alerts; compliance finds them
// on /alerts, opens a sub-account's case, writes a note, closes it as "monitored" with a reason, and the case's own
// trail shows each step. And the seeded pass-through desk (the simulator's patterns) asks to send out what it was
// just sent: the demo's holding pass-through preset stops the lead until compliance clears it from the case.
import { PRESET_OF, PRESET_RULES } from "@/lib/api/monitoring/presets";
import { expect, test } from "./support/test";
import { DEMO, sameOrigin, signIn, signInApi } from "./support/staff";
import type { Instance } from "./support/second-instance";
import { syncedInstance } from "./support/synced-instance";
import { TRAVEL_RULE } from "./support/travel-rule";

let instance: Instance;
const PRESET = PRESET_OF.pass_through.spec;
const ADDRESS = "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE";

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(240_000);
  // The run's shared instance with the sync on (e2e/support/synced-instance.ts).
  instance = await syncedInstance("monitoring");
  const ctx = await playwright.request.newContext({ baseURL: instance.baseURL });
  await signInApi(ctx, "compliance");
  await expect
    .poll(
      async () => {
        const f = (
          (await (await ctx.get("/api/ledger/deposits?limit=1")).json()) as {
            freshness: { subaccounts: number; backfilled: number };
          }
        ).freshness;
        return f.subaccounts > 0 && f.backfilled === f.subaccounts;
      },
      { timeout: 200_000, intervals: [1_000] },
    )
    .toBe(true);
  await ctx.dispose();
});

test.afterAll(async () => {
  await instance?.stop();
});

test("[monitoring][demo] a fresh start: the presets drafted by compliance, activated by the admin, audited; /alerts shows the seeded patterns' alerts and cases", async ({
  browser,
  playwright,
}) => {
  test.setTimeout(150_000);
  const compliance = await playwright.request.newContext({ baseURL: instance.baseURL });
  await signInApi(compliance, "compliance");

  type Version = { name: string; version: number; state: string; author: string; activatedBy: string | null };
  const rules = ((await (await compliance.get("/api/monitoring/rules")).json()) as { items: Version[] }).items;
  const demo = rules.filter((v) => PRESET_RULES.some((p) => p.name === v.name));
  expect(demo.map((v) => v.name).sort()).toEqual(PRESET_RULES.map((p) => p.name).sort());
  for (const v of demo)
    expect(v).toMatchObject({ version: 1, state: "active", author: DEMO.compliance, activatedBy: DEMO.admin });
  type Entry = { actor: string; outcome: string; target: string };
  const audit = async (action: string) =>
    ((await (await compliance.get(`/api/audit?action=${action}&limit=100`)).json()) as { rows: Entry[] }).rows;
  const drafts = (await audit("monitoring.rule-draft")).filter((r) => r.actor === DEMO.compliance);
  const activations = (await audit("monitoring.rule-activate")).filter((r) => r.actor === DEMO.admin);
  for (const outcome of ["intent", "success"]) {
    expect(drafts.filter((r) => r.outcome === outcome).length).toBeGreaterThanOrEqual(PRESET_RULES.length);
    expect(activations.filter((r) => r.outcome === outcome).length).toBeGreaterThanOrEqual(PRESET_RULES.length);
  }

  // Each seeded pattern desk raises its presets' alerts, gathered into its case; the holding ones hold.
  const subs = (await (await compliance.get("/api/sub-accounts")).json()) as {
    items: { subUid: string; subaccountName: string | null }[];
  };
  const uid = (desk: string) => subs.items.find((s) => s.subaccountName?.startsWith(`${desk}@`))!.subUid;
  const expected: [string, string, boolean][] = [
    ["desk11", "Structuring under 10,000 USDT", true],
    ["desk13", "Deposit velocity", false],
    ["desk14", "Dormant, then active", false],
    ["desk16", "Shared deposit source", false],
    ["desk17", "Shared deposit source", false],
    ["desk18", "Shared deposit source", false],
    ["desk19", "Large deposit", false],
    ["desk19", "Large first deposit", true],
  ];
  type Alert = { ruleName: string; holds: boolean; caseId: string | null };
  const missing = async () => {
    const left: string[] = [];
    for (const [desk, rule, holds] of expected) {
      const page = (await (await compliance.get(`/api/monitoring/alerts?subUid=${uid(desk)}`)).json()) as {
        items: Alert[];
      };
      const alert = page.items.find((a) => a.ruleName === rule);
      if (!alert?.caseId || alert.holds !== holds) left.push(`${desk}: ${rule}`);
    }
    return left;
  };
  await expect.poll(missing, { timeout: 90_000, intervals: [2_000] }).toEqual([]);

  // The sign-in page says the rules are active; compliance's /alerts shows the alerts, the structuring desk's held.
  const page = await (await browser.newContext({ baseURL: instance.baseURL })).newPage();
  await page.goto("/login");
  await expect(page.getByTestId("demo-rules")).toContainText("The preset monitoring rules are active");
  await signIn(page, "compliance", "/alerts");
  const table = page.getByRole("table", { name: "Monitoring alerts" });
  await expect(table.getByRole("row").nth(1)).toBeVisible();
  await page.goto(`/alerts?subUid=${uid("desk11")}`);
  const structuring = table.getByRole("row").filter({ hasText: "Structuring under 10,000 USDT v1" });
  // One alert per fixed 24-hour window (UTC days) its seven deposits of fourteen hours fall in: two when those
  // hours cross midnight UTC, one when the suite runs after 14:00 UTC (expecting two failed every afternoon run).
  await expect(structuring.first()).toBeVisible();
  const windows = await structuring.count();
  expect([1, 2]).toContain(windows);
  await expect(structuring.first()).toContainText("open, holding");
  await expect(
    structuring.first().getByRole("link", { name: `Open the case of sub-account ${uid("desk11")}` }),
  ).toBeVisible();
});

test("[monitoring][cases] a rule activated by a second person raises alerts; compliance works one into a closed case", async ({
  browser,
  playwright,
}) => {
  test.setTimeout(180_000);
  const headers = sameOrigin(instance.baseURL);
  const compliance = await playwright.request.newContext({ baseURL: instance.baseURL });
  await signInApi(compliance, "compliance");

  // A window-less span rule is refused on its field, and nothing is drafted.
  const bad = await compliance.post("/api/monitoring/rules", {
    headers,
    data: {
      name: "no window",
      kind: "aggregate",
      severity: "low",
      holds: false,
      params: { source: "deposits", measure: "count", op: ">=", threshold: "2" },
    },
  });
  expect(bad.status()).toBe(422);
  const refusal = (await bad.json()) as { error: { code: string; fieldErrors: Record<string, string[]> } };
  expect(refusal.error.code).toBe("invalid_input");
  expect(Object.keys(refusal.error.fieldErrors)).toEqual(["windowHours"]);

  const drafted = await compliance.post("/api/monitoring/rules", {
    headers,
    data: {
      name: "USDT deposits",
      kind: "large_deposit",
      severity: "medium",
      holds: false,
      params: { unit: "coin", coin: "USDT", minAmount: "100000" },
    },
  });
  expect(drafted.status()).toBe(200);
  const version = (await drafted.json()) as { id: string; ruleId: string };
  // The author cannot activate their own draft.
  const own = await compliance.post(`/api/monitoring/rule-versions/${version.id}/activate`, { headers });
  expect(own.status()).toBe(403);

  const admin = await playwright.request.newContext({ baseURL: instance.baseURL });
  await signInApi(admin, "admin");
  const activated = await admin.post(`/api/monitoring/rule-versions/${version.id}/activate`, { headers });
  expect(activated.status()).toBe(200);

  type Page = { items: { subUid: string; caseId: string | null }[]; total: number };
  let first: Page["items"][number] | undefined;
  await expect
    .poll(
      async () => {
        // Its own alerts (the demo's rules raise others).
        const page = (await (
          await compliance.get(`/api/monitoring/alerts?ruleId=${version.ruleId}&limit=5`)
        ).json()) as Page;
        first = page.items.find((a) => a.caseId);
        return page.total > 0 && first !== undefined;
      },
      { timeout: 60_000, intervals: [1_000] },
    )
    .toBe(true);

  const page = await (await browser.newContext({ baseURL: instance.baseURL })).newPage();
  await signIn(page, "compliance", `/alerts?subUid=${first!.subUid}&ruleId=${version.ruleId}`);
  const table = page.getByRole("table", { name: "Monitoring alerts" });
  await expect(table.getByRole("row").nth(1)).toContainText("USDT deposits v1");
  await table
    .getByRole("link", { name: `Open the case of sub-account ${first!.subUid}` })
    .first()
    .click();
  await expect(page).toHaveURL(/\/alerts\/cases\//);

  await page.getByRole("button", { name: "Assign to me" }).click();
  await expect(page.getByText("compliance@demo.brokerdesk").first()).toBeVisible();
  await page.getByRole("textbox", { name: "Note", exact: true }).fill("Deposits match the desk's declared funding.");
  await page.getByRole("button", { name: "Add note" }).click();
  await expect(page.getByText("Deposits match the desk's declared funding.")).toBeVisible();
  await page.getByRole("combobox", { name: /^Outcome/ }).selectOption("monitored");
  await page
    .getByRole("textbox", { name: "Reason for closing", exact: true })
    .fill("Keep watching this desk's USDT funding");
  await page.getByRole("button", { name: "Close case" }).click();
  await expect(page.getByText("monitored by compliance@demo.brokerdesk")).toBeVisible();

  const trail = page.getByRole("region", { name: "Trail (audit entries of this case)" });
  for (const action of ["monitoring.case-update", "monitoring.case-note", "monitoring.case-close"])
    await expect(trail.getByText(new RegExp(`${action.replace(".", "\\.")} \\(success\\)`)).first()).toBeVisible();
  // Closed: nothing more can be done on it.
  await expect(page.getByRole("button", { name: "Add note" })).toHaveCount(0);
});

test("[monitoring][holds] the seeded pass-through desk asks for its money: held, worked as a case, cleared, approved, closed", async ({
  browser,
  playwright,
}) => {
  test.setTimeout(240_000);
  const headers = sameOrigin(instance.baseURL);
  const api = async (role: "compliance" | "broker") => {
    const ctx = await playwright.request.newContext({ baseURL: instance.baseURL });
    await signInApi(ctx, role);
    return ctx;
  };
  const compliance = await api("compliance");
  const subs = (await (await compliance.get("/api/sub-accounts")).json()) as {
    items: { subUid: string; subaccountName: string | null; label: string | null }[];
  };
  const desk = subs.items.find((s) => s.subaccountName?.startsWith("desk13@"));
  expect(desk?.label).toBe("Desk 13 (pass-through)");
  const subUid = desk!.subUid;

  // The demo's pass-through preset, holding, active from the start (drafted by compliance, activated by the admin).
  const rules = (await (await compliance.get("/api/monitoring/rules")).json()) as {
    items: { name: string; state: string; holds: boolean; params: unknown }[];
  };
  const pass = rules.items.find((v) => v.name === "Pass-through" && v.state === "active");
  expect(pass).toMatchObject({ holds: true, params: PRESET.params });

  // The desk was sent 10,800,000 USDT in the last day (the seeded pattern); the broker asks to send it all out.
  const broker = await api("broker");
  const requested = await broker.post("/api/withdrawals", {
    headers,
    data: {
      subUid,
      coin: "USDT",
      dest: "on_chain",
      travelRule: TRAVEL_RULE,
      address: ADDRESS,
      amount: "10800000",
      reason: "client payout",
    },
  });
  expect(requested.status(), await requested.text()).toBe(200);

  // Screened at request time, and judged once the ledger holds the desk's deposits up to the request: its next
  // check (every LEDGER_ACTIVE_SECONDS, 60) passes it and the sweep queues the evaluation. The holding alert is
  // then on /alerts for compliance, its deposits with it.
  type Alert = { ruleName: string; holds: boolean; status: string; records: { kind: string; id: string }[] };
  let alert: Alert | undefined;
  await expect
    .poll(
      async () => {
        const page = (await (await compliance.get(`/api/monitoring/alerts?subUid=${subUid}`)).json()) as {
          items: Alert[];
        };
        alert = page.items.find((a) => a.ruleName === "Pass-through");
        return alert?.status;
      },
      { timeout: 90_000, intervals: [1_000] },
    )
    .toBe("open");
  const deposits = alert!.records.filter((r) => r.kind === "deposit").map((r) => r.id);
  expect(deposits.length).toBeGreaterThanOrEqual(12);

  const page = await (await browser.newContext({ baseURL: instance.baseURL })).newPage();
  await signIn(page, "compliance", `/alerts?subUid=${subUid}`);
  const row = page
    .getByRole("table", { name: "Monitoring alerts" })
    .getByRole("row")
    .filter({ hasText: "Pass-through v1" });
  await expect(row).toContainText("open, holding");
  await row.getByRole("link", { name: `Open the case of sub-account ${subUid}` }).click();
  await expect(page).toHaveURL(/\/alerts\/cases\//);
  for (const id of deposits.slice(0, 2)) {
    await page.getByRole("textbox", { name: "Deposit orderId or withdrawal ID to attach" }).fill(id);
    await page.getByRole("button", { name: "Attach record" }).click();
    await expect(page.getByRole("link", { name: `deposit ${id}` })).toBeVisible();
  }
  await page
    .getByRole("textbox", { name: "Note", exact: true })
    .fill("Twelve deposits of 900,000 USDT, all asked out.");
  await page.getByRole("button", { name: "Add note" }).click();
  await expect(page.getByText("Twelve deposits of 900,000 USDT, all asked out.")).toBeVisible();

  // The lead sees that compliance holds it in the queue (not why: no rule, no case), and the approval is refused
  // while the hold stands.
  const lead = await (await browser.newContext({ baseURL: instance.baseURL })).newPage();
  await signIn(lead, "lead", "/withdrawals");
  const queue = lead.getByRole("region", { name: "Approval queue" });
  const waiting = queue.locator("tr", { hasText: "client payout" });
  await expect(waiting.getByTestId("compliance-hold")).toContainText("Held by compliance");
  await expect(waiting).not.toContainText("Pass-through");
  const approve = async () => {
    await waiting.getByRole("button", { name: /^Approve / }).click();
    const dialog = lead.getByRole("dialog", { name: "Approve and send this withdrawal" });
    await dialog.getByLabel("Amount").fill("10800000");
    await dialog.getByLabel("Address").fill(ADDRESS);
    await dialog.getByRole("button", { name: "Approve and send" }).click();
    return dialog;
  };
  const refused = await approve();
  await expect(refused.getByText(/Held by compliance: this withdrawal cannot be approved/)).toBeVisible();
  await expect(refused).not.toContainText("Pass-through");
  await lead.keyboard.press("Escape");
  // The requester reads that their request waits for compliance, and nothing of why.
  const requester = await (await browser.newContext({ baseURL: instance.baseURL })).newPage();
  await signIn(requester, "broker", "/withdrawals");
  const own = requester.getByRole("list", { name: "Your latest withdrawal requests" }).getByRole("listitem").first();
  await expect(own.getByTestId("compliance-hold")).toHaveText(/^Waiting for compliance/);
  await expect(own).not.toContainText("Pass-through");

  // Compliance clears the hold with a reason; the lead approves; the platform sends it.
  await page.getByRole("textbox", { name: "Why the hold can be cleared" }).fill("Funding source documented");
  await page.getByRole("button", { name: "Clear hold" }).click();
  await expect(page.getByText(/cleared by compliance@demo\.brokerdesk: “Funding source documented”/)).toBeVisible();
  await lead.reload();
  await expect(waiting.getByTestId("compliance-hold")).toHaveCount(0);
  await approve();
  await expect(queue.getByTestId("queue-notice")).toContainText(/Approved [\d,.]+ USDT: Accepted by the platform/);

  // The case closes as monitored; its trail and the audit log show each step.
  await page.getByRole("combobox", { name: /^Outcome/ }).selectOption("monitored");
  await page.getByRole("textbox", { name: "Reason for closing", exact: true }).fill("Watch the desk's next funding");
  await page.getByRole("button", { name: "Close case" }).click();
  await expect(page.getByText("monitored by compliance@demo.brokerdesk")).toBeVisible();
  const trail = page.getByRole("region", { name: "Trail (audit entries of this case)" });
  for (const action of ["case-attach", "case-note", "hold-clear", "case-close"])
    await expect(trail.getByText(`monitoring.${action} (success)`).first()).toBeVisible();
  await page.goto("/audit");
  const audit = page.getByRole("table").first();
  for (const action of ["withdrawals.request", "monitoring.hold-clear"])
    await expect(audit.getByRole("row").filter({ hasText: action }).first()).toBeVisible();
  const approvals = audit.getByRole("row").filter({ hasText: "withdrawals.approve" });
  await expect(approvals.filter({ hasText: DEMO.lead }).first()).toBeVisible();
  await expect(approvals).not.toHaveCount(0);
  // The rule's activation, at the start, by the demo admin.
  await page.goto("/audit?action=monitoring.rule-activate");
  await expect(audit.getByRole("row").filter({ hasText: DEMO.admin }).first()).toBeVisible();
});
