// Ledger (h): (g) as a user sets it up (--ledger-parts exportsync-http). The simulator runs standalone in a process
// of its own (`npm run sim -- --scale 20`, its 25 sub-accounts), over real HTTP, with E1 at each of --latencies
// (the non-zero ones: 150,300) ± --jitter; Brokerdesk's side is in this process as `next start` runs it: the
// client and limiter runtime.ts makes (PLATFORM_TIMEOUT_MS, PLATFORM_JITTER_MS), the ledger startProcessLedger
// starts (trades, snapshots, prices, the environment's share and sweep), on PostgreSQL with --ledger-pg (else
// PGlite). A staff export of desk01's 90 days (the route's runExport) with the sync on (a fresh database, so the
// sync is backfilling, as after start-up) and with LEDGER_SYNC=off (no ledger), alternating on, off, on, off.
// Each run's limiter trace (slot-trace.ts) is summarised: who held E1's slots during the walk; the whole trace
// goes to reports/exportsync-trace/. Reports, never asserts.
import type { ChildProcess } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { catalog } from "@/lib/platform/catalog";
import { env } from "@/lib/env";
import { freePort } from "@/e2e/support/processes";
import { DEPOSITS_JOB } from "@/server/ledger/deposits/sync";
import { processLedgerOptions, startLedger, type Ledger } from "@/server/ledger/engine";
import { DEFAULT_ARRIVAL } from "@/server/platform/arrival";
import { PlatformClient } from "@/server/platform/client";
import { CredentialStore } from "@/server/platform/credentials";
import { SlidingWindowLimiter } from "@/server/platform/limiter";
import { SlotTrace, summarizeWalk, walkEndOf } from "@/server/platform/slot-trace";
import { runExport } from "@/server/workflows/export-run";
import { boundOf } from "./exports";
import { benchDb, seedSubaccounts, type BenchDb } from "./ledger-store";
import {
  DAY,
  exportScale,
  startSimulator,
  jitterMs,
  latencies,
  ledgerFlags,
  log,
  results,
  round,
  sleep,
  table,
} from "./support";

const E1 = "deposits.list";
const e1Limit = catalog[E1].rateLimit?.count ?? 10;
/** How long the sync runs (from a fresh start) before an export with it on begins: as (g). */
const WARM_MS = 20_000;

type Sim = { url: string; child: ChildProcess };
type Key = { apiKey: string; apiSecret: string; passphrase: string; uid: string };

async function startStandaloneSimulator(): Promise<Sim> {
  const port = await freePort();
  return { url: `http://127.0.0.1:${port}`, child: await startSimulator(port, exportScale) };
}

async function control(sim: Sim, route: string, body?: unknown): Promise<unknown> {
  const res = await fetch(
    `${sim.url}${route}`,
    body === undefined
      ? {}
      : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) },
  );
  if (!res.ok) throw new Error(`${route}: HTTP ${res.status}`);
  return res.json();
}

/** The client and limiter runtime.ts makes for one instance without Redis, with a trace. */
function runtimeClient(sim: Sim, key: Key, trace: SlotTrace): PlatformClient {
  const limiter = new SlidingWindowLimiter({
    inFlightMs: env.platform.timeoutMs + 1_000,
    arrival: { ...DEFAULT_ARRIVAL, jitterMs: env.platform.jitterMs },
    trace,
  });
  return new PlatformClient({
    baseUrl: sim.url,
    limiter,
    credentials: new CredentialStore({ main: key }),
    locale: env.platform.locale,
    timeoutMs: env.platform.timeoutMs,
  });
}

/** A fresh database with the simulator's sub-accounts in the registry (what start-up seeds in simulator mode). */
async function freshDb(uids: string[]): Promise<BenchDb> {
  const b = await benchDb(ledgerFlags.pg ? "postgres" : "pglite", ledgerFlags.pg);
  await seedSubaccounts(b.db, uids.length, uids);
  return b;
}

/**
 * The ledger as startProcessLedger starts it, in a schema of the run's own; without the leverage rollout's queue,
 * which has no plan to run here.
 */
function processLedger(b: BenchDb, client: PlatformClient, schema: string): Promise<Ledger> {
  return startLedger({ ...processLedgerOptions(b.db, client), leverageRollout: false, schema });
}

export async function exportSyncOverHttp(): Promise<void> {
  const bound = boundOf(E1);
  const distances = latencies.filter((l) => l > 0);
  log(
    `\nLedger (h): a staff export of desk01's 90 days, the simulator standalone over HTTP (scale ${exportScale}), ` +
      `E1 ${distances.join(" and ")} ms away (± ${jitterMs}), the sync on (backfilling) and off, alternating`,
  );
  const sim = await startStandaloneSimulator();
  const traceDir = path.resolve("reports/exportsync-trace");
  mkdirSync(traceDir, { recursive: true });
  const rows: Record<string, unknown>[] = [];
  try {
    const keys = (await control(sim, "/__sim/keys")) as { brokerMain: Key };
    const subs = (await control(sim, "/__sim/subaccounts")) as { items: { subUid: string; subaccountName: string }[] };
    const uids = subs.items.map((s) => s.subUid);
    const desk01 = subs.items.find((s) => s.subaccountName.startsWith("desk01@"))?.subUid;
    if (!desk01) throw new Error("the simulator has no desk01");
    for (const latencyMs of distances) {
      await control(sim, "/__sim/faults", { path: E1, kind: "latency", latencyMs, jitterMs });
      for (const [i, sync] of (["on", "off", "on", "off"] as const).entries()) {
        const trace = new SlotTrace();
        const client = runtimeClient(sim, keys.brokerMain, trace);
        const b = await freshDb(uids);
        const schema = `bench_boss_${Math.random().toString(36).slice(2, 8)}`;
        let ledger: Ledger | null = null;
        try {
          if (sync === "on") {
            ledger = await processLedger(b, client, schema);
            await sleep(WARM_MS);
          }
          // With the sync off the export is the app's first E1 call, as in the user's runs: the limiter paces by
          // answers until its first three have come (arrival.ts).
          // A clean window: the calls before no longer count when the export begins.
          await sleep(1_500);
          await control(sim, "/__sim/stats/reset", {});
          const end = Date.now();
          const params = { userId: desk01, startTime: String(end - 90 * DAY + 120_000), endTime: String(end) };
          let walkFrom = NaN;
          // How late this process's timers ran during the export: the slots' pacing is timers.
          const loop = monitorEventLoopDelay({ resolution: 10 });
          loop.enable();
          const t0 = performance.now();
          const r = await runExport({
            db: b.db,
            client,
            actor: { email: "bench@brokerdesk", role: "compliance" },
            operation: E1,
            params,
            onEvent: (e) => {
              // The walk is announced right after its start event (runExport).
              if (e.type === "start") walkFrom = Date.now();
            },
          });
          const exportEnd = Date.now();
          const secs = (performance.now() - t0) / 1000;
          loop.disable();
          const stats = (await control(sim, "/__sim/stats")) as {
            http429: number;
            operations: Record<string, { requests: number; peakPerSecond: number }>;
          };
          const { rows: progress } = await b.db.query<{ n: number; done: number }>(
            `SELECT count(*)::int AS n, count(*) FILTER (WHERE backfill_done)::int AS done FROM ledger_sync
              WHERE job = $1`,
            [DEPOSITS_JOB],
          );
          const walk = summarizeWalk(trace.holds, {
            operation: E1,
            limit: e1Limit,
            from: walkFrom,
            to: walkEndOf(trace.holds, E1, walkFrom),
          });
          const name = `${latencyMs}ms-sync-${sync}-${i < 2 ? 1 : 2}`;
          writeFileSync(
            path.join(traceDir, `${name}.json`),
            JSON.stringify({ walkFrom, exportEnd, holds: trace.holds }),
          );
          rows.push({
            latencyMs,
            sync,
            run: i < 2 ? 1 : 2,
            state: r.state,
            records: r.records,
            seconds: round(secs, 1),
            ratio: round(r.records / secs / bound, 3),
            http429: stats.http429,
            e1Requests: stats.operations[E1]?.requests ?? 0,
            peakPerSecond: stats.operations[E1]?.peakPerSecond ?? 0,
            historyComplete: `${progress[0]!.done}/${progress[0]!.n}`,
            loopDelayP99Ms: round(loop.percentile(99) / 1e6, 1),
            loopDelayMaxMs: round(loop.max / 1e6, 1),
            ...walk,
          });
          log(`  ${JSON.stringify(rows.at(-1))}`);
        } finally {
          await ledger?.stop().catch(() => undefined);
          await b.db.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => undefined);
          client.close();
          await b.dispose();
        }
      }
    }
  } finally {
    sim.child.kill("SIGTERM");
  }
  table(
    "Ledger (h): staff export, standalone simulator over HTTP, sync on vs LEDGER_SYNC=off (target >= 0.95, 0 x 429)",
    rows.map((r) => ({
      latencyMs: r.latencyMs,
      sync: r.sync,
      run: r.run,
      records: r.records,
      seconds: r.seconds,
      ratio: r.ratio,
      http429: r.http429,
      syncInFlightAtStart: r.syncInFlightAtStart,
      syncHeldAtStart: r.syncHeldAtStart,
      syncGrantedInWalk: r.syncGrantedInWalk,
      syncSlotS: r.syncSlotS,
      idleSlotS: r.idleSlotS,
      firstStaffGrantMs: r.firstStaffGrantMs,
      loopDelayP99Ms: r.loopDelayP99Ms,
    })),
  );
  results.ledgerExportSyncHttp = { runs: rows };
}
