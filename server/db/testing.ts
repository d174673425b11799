import "server-only";
// Test support: the engines a suite runs on, and a fresh, isolated database for each test.
import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import pg from "pg";
import { afterAll, beforeAll, inject } from "vitest";
import { openDb, type Db } from "./index";
import { applyMigrations } from "./migrate";
import { openPglite } from "./pglite";
import { migratedPgliteTemplate } from "./test-template";

// One migrated embedded database per run (server/db/test-template.ts, Vitest's global set-up), read once per
// test file; each test starts from a copy of it. Made here when the set-up did not run.
let template: Promise<Blob | File> | undefined;
function pgliteTemplate(): Promise<Blob | File> {
  template ??= (async () => {
    const file = injectedTemplate();
    return file ? new Blob([await readFile(file)]) : migratedPgliteTemplate();
  })();
  return template;
}

/** The template file Vitest's global set-up made; none outside Vitest (the benchmarks open test databases too). */
function injectedTemplate(): string | undefined {
  try {
    return inject("pgliteTemplate");
  } catch {
    return undefined;
  }
}

/** A fresh embedded database for a test: a copy of the migrated template, as openDb would leave a new one. */
export async function openTestPglite(): Promise<Db> {
  const { db, withMigrationSession } = await openPglite("memory://", { loadDataDir: await pgliteTemplate() });
  // As openDb does: here it only confirms that nothing is pending.
  await applyMigrations(withMigrationSession);
  return db;
}

export type TestEngine = { engine: Db["engine"]; url?: string };

/** PGlite always; a real PostgreSQL too when the caller passes a URL (tests read TEST_DATABASE_URL). */
export function testEngines(postgresUrl: string | undefined): TestEngine[] {
  return [{ engine: "pglite" }, ...(postgresUrl ? [{ engine: "postgres" as const, url: postgresUrl }] : [])];
}

export type TestDatabase = {
  /** Opens (another) Db on the same isolated database; each open runs the migrations as the app does. */
  open(): Promise<Db>;
  /** Closes every Db opened here and drops the isolated database. */
  dispose(): Promise<void>;
  /** PostgreSQL only: the isolated schema, and a superuser connection for setting up roles. */
  schema?: string;
  admin?<T>(fn: (c: pg.Client) => Promise<T>): Promise<T>;
  /** PostgreSQL only: the URL of this database for another role. */
  urlFor?(user: string, password: string): string;
};

/**
 * PGlite: an in-memory copy of a migrated template (or, with `dataDir`, openDb on that folder). PostgreSQL: a fresh
 * schema,
 * selected through the connection's search_path, so parallel suites never see each other's tables.
 */
export async function createTestDatabase(t: TestEngine, opts: { dataDir?: string } = {}): Promise<TestDatabase> {
  const opened: Db[] = [];
  const closeAll = async () => {
    await Promise.all(opened.splice(0).map((db) => db.close()));
  };
  if (t.engine === "pglite" || !t.url) {
    return {
      async open() {
        const db = opts.dataDir ? await openDb({ dataDir: opts.dataDir }) : await openTestPglite();
        opened.push(db);
        return db;
      },
      dispose: closeAll,
    };
  }
  const baseUrl = t.url;
  const schema = `bd_test_${randomBytes(6).toString("hex")}`;
  await withAdmin(baseUrl, (c) => c.query(`CREATE SCHEMA ${schema}`));
  const url = new URL(baseUrl);
  url.searchParams.set("options", `-c search_path=${schema}`);
  return {
    schema,
    admin: (fn) => withAdmin(baseUrl, fn),
    urlFor(user, password) {
      const other = new URL(url);
      other.username = user;
      other.password = password;
      return other.toString();
    },
    async open() {
      const db = await openDb({ url: url.toString() });
      opened.push(db);
      return db;
    },
    async dispose() {
      await closeAll();
      await withAdmin(baseUrl, (c) => c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`));
    },
  };
}

/** An isolated database for one test, disposed after `fn`. */
export async function withTestDatabase<T>(t: TestEngine, fn: (db: Db) => Promise<T>): Promise<T> {
  const tdb = await createTestDatabase(t);
  try {
    return await fn(await tdb.open());
  } finally {
    await tdb.dispose();
  }
}

export type DatabaseTestBed = TestDatabase & { db: Db };

/**
 * Registers a suite's isolated database: created and opened in `beforeAll` (then `prepare` runs on it, within
 * `timeoutMs`), disposed in `afterAll`. The bed's fields are there from `beforeAll` on; `open` gives another Db
 * on the same database (a second instance).
 */
export function databaseTestBed(
  t: TestEngine = { engine: "pglite" },
  opts: { prepare?: (db: Db) => Promise<unknown>; timeoutMs?: number } = {},
): DatabaseTestBed {
  const bed = {} as DatabaseTestBed;
  beforeAll(async () => {
    const tdb = await createTestDatabase(t);
    Object.assign(bed, tdb, { db: await tdb.open() });
    await opts.prepare?.(bed.db);
  }, opts.timeoutMs ?? 60_000);
  afterAll(async () => {
    await bed.dispose?.();
  });
  return bed;
}

async function withAdmin<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
