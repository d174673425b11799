// Screening benchmarks, `npm run bench -- --only screening` (flags shared with the ledger's: --ledger-pg <url>,
// --ledger-engines postgres,pglite; --screening-addresses 1000000; --screening-parts rescreen,import: the
// rescreen of 1,000,000 deposits beside the analyst's SQL, ./screening-rescreen.ts, then the import below).
// A generated SDN advanced XML file (./sdn-generate.ts, in a temporary folder removed after), then on each
// engine, in a database of its own and a process of its own (./screening-child.ts, so the peak RSS is the import's):
// (a) its import: seconds and peak RSS (targets on PostgreSQL: at most 60 s and 500 MB; with PGlite the
//     database lives in the importing process, so its memory counts too);
// (b) one screening (screenAddress: the active version of every list, the address's entries) against it:
//     p50/p95 over 2,000 lookups after 500 to warm up, half of listed addresses, half not (target p95 <= 2 ms).
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createTestDatabase } from "@/server/db/testing";
import type { GeneratedSdn } from "./sdn-generate";
import { rescreenBench } from "./screening-rescreen";
import { ledgerFlags, log, results, round, screeningAddresses, screeningParts, table, type Figures } from "./support";

/** Runs a script of this folder in a node process of its own; answers its standard output. */
function runScript(script: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(
      process.execPath,
      ["--conditions=react-server", "--import", "tsx", path.join(import.meta.dirname, script), ...args],
      { maxBuffer: 1 << 24 },
      (e, stdout, stderr) => (e ? reject(new Error(`${script}: ${e.message}\n${stderr}`)) : resolve(stdout)),
    ),
  );
}

export async function screeningBench(): Promise<void> {
  if (screeningParts.has("rescreen")) await rescreenPart();
  if (!screeningParts.has("import")) return;
  const dir = await mkdtemp(path.join(os.tmpdir(), "brokerdesk-sdn-"));
  const rows: Figures[] = [];
  try {
    const file = path.join(dir, "sdn_advanced.xml");
    const t0 = performance.now();
    await runScript("sdn-generate.ts", [file, String(screeningAddresses)]);
    const g = JSON.parse(await readFile(`${file}.json`, "utf8")) as GeneratedSdn;
    const mib = round(g.bytes / 2 ** 20, 1);
    log(`screening: generated ${mib} MiB, ${g.addresses} addresses in ${round((performance.now() - t0) / 1000)} s`);
    for (const engine of ledgerFlags.engines) {
      if (engine !== "postgres" && engine !== "pglite") continue;
      if (engine === "postgres" && !ledgerFlags.pg) {
        log("screening: no --ledger-pg, PostgreSQL skipped");
        continue;
      }
      const tdb = engine === "postgres" ? await createTestDatabase({ engine, url: ledgerFlags.pg }) : null;
      try {
        const pg = ledgerFlags.pg ? new URL(ledgerFlags.pg) : null;
        const where = tdb ? tdb.urlFor!(decodeURIComponent(pg!.username), decodeURIComponent(pg!.password)) : dir;
        // The last line is the child's figures (the database's log lines come before it).
        const stdout = (await runScript("screening-child.ts", [file, `${file}.json`, where])).trim();
        const out = JSON.parse(stdout.slice(stdout.lastIndexOf("\n") + 1)) as Figures;
        const ok = (x: boolean) => (x ? "met" : "MISSED");
        rows.push({
          engine,
          fileMiB: mib,
          ...out,
          importTarget: engine === "postgres" ? ok(Number(out.importS) <= 60 && Number(out.peakRssMiB) <= 500) : "-",
          lookupTarget: ok(Number(out.p95ms) <= 2),
        });
        log(`  ${JSON.stringify(rows.at(-1))}`);
      } finally {
        await tdb?.dispose();
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  table("Screening: import of a generated SDN advanced XML, and one screening against it", rows);
  results.screening = { runs: rows };
}

async function rescreenPart(): Promise<void> {
  const row = await rescreenBench();
  if (!row) return;
  table("Screening: rescreening the ledger (deposits, address book, open requests) beside the analyst's SQL", [row]);
  results.screeningRescreen = row;
}
