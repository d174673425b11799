import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import type { Db, Queryable } from "./types";
import { DbClosedError, DbMisuseError } from "./errors";
import type { MigrationSession } from "./migrate";
import { runTransaction } from "./transaction";

/**
 * PGlite is one connection. Every statement and every whole transaction runs through one promise queue,
 * so concurrent route handlers never interleave statements inside each other's BEGIN/COMMIT.
 */
export async function openPglite(dataDir: string, from?: { loadDataDir: Blob | File }) {
  if (!dataDir.startsWith("memory://")) mkdirSync(dataDir, { recursive: true });
  // `from`: start from a dumped data folder (tests clone a migrated template: ~0.5 s instead of initdb's ~2 s).
  // pg_trgm: the registry's search by any part of a name (migration 0026); loaded on every open, as a data
  // folder that has the extension needs its library.
  const extensions = { pg_trgm };
  const pg = await PGlite.create(dataDir, from ? { loadDataDir: from.loadDataDir, extensions } : { extensions });

  let tail: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(fn: () => Promise<T>): Promise<T> => {
    const result = tail.then(fn);
    tail = result.catch(() => undefined);
    return result;
  };

  const scope = { als: new AsyncLocalStorage<object>(), token: {} };
  let closed = false;
  const guard = () => {
    if (closed) throw new DbClosedError();
    if (scope.als.getStore() === scope.token) throw new DbMisuseError();
  };
  const raw = async (sql: string, params?: unknown[]) => {
    const r = await pg.query<Record<string, unknown>>(sql, params);
    return { rows: r.rows };
  };

  const db: Db = {
    engine: "pglite",
    async query<T = Record<string, unknown>>(sql: string, params?: unknown[]) {
      guard();
      return exclusive(async () => (await raw(sql, params)) as { rows: T[] });
    },
    async transaction<T>(fn: (tx: Queryable) => Promise<T>) {
      guard();
      return exclusive(() => runTransaction(raw, scope, fn));
    },
    async script(sql: string) {
      guard();
      return exclusive(async () => ({
        rows: (await pg.exec(sql)).flatMap((r) => r.rows as Record<string, unknown>[]),
      }));
    },
    async close() {
      if (closed) return;
      closed = true;
      // Let queued work that was accepted before close() finish, then release the data folder.
      await exclusive(() => pg.close());
    },
    // In the queue, so no transaction is half-way through: what a backup of a running instance needs.
    async dumpDataDir() {
      guard();
      return exclusive(async () => {
        await pg.exec("CHECKPOINT");
        return pg.dumpDataDir("gzip");
      });
    },
  };

  const withMigrationSession = <T>(fn: (s: MigrationSession) => Promise<T>): Promise<T> =>
    exclusive(() =>
      fn({
        query: raw,
        exec: async (sql) => {
          await pg.exec(sql);
        },
      }),
    );

  /** A tarball of the data folder, for openPglite's `from`. */
  const dump = () => exclusive(() => pg.dumpDataDir("none"));

  return { db, withMigrationSession, dump };
}
