import "server-only";
import path from "node:path";
import { env } from "@/lib/env";
import { applyMigrations } from "./migrate";
import { openPglite } from "./pglite";
import { openPostgres } from "./postgres";

export type Queryable = { query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: T[] }> };
export type Db = Queryable & {
  engine: "pglite" | "postgres";
  /** Runs fn in one transaction (BEGIN/COMMIT, ROLLBACK on throw). */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Several statements without parameters in one go, the rows of every statement in order (the job
   * engine's own migrations and maintenance are written so; `query` takes one statement).
   */
  script(sql: string): Promise<{ rows: Record<string, unknown>[] }>;
  close(): Promise<void>;
  /** The embedded database only: a consistent gzipped tarball of its data folder, taken between statements. */
  dumpDataDir?(): Promise<Blob>;
};

export { DbClosedError, DbMisuseError } from "./errors";

/** Opens a database and applies pending migrations. url = PostgreSQL URL; else dataDir ("memory://" for tests, or a folder). */
export async function openDb(opts: { url?: string; dataDir?: string }): Promise<Db> {
  const { db, withMigrationSession } = opts.url
    ? await openPostgres(opts.url)
    : await openPglite(opts.dataDir ?? "memory://");
  try {
    await applyMigrations(withMigrationSession);
  } catch (e) {
    await db.close().catch(() => undefined);
    throw e;
  }
  return db;
}

// Next compiles each route into its own bundle, so a module-level variable would give each route its
// own PGlite instance over the same folder (corruption) or its own pool. globalThis is shared.
const GLOBAL_KEY = Symbol.for("brokerdesk.db");
type DbGlobal = typeof globalThis & { [GLOBAL_KEY]?: Promise<Db> };

/** Process-wide database from env (DATABASE_URL, else PGlite in env.dataDir), kept on globalThis so every Next route bundle shares it. */
export function getDb(): Promise<Db> {
  const g = globalThis as DbGlobal;
  let pending = g[GLOBAL_KEY];
  if (!pending) {
    // The embedded database gets its own sub-folder: env.dataDir also holds other state.
    pending = env.databaseUrl
      ? openDb({ url: env.databaseUrl })
      : openDb({ dataDir: path.resolve(env.dataDir, "pglite") });
    g[GLOBAL_KEY] = pending;
    // A failed open must not be cached forever: the next request retries (e.g. PostgreSQL came up later).
    pending.catch(() => {
      if (g[GLOBAL_KEY] === pending) delete g[GLOBAL_KEY];
    });
  }
  return pending;
}
