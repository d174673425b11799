import "server-only";
// `npm run audit:which -- <file>`: which audit entry produced this file? Hashes the file (SHA-256) and looks
// the hash up in the configured database's audit log (DATABASE_URL, else the embedded one in DATA_DIR), where
// every export's outcome records the hash of the bytes sent. Exit 0 when an entry is found, 1 when none is
// (or the file or the database cannot be read). With the embedded database, stop the app first.
import { getDb } from "@/server/db";
import { whichExportOfFile } from "@/server/audit/which";
import { runCli } from "./run";

async function main(): Promise<number> {
  const file = process.argv.slice(2).find((a) => a !== "--");
  if (!file) {
    console.error("usage: npm run audit:which -- <file>");
    return 2;
  }
  const db = await getDb();
  try {
    const answer = await whichExportOfFile(db, file);
    for (const line of answer.lines) console.log(line);
    return answer.found ? 0 : 1;
  } finally {
    await db.close();
  }
}

runCli("audit which", main);
