import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import pg from "pg";
import { logger } from "@/server/log";
import type { Db, Queryable } from "./types";
import { DbClosedError, DbMisuseError } from "./errors";
import type { MigrationSession } from "./migrate";
import { runTransaction } from "./transaction";

// Arbitrary constant naming "Brokerdesk migrations" for pg_advisory_lock: instances starting together
// wait for each other instead of racing to create the same tables.
const MIGRATION_LOCK_KEY = 1111772487;

const INT8_OID = 20;

// Same JS types as PGlite returns: int8 (ids, count(*)) as a number, not pg's default string. Only
// values that fit exactly; larger ones stay strings rather than silently losing digits.
const getTypeParser = ((oid: number, format?: "text" | "binary") => {
  if (oid === INT8_OID && format !== "binary") {
    return (value: string) => {
      const n = Number(value);
      return Number.isSafeInteger(n) ? n : value;
    };
  }
  return pg.types.getTypeParser(oid, format);
}) as typeof pg.types.getTypeParser;

/**
 * A client checked out of the pool has lost the pool's idle error listener, and pg emits a connection that
 * breaks between two of its queries (the server restarted, the network dropped it) as an 'error' event on it:
 * with no listener, that ends the process. Listened to while checked out, the failure marks the client broken
 * (it is not given back to the pool) and the transaction's next query fails as an ordinary error. Returns the
 * function that stops listening, called when the client goes back.
 */
function watchCheckedOut(client: pg.PoolClient, onLost: (e: Error) => void): () => void {
  const listener = (e: Error) => {
    logger.error({ err: e.message }, "PostgreSQL connection lost while checked out");
    onLost(e);
  };
  client.on("error", listener);
  return () => void client.off("error", listener);
}

export async function openPostgres(url: string) {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 10_000,
    types: { getTypeParser },
  });
  // Without a listener, a server-side disconnect of an idle client crashes the process.
  pool.on("error", (err) => logger.error({ err }, "idle PostgreSQL client failed"));

  const scope = { als: new AsyncLocalStorage<object>(), token: {} };
  let closed = false;
  const guard = () => {
    if (closed) throw new DbClosedError();
    if (scope.als.getStore() === scope.token) throw new DbMisuseError();
  };

  const db: Db = {
    engine: "postgres",
    async script(sql: string) {
      guard();
      // The simple query protocol runs several statements; pg answers an array when there were several.
      const r = (await pool.query(sql)) as unknown as pg.QueryResult | pg.QueryResult[];
      return { rows: (Array.isArray(r) ? r : [r]).flatMap((x) => x.rows as Record<string, unknown>[]) };
    },
    async query<T = Record<string, unknown>>(sql: string, params?: unknown[]) {
      guard();
      const r = await pool.query(sql, params);
      return { rows: r.rows as T[] };
    },
    async transaction<T>(fn: (tx: Queryable) => Promise<T>) {
      guard();
      const client = await pool.connect();
      let broken: Error | undefined;
      const lost = watchCheckedOut(client, (e) => (broken ??= e));
      try {
        return await runTransaction(
          async (sql, params) => {
            try {
              const r = await client.query(sql, params);
              return { rows: r.rows };
            } catch (e) {
              // A connection-level failure (no SQLSTATE) means this client must not go back to the pool.
              if (e instanceof Error && !("code" in e)) broken = e;
              throw e;
            }
          },
          scope,
          fn,
        );
      } finally {
        lost();
        client.release(broken);
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };

  const withMigrationSession = async <T>(fn: (s: MigrationSession) => Promise<T>): Promise<T> => {
    const client = await pool.connect();
    let broken: Error | undefined;
    const lost = watchCheckedOut(client, (e) => (broken ??= e));
    try {
      // Session-level lock on this one client: held across the per-migration transactions.
      await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
      try {
        return await fn({
          query: async (sql, params) => ({ rows: (await client.query(sql, params)).rows }),
          // No parameters: pg uses the simple query protocol, which accepts several statements.
          exec: async (sql) => {
            await client.query(sql);
          },
        });
      } finally {
        await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]).catch((e: unknown) => {
          broken = e instanceof Error ? e : new Error(String(e));
        });
      }
    } finally {
      lost();
      client.release(broken);
    }
  };

  return { db, withMigrationSession };
}
