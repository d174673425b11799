import "server-only";
// `npm run db:restore -- FILE [--force]`: restores a backup of db:backup into the configured database
// (DATABASE_URL, else the embedded one in DATA_DIR), with the app stopped. A database that holds anything is
// refused unless --force (the embedded one's folder is then kept beside it, renamed). Then the migrations this
// code has are applied, the audit chain is verified (exit 1 if broken) and what the database holds is said.
import path from "node:path";
import { env } from "@/lib/env";
import { verifyAuditChain } from "@/server/audit";
import { openDb } from "@/server/db";
import { describeDatabase, restorePglite, restorePostgres, RestoreRefused } from "@/server/db/backup";
import { runCli } from "./run";

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const force = args.includes("--force");
  const file = args.find((a) => !a.startsWith("--"));
  if (!file) throw new RestoreRefused("name the backup file: npm run db:restore -- FILE [--force]");
  const url = env.databaseUrl;
  const dataDir = path.resolve(env.dataDir, "pglite");
  if (url) await restorePostgres(url, path.resolve(file), force);
  else {
    const { movedAside } = await restorePglite(path.resolve(file), dataDir, force);
    if (movedAside) console.log(`the database that was there is kept in ${movedAside}`);
  }
  console.log(`restored from ${file}`);
  const db = await openDb(url ? { url } : { dataDir });
  try {
    const chain = await verifyAuditChain(db);
    console.log(
      chain.ok
        ? `audit chain OK: ${chain.rows} rows`
        : `audit chain BROKEN at row ${chain.brokenAt}: ${chain.reason} (${chain.rows} rows verified before the break)`,
    );
    console.log(`it holds: ${JSON.stringify(await describeDatabase(db))}`);
    return chain.ok ? 0 : 1;
  } finally {
    await db.close();
  }
}

runCli("restore", main, { is: (e) => e instanceof RestoreRefused, code: 2 });
