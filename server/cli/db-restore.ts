import "server-only";
// `npm run db:restore -- FILE [--force] [--accept-broken-chain]`: restores a backup of db:backup into the
// configured database (DATABASE_URL, else the embedded one in DATA_DIR), with the app stopped. A database that
// holds anything is refused unless --force (the embedded one's folder is then kept beside it, renamed). The
// backup's audit chain is verified before anything is replaced: a broken one is refused (exit 2, nothing
// changed) unless --accept-broken-chain. Then the migrations this code has are applied, the restored chain is
// verified again (exit 1 if broken) and what the database holds is said.
import path from "node:path";
import { env } from "@/lib/env";
import { verifyAuditChain } from "@/server/audit";
import { openDb } from "@/server/db";
import { describeDatabase, restorePglite, restorePostgres, RestoreRefused } from "@/server/db/backup";
import { runCli } from "./run";

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const force = args.includes("--force");
  const acceptBrokenChain = args.includes("--accept-broken-chain");
  const unknown = args.filter((a) => a.startsWith("--") && a !== "--force" && a !== "--accept-broken-chain");
  if (unknown.length) throw new RestoreRefused(`unknown option ${unknown.join(", ")}: --force, --accept-broken-chain`);
  const file = args.find((a) => !a.startsWith("--"));
  if (!file)
    throw new RestoreRefused("name the backup file: npm run db:restore -- FILE [--force] [--accept-broken-chain]");
  const url = env.databaseUrl;
  const dataDir = path.resolve(env.dataDir, "pglite");
  const o = { acceptBrokenChain };
  const restored = url
    ? await restorePostgres(url, path.resolve(file), force, o)
    : await restorePglite(path.resolve(file), dataDir, force, o);
  const chain = restored.chain;
  if ("movedAside" in restored && restored.movedAside)
    console.log(`the database that was there is kept in ${restored.movedAside}`);
  if (!chain.ok)
    console.log(
      `restoring a backup whose audit chain is BROKEN at row ${chain.brokenAt}: ${chain.reason} ` +
        "(accepted with --accept-broken-chain)",
    );
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
