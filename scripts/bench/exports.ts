// 1. Export throughput: in-process through the same PlatformClient and runExport the route uses, or
// through the proxy (POST /api/exports on the running app).
import { catalog } from "@/lib/platform/catalog";
import type { ExportableOperation } from "@/lib/platform/export-plan";
import { openDb } from "@/server/db";
import { PlatformClient } from "@/server/platform/client";
import { CredentialStore } from "@/server/platform/credentials";
import { startSimulator, type Simulator } from "@/server/simulator";
import { runExport } from "@/server/workflows/export-run";
import {
  DAY,
  exportScale,
  log,
  results,
  round,
  signIn,
  table,
  tradesDays,
  DEMO,
  type App,
  type Figures,
} from "./support";

/** The rate-limit bound of an export: requests per second × the largest page. */
export function boundOf(op: ExportableOperation): number {
  const { rateLimit, paging } = catalog[op];
  if (!paging) throw new Error(`${op} is not paged`);
  return rateLimit.count * paging.limit.max;
}

type ExportRun = { name: string; operation: ExportableOperation; params: Record<string, string>; bound: number };

/** The three exports measured: E1 one sub-account's deposits over 90 days, E4 fills over 90 days, E8 trades. */
function exportRuns(desk01: string): ExportRun[] {
  // 90 days less two minutes: E4 refuses a start older than its 90-day retention, counted from its own clock.
  const end = Date.now();
  const days90 = 90 * DAY - 120_000;
  return [
    {
      name: "E1 deposits desk01 90 d",
      operation: "deposits.list",
      params: { userId: desk01, startTime: String(end - days90), endTime: String(end) },
      bound: boundOf("deposits.list"),
    },
    {
      name: "E4 fills 90 d",
      operation: "fills.list",
      params: { startTime: String(end - days90), endTime: String(end) },
      bound: boundOf("fills.list"),
    },
    {
      name: `E8 BTCUSDT trades ${tradesDays} d`,
      operation: "market.trades",
      params: { symbol: "BTCUSDT", startTime: String(end - 60_000 - tradesDays * DAY), endTime: String(end - 60_000) },
      bound: boundOf("market.trades"),
    },
  ];
}

export async function exportThroughput(): Promise<void> {
  log(
    `\n1. Export throughput: starting a simulator at scale ${exportScale} (in-process, the route's ` +
      `runExport and client)`,
  );
  const sim: Simulator = await startSimulator({ port: 0, scale: exportScale });
  const db = await openDb({ dataDir: "memory://" });
  const client = new PlatformClient({
    baseUrl: sim.baseUrl,
    credentials: new CredentialStore({ main: sim.keys.brokerMain }),
  });
  const desk01 = sim.state
    .subaccountsOf(sim.keys.brokerMain.uid)
    .find((x) => x.subaccountName.startsWith("desk01@"))?.uid;
  if (!desk01) throw new Error("the simulator has no desk01");
  const runs = exportRuns(desk01);
  const rows: Figures[] = [];
  try {
    for (const r of runs) {
      sim.resetStats();
      const t0 = performance.now();
      const result = await runExport({
        db,
        client,
        actor: { email: "bench@brokerdesk", role: "compliance" },
        operation: r.operation,
        params: r.params,
        onEvent: () => undefined,
      });
      const secs = (performance.now() - t0) / 1000;
      const stats = sim.stats();
      const op = stats.operations[r.operation];
      rows.push({
        export: r.name,
        state: result.state,
        records: result.records,
        seconds: round(secs, 1),
        recPerSec: Math.round(result.records / secs),
        bound: r.bound,
        ratio: round(result.records / secs / r.bound, 3),
        requests: op?.requests ?? 0,
        http429: stats.http429,
        peakPerSecond: op?.peakPerSecond ?? 0,
      });
      log(`  ${JSON.stringify(rows.at(-1))}`);
    }
  } finally {
    client.close();
    await db.close();
    await sim.close();
  }
  table("1. Export throughput (target ratio >= 0.9, 0 x HTTP 429)", rows);
  results.export = { mode: "in-process (runExport + PlatformClient, not over HTTP)", scale: exportScale, runs: rows };
}

/** One export through the app: POST /api/exports, its NDJSON stream read to the end. */
export async function proxyExport(
  app: App,
  cookie: string,
  operation: ExportableOperation,
  params: Record<string, string>,
): Promise<{ records: number; seconds: number; state: string; startedAt: number }> {
  const startedAt = Date.now();
  const t0 = performance.now();
  const res = await fetch(`${app.baseUrl}/api/exports`, {
    method: "POST",
    headers: { Cookie: cookie, Origin: app.baseUrl, "Content-Type": "application/json" },
    body: JSON.stringify({ operation, params }),
  });
  if (!res.ok || !res.body) throw new Error(`POST /api/exports ${operation}: HTTP ${res.status} ${await res.text()}`);
  let rowsSeen = 0;
  let done: number | null = null;
  let error: string | null = null;
  let buffered = "";
  const decoder = new TextDecoder();
  const take = (line: string) => {
    if (!line) return;
    const e = JSON.parse(line) as { type: string; count?: number; records?: number; message?: string };
    if (e.type === "rows") rowsSeen += e.count ?? 0;
    else if (e.type === "done") done = e.records ?? null;
    else if (e.type === "error") error = e.message ?? "error";
  };
  for await (const chunk of res.body) {
    buffered += decoder.decode(chunk, { stream: true });
    const lines = buffered.split("\n");
    buffered = lines.pop() ?? "";
    lines.forEach(take);
  }
  take(buffered);
  const seconds = (performance.now() - t0) / 1000;
  return {
    records: rowsSeen,
    seconds,
    startedAt,
    state: error ?? (done === rowsSeen ? "done" : `rows ${rowsSeen} != done ${String(done)}`),
  };
}

/** desk01's UID, from the app's registry. */
export async function desk01Of(app: App, cookie: string): Promise<string> {
  const registry = (await (await fetch(`${app.baseUrl}/api/sub-accounts`, { headers: { Cookie: cookie } })).json()) as {
    items: { subUid: string; subaccountName: string | null }[];
  };
  const desk01 = registry.items.find((x) => x.subaccountName?.startsWith("desk01@"))?.subUid;
  if (!desk01) throw new Error("the registry has no desk01");
  return desk01;
}

/** The same exports through the app: POST /api/exports, reading its NDJSON stream to the end. */
export async function exportThroughputViaProxy(app: App): Promise<void> {
  log(`\n1. Export throughput through the proxy (POST /api/exports; embedded simulator at scale ${exportScale})`);
  const cookie = await signIn(app.baseUrl, DEMO.compliance);
  const rows: Figures[] = [];
  for (const r of exportRuns(await desk01Of(app, cookie))) {
    await fetch(`${app.simUrl}/__sim/stats/reset`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{}",
    });
    const { records, seconds: secs, state } = await proxyExport(app, cookie, r.operation, r.params);
    const stats = (await (await fetch(`${app.simUrl}/__sim/stats`)).json()) as {
      http429: number;
      operations: Record<string, { requests: number; peakPerSecond: number } | undefined>;
    };
    const op = stats.operations[r.operation];
    rows.push({
      export: r.name,
      state,
      records,
      seconds: round(secs, 1),
      recPerSec: Math.round(records / secs),
      bound: r.bound,
      ratio: round(records / secs / r.bound, 3),
      requests: op?.requests ?? 0,
      http429: stats.http429,
      peakPerSecond: op?.peakPerSecond ?? 0,
    });
    log(`  ${JSON.stringify(rows.at(-1))}`);
  }
  table("1. Export throughput through the proxy (target ratio >= 0.9, 0 x HTTP 429)", rows);
  results.export = { mode: "proxy (POST /api/exports, NDJSON read to the end)", scale: exportScale, runs: rows };
}
