import "server-only";
// What a database is to the code that uses it, whichever engine is behind it; the engines import it from here,
// not from ./index, which opens them.

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
