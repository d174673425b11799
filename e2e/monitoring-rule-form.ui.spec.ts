// The rule form as compliance uses it: each kind's parameters as labelled, typed fields (from the kind's
// schema), the server's refusal said on the field it names with nothing drafted, and a draft sent from the
// keyboard; and a /deposits search made into a rule of the generic kind, its filters carried into the form.
import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./support/test";
import { signIn } from "./support/staff";

type Version = { name: string; version: number; kind: string; params: Record<string, unknown>; state: string };

async function versionsNamed(request: APIRequestContext, name: string): Promise<Version[]> {
  const { items } = (await (await request.get("/api/monitoring/rules")).json()) as { items: Version[] };
  return items.filter((v) => v.name === name);
}

const form = (page: Page) => page.getByRole("form", { name: "Draft a rule version" });

/** The field's error, by the control's aria-describedby (what a screen reader reads with it). */
async function errorOf(page: Page, label: string): Promise<string> {
  const control = form(page).getByLabel(label, { exact: true });
  await expect(control).toHaveAttribute("aria-invalid", "true");
  const ids = (await control.getAttribute("aria-describedby"))!.split(" ");
  const error = ids.find((i) => i.endsWith("-error"))!;
  return (await page.locator(`[id="${error}"]`).textContent()) ?? "";
}

test("[monitoring][rule-form] a structuring rule from its typed fields: a refused field says why on the field, then it is drafted", async ({
  page,
}) => {
  const name = `Structuring form ${Date.now()}`;
  await signIn(page, "compliance", "/alerts/rules");
  const f = form(page);
  await f.getByLabel("Name", { exact: true }).fill(name);
  await f.getByLabel("Kind", { exact: true }).selectOption({ label: "Structuring" });
  // The kind's own fields, started from its preset.
  await expect(f.getByRole("group", { name: "Parameters of Structuring" })).toBeVisible();
  await expect(f.getByLabel("Coin", { exact: true })).toHaveValue("USDT");
  await expect(f.getByLabel("Threshold", { exact: true })).toHaveValue("10000");
  await expect(f.getByLabel("Window (hours)", { exact: true })).toHaveValue("24");
  await expect(f.getByLabel("Minimum amount", { exact: true })).toHaveCount(0);

  // Over the kind's bound: the server's message, on that field, which takes the focus; nothing drafted.
  const margin = f.getByLabel("Margin under the threshold (%)", { exact: true });
  await margin.fill("60");
  await f.getByLabel("Name", { exact: true }).press("Enter");
  await expect.poll(() => errorOf(page, "Margin under the threshold (%)")).toContain("at most 50");
  await expect(margin).toBeFocused();
  expect(await versionsNamed(page.request, name)).toEqual([]);

  // Corrected from the keyboard: the draft is exactly what the fields say, numbers as numbers.
  await margin.fill("5");
  await margin.press("Enter");
  await expect(f.getByRole("status")).toContainText(`Drafted ${name} v1`);
  await expect(margin).not.toHaveAttribute("aria-invalid", "true");
  const [v] = await versionsNamed(page.request, name);
  expect(v).toMatchObject({
    kind: "structuring",
    state: "draft",
    params: { coin: "USDT", threshold: "10000", marginPct: 5, minCount: 5, windowHours: 24 },
  });
  await expect(page.getByRole("table", { name: "Rule versions" })).toContainText(`${name} v1`);
});

test("[monitoring][rule-form] the generic kind refuses a sum without a coin and a rule without a window, each on its field", async ({
  page,
}) => {
  const name = `Aggregate form ${Date.now()}`;
  await signIn(page, "compliance", "/alerts/rules");
  const f = form(page);
  await f.getByLabel("Name", { exact: true }).fill(name);
  await f.getByLabel("Kind", { exact: true }).selectOption("aggregate");
  await f.getByLabel("Measure", { exact: true }).selectOption("sum");
  await f.getByLabel("Coin", { exact: true }).fill("");
  await f.getByLabel("Window (hours)", { exact: true }).fill("0");
  await f.getByRole("button", { name: "Draft version" }).click();
  await expect.poll(() => errorOf(page, "Coin")).toContain("required to sum amounts");
  await expect.poll(() => errorOf(page, "Window (hours)")).toContain("from 1 to 8808");
  // The first refused field in the form's order takes the focus.
  await expect(f.getByLabel("Coin", { exact: true })).toBeFocused();

  // No window at all: a rule that would scan without bounds.
  await f.getByLabel("Coin", { exact: true }).fill("usdt");
  await f.getByLabel("Window (hours)", { exact: true }).fill("");
  await f.getByLabel("Window (hours)", { exact: true }).press("Enter");
  await expect.poll(() => errorOf(page, "Window (hours)")).toContain("how far back it looks");
  await expect(f.getByLabel("Coin", { exact: true })).not.toHaveAttribute("aria-invalid", "true");
  expect(await versionsNamed(page.request, name)).toEqual([]);

  await f.getByLabel("Window (hours)", { exact: true }).fill("168");
  await f.getByLabel("Statuses", { exact: true }).fill("requested, approved");
  await f.getByLabel("Window (hours)", { exact: true }).press("Enter");
  await expect(f.getByRole("status")).toContainText(`Drafted ${name} v1`);
  const [v] = await versionsNamed(page.request, name);
  expect(v!.params).toEqual({
    source: "withdrawals",
    measure: "sum",
    coin: "USDT",
    statuses: ["requested", "approved"],
    op: ">=",
    threshold: "1000000",
    windowHours: 168,
  });
});

test("[monitoring][rule-form] a /deposits search made into a rule: compliance only, its filters carried, the window and threshold asked for", async ({
  page,
  browser,
}) => {
  const name = `Search rule ${Date.now()}`;
  await signIn(page, "compliance", "/deposits");
  const { items } = (await (await page.request.get("/api/sub-accounts")).json()) as {
    items: { subUid: string; subaccountName: string | null }[];
  };
  const desk = items.find((s) => s.subaccountName?.startsWith("desk01@"))!.subUid;
  await page.goto(`/deposits?coin=BTC&status=success&minAmount=0.5&subUid=${desk}&q=someaddress`);
  await page.getByRole("link", { name: "Make a rule of this search" }).click();
  await expect(page).toHaveURL(/\/alerts\/rules\?/);

  const f = form(page);
  await expect(f.getByRole("status")).toContainText("Started from a /deposits search");
  await expect(f.getByRole("status")).toContainText("Left out (a rule cannot say them): address, tx or record ID");
  await expect(f.getByLabel("Kind", { exact: true })).toHaveValue("aggregate");
  await expect(f.getByLabel("Records", { exact: true })).toHaveValue("deposits");
  await expect(f.getByLabel("Coin", { exact: true })).toHaveValue("BTC");
  await expect(f.getByLabel("Statuses", { exact: true })).toHaveValue("success");
  await expect(f.getByLabel("Minimum amount", { exact: true })).toHaveValue("0.5");
  await expect(f.getByLabel("Sub-account UID", { exact: true })).toHaveValue(desk);
  await expect(f.getByLabel("Window (hours)", { exact: true })).toHaveValue("");
  await expect(f.getByLabel("Threshold", { exact: true })).toHaveValue("");
  await expect(f.getByLabel("Name", { exact: true })).toBeFocused();

  await page.keyboard.type(name);
  await f.getByLabel("Threshold", { exact: true }).fill("3");
  await f.getByLabel("Window (hours)", { exact: true }).fill("24");
  await page.keyboard.press("Enter");
  await expect(f.getByRole("status").last()).toContainText(`Drafted ${name} v1`);
  const [v] = await versionsNamed(page.request, name);
  expect(v).toMatchObject({
    kind: "aggregate",
    params: {
      source: "deposits",
      measure: "count",
      coin: "BTC",
      subUid: desk,
      statuses: ["success"],
      minAmount: "0.5",
      op: ">=",
      threshold: "3",
      windowHours: 24,
    },
  });

  // A lead searches the same deposits but drafts no rule: no such action.
  const lead = await (await browser.newContext({ baseURL: new URL(page.url()).origin })).newPage();
  await signIn(lead, "lead", "/deposits?coin=BTC");
  await expect(lead.getByRole("link", { name: "Export CSV" })).toBeVisible();
  await expect(lead.getByRole("link", { name: "Make a rule of this search" })).toHaveCount(0);
  await lead.context().close();
});
