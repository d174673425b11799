// Export files: what an export's file is called, that its 16-digit IDs survive a spreadsheet, and that a
// failed export walks on from its last whole window, in Chromium against the run's simulator.
import { expect, test } from "./support/test";
import { downloadText } from "./support/exports";
import { clearFaults, setFaults, subUid } from "./support/faults";
import { signIn } from "./support/staff";

test.describe.configure({ mode: "serial" });
test.afterEach(async ({ request }) => clearFaults(request));

const DAY = 86_400_000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

test("[deposits.list][export] a failed export resumes from its last whole window; the file is named for what it holds, IDs kept as text", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  await signIn(page, "compliance");
  const uid = await subUid(page.request, "desk01");
  const to = Date.now();
  const from = to - 250 * DAY;
  await page.goto(`/deposits/live?uid=${uid}&range=custom&from=${from}&to=${to}`);
  await expect(page.locator("tbody tr[data-row-id]").first()).toBeVisible();

  // The platform fails every call for the second window's newest slice; the first window's newest slice is
  // slow, so progress can be read while it walks (the export writes it whole before it fails).
  await setFaults(request, [
    { path: "deposits.list", kind: "latency", latencyMs: 400, query: { endTime: String(to) } },
    { path: "deposits.list", kind: "status", status: 500, query: { endTime: String(to - 90 * DAY - 1) } },
  ]);
  await page.getByRole("button", { name: "Export CSV" }).click();
  const progress = page.getByRole("group", { name: "CSV export in progress" });
  await expect(progress).toContainText(/\d+ records · time window 1 of 3/);
  await expect(progress).not.toContainText("windows 0 of");
  await expect(page.getByRole("status").filter({ hasText: "Export failed" })).toContainText("50000", {
    timeout: 30_000,
  });
  const resume = page.getByRole("button", { name: "Resume from time window 2 of 3" });
  await expect(resume).toBeVisible();

  await clearFaults(request);
  const download = page.waitForEvent("download");
  const sent = page.waitForRequest((r) => new URL(r.url()).pathname === "/api/exports" && r.method() === "POST");
  await resume.click();
  const body = (await sent).postDataJSON() as { resume?: string };
  expect(body.resume).toMatch(/^[0-9a-f-]{36}$/);
  const file = await download;
  expect(file.suggestedFilename()).toBe(`deposits_desk01_${day(from)}_${day(to)}.csv`);
  const lines = (await downloadText(file)).split("\r\n").filter(Boolean);

  // Count on our own, through the proxy, window by window and page by page.
  const ids: string[] = [];
  for (let hi = to; hi >= from; hi -= 90 * DAY + 1) {
    let cursor: string | null = null;
    for (;;) {
      const qs = new URLSearchParams({
        userId: uid,
        startTime: String(Math.max(from, hi - 90 * DAY)),
        endTime: String(hi),
        limit: "100",
        ...(cursor ? { idLessThan: cursor } : {}),
      });
      const { data } = (await (await page.request.get(`/api/platform/v2/broker/subaccount-deposit?${qs}`)).json()) as {
        data: { orderId: string }[];
      };
      ids.push(...data.map((d) => d.orderId));
      if (data.length < 100) break;
      cursor = data.at(-1)!.orderId;
    }
  }
  expect(ids.length).toBeGreaterThan(200);
  expect(lines.length - 1).toBe(ids.length);
  // Every row once, in order, each ID written as a text formula a spreadsheet keeps whole.
  expect(lines.slice(1).map((l) => l.split(",")[0])).toEqual(ids.map((id) => `"=""${id}"""`));
  expect(ids.some((id) => id.length >= 16)).toBe(true);
  await expect(page.getByRole("status").filter({ hasText: "Downloaded" })).toContainText(
    `(${ids.length.toLocaleString("en-US")} records)`,
  );
});

test("[exports] the ledgers' CSV files say what they hold", async ({ page }) => {
  await signIn(page, "compliance");
  const uid = await subUid(page.request, "desk01");
  const from = Date.UTC(2026, 7, 26);
  const to = Date.UTC(2026, 10, 24, 23);
  const name = async (path: string) =>
    /filename="([^"]+)"/.exec((await page.request.get(path)).headers()["content-disposition"] ?? "")?.[1];
  expect(await name(`/api/ledger/deposits/export?subUid=${uid}&from=${from}&to=${to}`)).toBe(
    "deposits_desk01_2026-08-26_2026-11-24.csv",
  );
  expect(await name(`/api/withdrawals/export?subUid=${uid}`)).toBe(`withdrawals_${uid}_until_${day(Date.now())}.csv`);
  expect(await name(`/api/audit/export?actor=lead`)).toBe(`audit_lead_until_${day(Date.now())}.csv`);
});
