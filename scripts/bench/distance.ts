// Distance: the platform 0, 150 and 300 ms away (± jitter), side by side in one run. What a user
// could write instead (bitget-api, unchanged, walking desk01's 90 days of deposits with E1's cursor) against
// Brokerdesk's export of the same records (POST /api/exports on the running app). The bound is E1's
// 10 calls/s × 100 records = 1,000 records/s; every figure comes with the 429s the platform answered.
import { RestClientV2 } from "bitget-api";
import { catalog } from "@/lib/platform/catalog";
import { SIMULATOR_DEMO_KEY } from "@/lib/env";
import { boundOf, desk01Of, proxyExport } from "./exports";
import {
  DAY,
  DEMO,
  distanceClients,
  exportScale,
  log,
  results,
  round,
  signIn,
  sleep,
  table,
  type App,
  type Figures,
} from "./support";

const OP = "deposits.list";
const E1 = catalog[OP];

type Loop = { name: string; pauseMs: number; on429: "stop" | "wait-1s" };
const LOOPS: Loop[] = [
  { name: "bitget-api, back to back", pauseMs: 0, on429: "stop" },
  { name: "bitget-api, 100 ms sleep between calls", pauseMs: 100, on429: "stop" },
  { name: "bitget-api, back to back, wait 1 s on a 429", pauseMs: 0, on429: "wait-1s" },
];

type Sim = {
  http429: number;
  operations: Record<string, { requests: number; peakPerSecond: number; acceptedTimes: number[] } | undefined>;
};

/**
 * Where a run's time went, from when the platform saw each request: `gapMs`, the mean time from a request to
 * the one `limit` after it (the pacing; 1,000 ms is the bound), `extraRequests` beyond the full pages the
 * records need (partial pages), and the run's time outside its first and last arrival: `startS` from the run's
 * start to the first arrival (its set-up and the trip in), `endS` from the last arrival to its end (the trip
 * back and the run's close).
 */
function breakdown(
  times: number[],
  limit: number,
  records: number,
  pageSize: number,
  seconds: number,
  requests: number,
  startedAt: number,
): Figures {
  let sum = 0;
  for (let k = 0; k + limit < times.length; k++) sum += (times[k + limit] as number) - (times[k] as number);
  const pairs = Math.max(0, times.length - limit);
  const spanS = times.length > 1 ? ((times.at(-1) as number) - (times[0] as number)) / 1000 : 0;
  const startS = times.length ? ((times[0] as number) - startedAt) / 1000 : 0;
  return {
    gapMs: pairs ? round(sum / pairs, 1) : "",
    extraRequests: requests - Math.ceil(records / pageSize),
    startS: round(startS, 2),
    endS: round(seconds - spanS - startS, 2),
  };
}

async function simCall(app: App, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(
    `${app.simUrl}${path}`,
    body === undefined
      ? {}
      : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) },
  );
  return res.json();
}

/** The script a user would write: one cursor walk, newest first, until a short page. */
async function sdkWalk(
  app: App,
  loop: Loop,
  params: Record<string, string>,
): Promise<{ records: number; seconds: number; state: string; startedAt: number }> {
  const client = new RestClientV2({
    apiKey: SIMULATOR_DEMO_KEY.apiKey,
    apiSecret: SIMULATOR_DEMO_KEY.apiSecret,
    apiPass: SIMULATOR_DEMO_KEY.passphrase,
    baseUrl: app.simUrl,
  });
  const paging = E1.paging;
  if (!paging) throw new Error("E1 is paged in the catalog");
  const limit = paging.limit.max;
  let cursor: string | null | undefined;
  let records = 0;
  let state = "done";
  const startedAt = Date.now();
  const t0 = performance.now();
  for (;;) {
    let data: unknown;
    try {
      const res = await client.subaccountDepositRecords({
        ...params,
        limit: String(limit),
        ...(cursor ? { idLessThan: cursor } : {}),
      } as never);
      data = res.data;
    } catch (e) {
      const code =
        (e as { body?: { code?: string }; code?: number }).body?.code ?? String((e as { code?: number }).code ?? e);
      if (loop.on429 === "wait-1s" && code === "429") {
        await sleep(1_000);
        continue;
      }
      state = `stopped at ${code} after ${records} records`;
      break;
    }
    const rows = E1.response.parse(data);
    records += paging.rows(rows).length;
    cursor = paging.nextCursor(rows, limit);
    if (!cursor) break;
    if (loop.pauseMs) await sleep(loop.pauseMs);
  }
  return { records, seconds: (performance.now() - t0) / 1000, state, startedAt };
}

export async function distance(app: App, latencies: number[], jitterMs: number): Promise<void> {
  log(
    `\nDistance: desk01's deposits over 90 days (simulator scale ${exportScale}), the platform ` +
      `${latencies.join(" / ")} ms away ± ${jitterMs} ms`,
  );
  const cookie = await signIn(app.baseUrl, DEMO.compliance);
  const desk01 = await desk01Of(app, cookie);
  const bound = boundOf(OP);
  const rows: Figures[] = [];
  try {
    for (const latencyMs of latencies) {
      await fetch(`${app.simUrl}/__sim/faults`, { method: "DELETE" });
      if (latencyMs > 0) await simCall(app, "/__sim/faults", { path: OP, kind: "latency", latencyMs, jitterMs });
      const end = Date.now();
      const params = { userId: desk01, startTime: String(end - 90 * DAY + 120_000), endTime: String(end) };
      const runs: {
        name: string;
        go: () => Promise<{ records: number; seconds: number; state: string; startedAt: number }>;
      }[] = [
        ...(distanceClients.has("sdk")
          ? LOOPS.map((loop) => ({ name: loop.name, go: () => sdkWalk(app, loop, params) }))
          : []),
        // Twice: the first export after the distance changed starts knowing nothing of it; the second starts from
        // the app's latest E1 answer (as every export does while the ledger's sync or staff call E1 within the
        // minute before: server/workflows/export-walk.ts, initialWalks).
        ...(distanceClients.has("brokerdesk")
          ? [
              { name: "Brokerdesk export (POST /api/exports)", go: () => proxyExport(app, cookie, OP, params) },
              { name: "Brokerdesk export, again", go: () => proxyExport(app, cookie, OP, params) },
            ]
          : []),
      ];
      for (const run of runs) {
        // A clean second between runs: no run starts inside another's rate window.
        await sleep(1_100);
        await simCall(app, "/__sim/stats/reset", {});
        const r = await run.go();
        const stats = (await simCall(app, "/__sim/stats")) as Sim;
        const op = stats.operations[OP];
        const requests = op?.requests ?? 0;
        rows.push({
          latencyMs,
          jitterMs,
          client: run.name,
          state: r.state,
          records: r.records,
          seconds: round(r.seconds, 1),
          recPerSec: Math.round(r.records / r.seconds),
          ratio: round(r.records / r.seconds / bound, 3),
          requests,
          http429: stats.http429,
          peakPerSecond: op?.peakPerSecond ?? 0,
          ...breakdown(
            op?.acceptedTimes ?? [],
            E1.rateLimit.count,
            r.records,
            E1.paging?.limit.max ?? 100,
            r.seconds,
            requests,
            r.startedAt,
          ),
        });
        log(`  ${JSON.stringify(rows.at(-1))}`);
      }
    }
  } finally {
    await fetch(`${app.simUrl}/__sim/faults`, { method: "DELETE" }).catch(() => undefined);
  }
  table(
    `Distance: records/s against the bound (${bound}/s); target for Brokerdesk >= 0.95 at every latency, 0 x HTTP 429`,
    rows,
  );
  results.distance = { scale: exportScale, bound, jitterMs, runs: rows };
}
