// One engine's run of the screening benchmark (./screening.ts), in a process of its own so that its peak RSS is
// the import's (as `npm run lists:import` runs it), not the benchmark's: opens the database (a PostgreSQL URL
// with its own search_path, or a PGlite folder), imports the file, then times screenings. Prints one JSON line.
// `node --conditions=react-server --import tsx scripts/bench/screening-child.ts <file> <sample.json> <url|dir>`
import { createReadStream } from "node:fs";
import { readFile } from "node:fs/promises";
import os from "node:os";
import { openDb } from "@/server/db";
import { importList, screenAddress } from "@/server/screening";
import { SANCTIONED_SOURCE } from "@/server/simulator/data/sanctioned";
import type { GeneratedSdn } from "./sdn-generate";

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;

const [file, sampleFile, where] = process.argv.slice(2) as [string, string, string];
const g = JSON.parse(await readFile(sampleFile, "utf8")) as GeneratedSdn;
const db = await openDb(where.startsWith("postgres") ? { url: where } : { dataDir: where });
try {
  const rssBeforeMiB = Math.round(process.memoryUsage().rss / 2 ** 20);
  const t1 = performance.now();
  const v = await importList(db, createReadStream(file, { highWaterMark: 1 << 20 }), {
    importedBy: "bench",
    fileName: "sdn_advanced.xml",
  });
  const importS = round((performance.now() - t1) / 1000, 1);
  const peakRssMiB = Math.round(process.resourceUsage().maxRSS / 1024);
  if (v.addressCount !== g.addresses) throw new Error(`imported ${v.addressCount} of ${g.addresses} addresses`);
  if (!(await screenAddress(db, SANCTIONED_SOURCE)).match) throw new Error("the sanctioned source is missed");
  // Lookups to warm the connection, the driver's code and the pages just written; then the measured ones.
  for (let i = 0; i < 500; i++) await screenAddress(db, g.sample[i % g.sample.length]!);
  const times: number[] = [];
  for (let i = 0; i < 2000; i++) {
    const listed = i % 2 === 0;
    const a = listed ? g.sample[i % g.sample.length]! : `0x${(i * 7919).toString(16).padStart(40, "0")}`;
    const t = performance.now();
    const r = await screenAddress(db, a);
    times.push(performance.now() - t);
    if (r.match !== listed) throw new Error(`${a}: match ${r.match}, expected ${listed}`);
  }
  const out = {
    addresses: v.addressCount,
    importS,
    rssBeforeMiB,
    peakRssMiB,
    lookups: times.length,
    p50ms: round(pct(times, 0.5), 3),
    p95ms: round(pct(times, 0.95), 3),
    // The machine's load while the lookups ran: a p95 of a few milliseconds is mostly waiting for a core.
    loadAvg1m: round(os.loadavg()[0]!, 1),
  };
  process.stdout.write(`${JSON.stringify(out)}\n`);
} finally {
  await db.close();
}
