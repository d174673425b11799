// A leverage plan in Chromium: a lead filters the registry ("Desk 0", only sub-accounts with a key: desk01–desk04,
// whose keys are configured; desk05 has one for admins only), previews (the new value for each, nothing recorded
// yet), makes the plan, starts it, watches its progress to the end and exports the report, sealed. An instance of
// its own with the ledger's job engine on (the rollout runs there) and four sub-account keys.
import { readFileSync } from "node:fs";
import path from "node:path";
import { freePort } from "./support/processes";
import { downloadText } from "./support/exports";
import { startInstance, type Instance } from "./support/second-instance";
import { signIn } from "./support/staff";
import { expect, test } from "./support/test";

type Seed = { subaccounts: { uid: string; subaccountName: string }[] };
const seed = JSON.parse(readFileSync(path.resolve("server/simulator/fixtures/seed42-first25.json"), "utf8")) as Seed;
const uidOf = (desk: string) => seed.subaccounts.find((s) => s.subaccountName.startsWith(`${desk}@`))!.uid;
const KEYED = ["desk01", "desk02", "desk03", "desk04"].map(uidOf);

let instance: Instance;
let simPort: number;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  simPort = await freePort();
  const keys: Record<string, string> = {};
  for (const [i, uid] of [...KEYED, uidOf("desk05")].entries()) {
    keys[`PLATFORM_KEY_SUB${uid}_API_KEY`] = `bd_e2e_plan_${i}`;
    keys[`PLATFORM_KEY_SUB${uid}_API_SECRET`] = `e2e-plan-secret-${i}-${Date.now()}`;
    keys[`PLATFORM_KEY_SUB${uid}_API_PASSPHRASE`] = "bd-e2e-sub-passphrase";
  }
  keys[`PLATFORM_KEY_SUB${uidOf("desk05")}_ROLES`] = "admin";
  instance = await startInstance("leverage-plans", {
    SIM_PORT: String(simPort),
    SIM_SEED: "42",
    LEDGER_SYNC: "on",
    LEDGER_SWEEP_SECONDS: "1",
    ...keys,
  });
});

test.afterAll(async () => {
  await instance?.stop();
});

test("[leverage][plans] a lead filters, previews, starts a plan, watches it finish and exports its report", async ({
  browser,
  playwright,
}) => {
  test.setTimeout(120_000);
  const page = await (await browser.newContext({ baseURL: instance.baseURL, acceptDownloads: true })).newPage();
  await signIn(page, "lead", "/leverage/plans");
  const targets = page.getByRole("form", { name: "Plan targets" });
  await targets.getByLabel("Symbol (USDT-FUTURES)").fill("BTCUSDT");
  await targets.getByLabel("New leverage").fill("12");
  await targets.getByLabel("Label contains").fill("Desk 0");
  await targets.getByLabel("Only sub-accounts with a key").check();
  await targets.getByRole("button", { name: "Preview" }).click();

  const preview = page.getByRole("region", { name: "Preview" });
  await expect(preview.getByText("With a key (4)")).toBeVisible();
  for (const uid of KEYED) await expect(preview.getByRole("row", { name: new RegExp(uid) })).toContainText("12");
  await expect(preview.getByText("not set through Brokerdesk").first()).toBeVisible();

  const make = page.getByRole("form", { name: "Make the plan" });
  await make.getByLabel(/Why/).fill("risk event: BTC down to 12x");
  await make.getByRole("button", { name: /Make the plan \(4 to send\)/ }).click();

  const plan = page.getByRole("listitem").filter({ hasText: "risk event: BTC down to 12x" });
  await expect(plan.getByTestId("plan-state")).toHaveText("ready");
  await plan.getByRole("button", { name: "Start" }).click();
  await expect(plan.getByTestId("plan-state")).toHaveText("done", { timeout: 60_000 });
  await expect(plan.getByTestId("plan-progress")).toContainText("4 of 4 answered: 4 set, 0 refused");

  // The report on the page, per target: the platform's own code for each.
  await plan.getByText("Report per target").click();
  const report = plan.getByRole("table", { name: /The targets of plan/ });
  for (const uid of KEYED) await expect(report.getByRole("row", { name: new RegExp(uid) })).toContainText("00000");
  await plan.getByLabel("Targets in state").selectOption("failed");
  await expect(report).toContainText("No target in this state.");

  const sim = await playwright.request.newContext();
  for (const uid of KEYED) {
    const res = await sim.get(
      `http://127.0.0.1:${simPort}/__sim/accounts/${uid}/leverage?productType=USDT-FUTURES&symbol=BTCUSDT`,
    );
    expect(((await res.json()) as { crossMarginLeverage: string }).crossMarginLeverage).toBe("12");
  }

  const file = page.waitForEvent("download");
  await plan.getByRole("link", { name: "Export report (CSV)" }).click();
  const csv = await downloadText(await file);
  const lines = csv.split(/\r?\n/).filter(Boolean);
  expect(lines[0]).toBe("ord,subUid,symbol,current,leverage,hasKey,state,sends,code,message,answeredAt");
  expect(lines).toHaveLength(5);
  for (const line of lines.slice(1)) expect(line).toMatch(/,BTCUSDT,,12,true,done,1,00000,/);
});
