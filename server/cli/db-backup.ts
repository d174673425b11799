import "server-only";
// `npm run db:backup [-- --out FILE]`: a consistent backup of the configured database (server/db/backup.ts;
// docs/backup-and-restore.md). PostgreSQL (DATABASE_URL): pg_dump while the app runs. The embedded database
// (DATA_DIR): stop the app first, as for audit:verify: one process at a time may open its data folder.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { env } from "@/lib/env";
import { openDb } from "@/server/db";
import { backupPglite, backupPostgres, describeDatabase } from "@/server/db/backup";
import { runCli } from "./run";

function outFile(): string {
  const i = process.argv.indexOf("--out");
  if (i >= 0) {
    const given = process.argv[i + 1];
    if (!given) throw new Error("--out needs a file name");
    return path.resolve(given);
  }
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  mkdirSync("backups", { recursive: true });
  return path.resolve("backups", `brokerdesk-${stamp}.${env.databaseUrl ? "pgdump" : "tar.gz"}`);
}

async function main(): Promise<void> {
  const file = outFile();
  if (env.databaseUrl) {
    const { schema } = await backupPostgres(env.databaseUrl, file);
    console.log(`PostgreSQL backup written to ${file}${schema ? ` (schema ${schema} only)` : ""}`);
    const db = await openDb({ url: env.databaseUrl });
    try {
      console.log(`the database as it stands now: ${JSON.stringify(await describeDatabase(db))}`);
    } finally {
      await db.close();
    }
    return;
  }
  const db = await openDb({ dataDir: path.resolve(env.dataDir, "pglite") });
  try {
    const summary = await describeDatabase(db);
    await backupPglite(db, file);
    console.log(`embedded database backup written to ${file}`);
    console.log(`it holds: ${JSON.stringify(summary)}`);
  } finally {
    await db.close();
  }
}

runCli("backup", main);
