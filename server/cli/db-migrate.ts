import "server-only";
// `npm run db:migrate`: applies pending migrations and exits. The app also migrates when it opens the
// database; this is for deployments where the app's role may not change the schema, so an owner role
// migrates first (see server/audit/README.md).
import { getDb } from "@/server/db";
import { runCli } from "./run";

runCli("migration", async () => {
  const db = await getDb();
  const rows = await db.query<{ version: number; name: string }>(
    "SELECT version, name FROM schema_migrations ORDER BY version",
  );
  console.log(
    `schema at ${rows.rows.map((r) => `${String(r.version).padStart(4, "0")}_${r.name}`).join(", ")} (${db.engine})`,
  );
  await db.close();
});
