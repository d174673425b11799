// 5. Time to data (issue 15, item 5): in Chromium, from navigation to the first data row of each read
// page, with the platform 150 ms away (the simulator's latency fault on every operation). Target: p50 ≤ 1 s,
// p95 ≤ 2 s per page. One warm-up load per page is not counted (the first load fetches the page's scripts,
// which a staff member's browser then keeps).
import { chromium } from "@playwright/test";
import { DEMO, log, results, round, signIn, table, ttdRuns, type App } from "./support";

/** Read pages; each shows data rows with its own defaults (the rebate page its lookup's answer). */
const READ_PAGES = [
  "/deposits", "/withdrawals", "/sub-accounts", "/assets", "/rebates", "/spot/plan-orders", "/spot/fills",
  "/market/trades", "/futures/oi-limits", "/risk-units", "/audit", "/sync",
] as const;
const FIRST_DATA: Partial<Record<(typeof READ_PAGES)[number], string>> = { "/rebates": '[data-testid="rebate-info"][aria-busy="false"] dd' };
const LATENCY_MS = 150;
const TARGET = { p50: 1000, p95: 2000 };
const CHROMIUM_ARGS = [
  "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
  "--disable-sync", "--no-first-run", "--disable-quic",
];

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;

export async function timeToData(app: App): Promise<void> {
  const sim = (path: string, body: unknown) =>
    fetch(`${app.simUrl}${path}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  await sim("/__sim/faults", { path: "*", kind: "latency", latencyMs: LATENCY_MS });
  // A lead may read every page above. A fresh app has no withdrawal and no binding: make one of each.
  const cookieHeader = await signIn(app.baseUrl, DEMO.lead);
  await seed(app, await signIn(app.baseUrl, DEMO.broker));
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
  const rows: Record<string, unknown>[] = [];
  try {
    const context = await browser.newContext();
    await context.addCookies(
      cookieHeader.split("; ").map((pair) => {
        const eq = pair.indexOf("=");
        return { name: pair.slice(0, eq), value: pair.slice(eq + 1), url: app.baseUrl };
      }),
    );
    const page = await context.newPage();
    for (const path of READ_PAGES) {
      const times: number[] = [];
      let failure = "";
      for (let run = 0; run <= ttdRuns && !failure; run++) {
        const started = performance.now();
        try {
          await page.goto(`${app.baseUrl}${path}`, { waitUntil: "commit" });
          await page.locator(FIRST_DATA[path] ?? "tr[data-row-id]").first().waitFor({ state: "visible", timeout: 15_000 });
        } catch {
          failure = (await page.getByRole("alert").first().textContent({ timeout: 500 }).catch(() => null)) ?? "no data row within 15 s";
          break;
        }
        if (run > 0) times.push(performance.now() - started);
      }
      times.sort((a, b) => a - b);
      const p50 = round(quantile(times, 0.5), 0);
      const p95 = round(quantile(times, 0.95), 0);
      rows.push({ page: path, runs: times.length, p50ms: p50, p95ms: p95, ok: !failure && p50 <= TARGET.p50 && p95 <= TARGET.p95, failure });
    }
  } finally {
    await browser.close();
    await fetch(`${app.simUrl}/__sim/faults`, { method: "DELETE" }).catch(() => undefined);
  }
  table(`5. Time to data in Chromium (platform ${LATENCY_MS} ms away; target p50 <= ${TARGET.p50} ms, p95 <= ${TARGET.p95} ms)`, rows);
  if (rows.some((r) => r.failure)) log("  a page with a failure showed no data row: see its failure column");
  results.timeToData = { latencyMs: LATENCY_MS, runsPerPage: ttdRuns, target: TARGET, pages: rows };
}

/** One withdrawal request (an internal transfer between two sub-accounts) and one risk-unit binding. */
async function seed(app: App, brokerCookie: string): Promise<void> {
  const headers = { Cookie: brokerCookie, Origin: app.baseUrl, "Content-Type": "application/json" };
  const registry = (await (await fetch(`${app.baseUrl}/api/sub-accounts`, { headers })).json()) as {
    items: { subUid: string; subaccountName?: string; status?: string }[];
  };
  const unit = registry.items.find((s) => s.subaccountName?.startsWith("riskunit"))?.subUid;
  const [from, to, bound] = registry.items.filter((s) => s.subUid !== unit && s.status === "normal").map((s) => s.subUid);
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${app.baseUrl}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`time to data: seeding ${path} answered ${res.status}: ${await res.text()}`);
  };
  await post("/api/withdrawals", { subUid: from, coin: "USDT", dest: "internal_transfer", address: to, amount: "1", reason: "time-to-data benchmark" });
  await post("/api/risk-units", { uid: bound, riskUnitId: unit, operate: "bind" });
}
