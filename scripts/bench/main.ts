// `npm run bench`: page weight, export throughput, proxy overhead and staff load.
// Prints a table per benchmark and, last, one line of JSON with every figure. Options are argv flags
// (the environment is read only in lib/env.js):
//   --only weight,export,distance,overhead,load,ttd  which to run (default all, most important first)
//   --latencies 0,150,300 --jitter 20     the distance benchmark: the platform that far away (± jitter)
//   --load-latency 150                    the staff load's platform distance (± --jitter)
//   --seconds 60                          staff load duration
//   --n 300                               calls per operation and side in the overhead benchmark
//   --scale 20                            simulator scale of the export benchmark
//   --trades-days 7                       E8 export span
//   --export-via proxy                    proxy: POST /api/exports on the running app (its embedded
//                                         simulator started at --scale); in-process: runExport directly
//   --ttd-runs 10                         page loads per page in the time-to-data benchmark (after one warm-up)
//   lighthouse (not in the default set; about 20 s a page and role): --lh-pages /deposits,/audit --lh-roles lead
//   ledger (not in the default set, it runs for minutes): --ledger-pg <postgres url> (else PGlite
//   only), --ledger-parts backfill,freshness,queries,export,checknow,exportsync (and recent: until the last three
//   months of all are complete; exportsync-http: (g) against a standalone simulator over HTTP at the non-zero
//   --latencies, sync on and off), --ledger-engines postgres,pglite (queries and export), --ledger-seconds 60,
//   --ledger-subs 10000, --ledger-rows 1000000, --fresh-subs 500, --fresh-seconds 240
//   monitoring (not in the default set): every preset over --ledger-rows deposits, on --ledger-engines
//   approval (not in the default set): an approval's live deposit refresh and the whole approval, p50/p95 at each of
//   --latencies (use 0,150) on --ledger-engines (PostgreSQL with --ledger-pg), --approval-n 40 approvals each
//   monitoring-first-sync (not in the default set): the app's sync of --ledger-subs simulator sub-accounts with two
//   rules active from the start; their alerts against the reference once every history is complete (--ledger-pg)
//   screening (not in the default set): the import of a generated SDN advanced XML of --screening-addresses
//   1000000 and one screening's p95 against it, on --ledger-engines (PostgreSQL with --ledger-pg); and the
//   rescreen of --ledger-rows deposits beside the analyst's SQL (PostgreSQL); --screening-parts rescreen,import
//   leverage (not in the default set): a plan of --leverage-targets 2000 sub-accounts × 1 symbol at each of --latencies
//   (use 0,150) with --leverage-concurrency 16, beside a sequential bitget-api loop over --leverage-sdk-sample of them
//   (one key each), and the preview of --leverage-preview 10000 targets (PostgreSQL with --ledger-pg, else PGlite)
//   chaos (not in the default set; needs TEST_DATABASE_URL, as `npm run test:chaos`): --chaos-ops 1300 operations per
//   instance (three; about 1,000 withdrawals), --chaos-seed N (random unless given)
import os from "node:os";
import { exportThroughput, exportThroughputViaProxy } from "./exports";
import { approvalBench } from "./approval";
import { chaosBench } from "./chaos";
import { ledgerBench } from "./ledger";
import { leverageBench } from "./leverage";
import { monitoringBench } from "./monitoring";
import { monitoringFirstSyncBench } from "./monitoring-first-sync";
import { screeningBench } from "./screening";
import { staffLoad } from "./load";
import { proxyOverhead } from "./overhead";
import { distance } from "./distance";
import {
  exportScale,
  exportViaProxy,
  jitterMs,
  latencies,
  log,
  only,
  results,
  startApp,
  ttdScale,
  type App,
} from "./support";
import { timeToData } from "./time-to-data";
import { lighthouseBench } from "./lighthouse";
import { pageWeight } from "./weight";

/** Runs `bench` against an app of its own at --ttd-scale with its ledger sync on, stopped after. */
async function withSyncedApp(bench: (app: App) => Promise<unknown>): Promise<void> {
  const app = await startApp(ttdScale, { ledgerSync: true });
  try {
    await bench(app);
  } finally {
    await app.stop();
  }
}

async function main(): Promise<void> {
  const started = new Date().toISOString();
  const needsApp =
    ["weight", "distance", "overhead", "load"].some((b) => only.has(b)) || (only.has("export") && exportViaProxy);
  // The app's embedded simulator runs at the export scale, so each export lasts at least 20 s.
  const app = needsApp ? await startApp(exportScale) : null;
  try {
    if (app && only.has("weight")) await pageWeight(app);
    if (only.has("export")) await (app && exportViaProxy ? exportThroughputViaProxy(app) : exportThroughput());
    if (app && only.has("distance")) await distance(app, latencies, jitterMs);
    if (app && only.has("overhead")) await proxyOverhead(app);
    if (app && only.has("load")) await staffLoad(app);
  } finally {
    await app?.stop();
  }
  // An app of its own, its ledger synced (at --ttd-scale, 1 by default, the first backfill takes about a minute).
  if (only.has("ttd")) await withSyncedApp(timeToData);
  // An app of its own, its ledger synced and its sync running, as staff see the pages.
  if (only.has("lighthouse")) await withSyncedApp(lighthouseBench);
  if (only.has("ledger")) await ledgerBench();
  if (only.has("monitoring")) await monitoringBench();
  if (only.has("approval")) await approvalBench();
  if (only.has("monitoring-first-sync")) await monitoringFirstSyncBench();
  if (only.has("screening")) await screeningBench();
  if (only.has("chaos")) await chaosBench();
  if (only.has("leverage")) await leverageBench();
  const machine = {
    node: process.version,
    cpus: os.cpus().length,
    memGiB: Math.round(os.totalmem() / 2 ** 30),
    platform: `${os.platform()} ${os.arch()}`,
  };
  log(JSON.stringify({ bench: "brokerdesk", started, machine, ...results }));
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
