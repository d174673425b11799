import "server-only";
// `npm run audit:verify`: walks the audit chain of the configured database (DATABASE_URL, else the
// embedded one in DATA_DIR) and reports the first broken link. Exit 0 when intact, 1 when broken or
// unreadable. With the embedded database, stop the app first: PGlite allows one process per data folder.
import { verifyAuditChain } from "@/server/audit";
import { getDb } from "@/server/db";
import { runCli } from "./run";

async function main(): Promise<number> {
  const db = await getDb();
  try {
    const result = await verifyAuditChain(db);
    if (result.ok) {
      console.log(`audit chain OK: ${result.rows} rows`);
      return 0;
    }
    console.log(`audit chain BROKEN at row ${result.brokenAt}: ${result.reason}`);
    console.log(`(${result.rows} rows verified before the break)`);
    return 1;
  } finally {
    await db.close();
  }
}

runCli("audit verify", main);
