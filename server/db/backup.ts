import "server-only";
// Backup and restore of Brokerdesk's database, for both engines (docs/backup-and-restore.md):
// - the embedded database: a gzipped tarball of its data folder, taken by the process that owns it between
//   two statements after a CHECKPOINT (PGlite's dumpDataDir), so it is consistent; restored by starting a
//   data folder from it.
// - PostgreSQL: pg_dump's custom format (one MVCC snapshot: consistent while the app runs), restored with
//   pg_restore in one transaction, all or nothing. A connection whose search_path names a schema of its own
//   (not public) has that schema alone dumped.
// A restore onto a database that holds anything is refused unless forced: a restore replaces what is there.
// Before anything is replaced, the backup's own audit chain is verified (backup-chain.ts): a broken one is
// refused, and nothing changes, unless the restore is told to accept it (--accept-broken-chain).
// The password never goes on a command line: pg_dump and pg_restore read it from a passfile of this run.
import { spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import type { ChainVerdict } from "@/server/audit/chain-check";
import { archiveChain, pgliteChain } from "./backup-chain";
import type { Db } from "./index";

export type BackupTarget = { url: string } | { dataDir: string };

/** Refused before anything changed: the message says why and what to do. */
export class RestoreRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RestoreRefused";
  }
}

/** How a restore treats the backup's audit chain: a broken one is refused unless accepted. */
export type RestoreOptions = { acceptBrokenChain?: boolean };

/** Refuses a broken chain (unless accepted): said before anything was changed. */
function judgeChain(chain: ChainVerdict, o: RestoreOptions): void {
  if (chain.ok || o.acceptBrokenChain) return;
  throw new RestoreRefused(
    `the backup's audit chain is broken at row ${chain.brokenAt}: ${chain.reason} ` +
      `(${chain.rows} rows verified before the break). Nothing was changed. ` +
      `Restore it anyway only if you mean to, with --accept-broken-chain`,
  );
}

const GZIP = [0x1f, 0x8b];
const PGDMP = "PGDMP";

/** Which engine a backup file is for, from its first bytes. */
export function backupEngine(file: string): "pglite" | "postgres" {
  const head = readFileSync(file).subarray(0, 5);
  if (head[0] === GZIP[0] && head[1] === GZIP[1]) return "pglite";
  if (head.toString("latin1") === PGDMP) return "postgres";
  throw new RestoreRefused(`${file} is neither an embedded database backup (gzip) nor a pg_dump archive (PGDMP)`);
}

/** The embedded database's backup, from the Db that owns the folder (a running instance, or the CLI's). */
export async function backupPglite(db: { dumpDataDir?(): Promise<Blob> }, file: string): Promise<void> {
  if (!db.dumpDataDir) throw new Error("this database is not the embedded one");
  const tar = await db.dumpDataDir();
  writeFileSync(file, Buffer.from(await tar.arrayBuffer()), { mode: 0o600 });
}

/**
 * Starts the data folder `dataDir` from a backup. A folder that holds anything is refused unless `force`, and
 * then kept beside it (renamed, never deleted): the path it was moved to is answered. The backup is started in
 * a folder of its own first and its audit chain verified there; only then is anything moved.
 */
export async function restorePglite(
  file: string,
  dataDir: string,
  force: boolean,
  o: RestoreOptions = {},
): Promise<{ movedAside: string | null; chain: ChainVerdict }> {
  if (backupEngine(file) !== "pglite")
    throw new RestoreRefused(`${file} is a PostgreSQL archive: restore it with DATABASE_URL set`);
  const holds = existsSync(dataDir) && readdirSync(dataDir).length > 0;
  if (holds && !force)
    throw new RestoreRefused(
      `${dataDir} already holds a database: stop the app, ` +
        `and restore with --force to replace it (it is kept beside, renamed)`,
    );
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const staged = `${dataDir}.restoring-${stamp}`;
  let chain: ChainVerdict;
  try {
    mkdirSync(staged, { recursive: true });
    const pgl = await PGlite.create(staged, { loadDataDir: new Blob([readFileSync(file)]) });
    try {
      chain = await pgliteChain(pgl);
    } finally {
      await pgl.close();
    }
    judgeChain(chain, o);
  } catch (e) {
    rmSync(staged, { recursive: true, force: true });
    throw e;
  }
  let movedAside: string | null = null;
  if (holds) {
    movedAside = `${dataDir}.before-restore-${stamp}`;
    renameSync(dataDir, movedAside);
  } else rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(path.dirname(dataDir), { recursive: true });
  renameSync(staged, dataDir);
  return { movedAside, chain };
}

/**
 * The URL as libpq reads it (a query's space as %20: URL's own "+" is not a space to libpq), without its
 * password, and a passfile (mode 600, removed by `done`) that holds it.
 */
function forLibpq(url: string): { url: string; done: () => void } {
  const u = new URL(url);
  const params = [...u.searchParams];
  let done: () => void = () => undefined;
  if (u.password) {
    const dir = mkdtempSync(path.join(tmpdir(), "brokerdesk-pg-"));
    const passfile = path.join(dir, "pgpass");
    const esc = (s: string) => s.replace(/\\/g, "\\\\").replace(/:/g, "\\:");
    const line = [u.hostname || "*", u.port || "*", "*", decodeURIComponent(u.username) || "*"].map(esc);
    writeFileSync(passfile, `${line.join(":")}:${esc(decodeURIComponent(u.password))}\n`, { mode: 0o600 });
    u.password = "";
    params.push(["passfile", passfile]);
    done = () => rmSync(dir, { recursive: true, force: true });
  }
  u.search = params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&");
  return { url: u.toString(), done };
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4_000)));
    child.once("error", (e) => reject(new Error(`${command} could not be started: ${e.message}`)));
    child.once("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} failed (exit ${code}): ${stderr.trim()}`)),
    );
  });
}

/** The schema the connection works in (its search_path's first), whether it exists, and its tables. */
async function targetSchema(url: string): Promise<{ schema: string; exists: boolean; tables: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const sp = await client.query<{ schema: string }>(
      "SELECT trim(both '\"' from split_part(current_setting('search_path'), ',', 1)) AS schema",
    );
    const schema = sp.rows[0]!.schema === "$user" ? "public" : sp.rows[0]!.schema;
    const r = await client.query<{ exists: boolean; tables: number }>(
      `SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1) AS exists,
              (SELECT count(*)::int FROM pg_tables WHERE schemaname = $1) AS tables`,
      [schema],
    );
    return { schema, ...r.rows[0]! };
  } finally {
    await client.end();
  }
}

/** pg_dump of the database (or of the connection's own schema), in the custom format. */
export async function backupPostgres(url: string, file: string): Promise<{ schema: string | null }> {
  const { schema } = await targetSchema(url);
  const only = schema === "public" ? null : schema;
  const pass = forLibpq(url);
  try {
    await run("pg_dump", [
      "--format=custom",
      "--file",
      file,
      ...(only ? ["--schema", only] : []),
      "--dbname",
      pass.url,
    ]);
  } finally {
    pass.done();
  }
  return { schema: only };
}

/**
 * pg_restore in one transaction (all or nothing). A database whose schema holds tables is refused unless
 * `force`, which drops what the archive holds before it is created again (--clean). The archive's audit chain
 * is verified first, read from the archive itself: a broken one changes nothing unless accepted.
 */
export async function restorePostgres(
  url: string,
  file: string,
  force: boolean,
  o: RestoreOptions = {},
): Promise<{ chain: ChainVerdict }> {
  if (backupEngine(file) !== "postgres")
    throw new RestoreRefused(`${file} is an embedded database backup: restore it without DATABASE_URL`);
  const target = await targetSchema(url);
  if (target.tables > 0 && !force)
    throw new RestoreRefused(
      `schema ${target.schema} already holds ${target.tables} tables: ` +
        `restore into an empty database, or with --force to replace them`,
    );
  const chain = await archiveChain(file, target.schema);
  judgeChain(chain, o);
  // An empty schema of its own would make the archive's CREATE SCHEMA fail; it holds nothing to lose.
  if (target.exists && target.tables === 0 && target.schema !== "public") {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`DROP SCHEMA "${target.schema.replace(/"/g, '""')}"`).finally(() => client.end());
  }
  const pass = forLibpq(url);
  try {
    await run("pg_restore", [
      "--single-transaction",
      "--exit-on-error",
      "--no-owner",
      ...(force && target.tables > 0 ? ["--clean", "--if-exists"] : []),
      "--dbname",
      pass.url,
      file,
    ]);
  } finally {
    pass.done();
  }
  return { chain };
}

export type DatabaseSummary = {
  engine: "pglite" | "postgres";
  schemaVersion: number;
  auditRows: number;
  withdrawals: Record<string, number>;
  ledgerDeposits: number;
  subaccountsBackfilled: number;
};

/** What a database holds, in the few figures a backup and its restore are compared by. */
export async function describeDatabase(db: Db): Promise<DatabaseSummary> {
  const one = async <T>(sql: string) => (await db.query<T>(sql)).rows[0]!;
  const states = await db.query<{ state: string; n: number }>(
    "SELECT state, count(*)::int AS n FROM withdrawal_requests GROUP BY state ORDER BY state",
  );
  return {
    engine: db.engine,
    schemaVersion: (await one<{ v: number }>("SELECT max(version)::int AS v FROM schema_migrations")).v,
    auditRows: Number((await one<{ n: number }>("SELECT last_id AS n FROM audit_head WHERE id = 1")).n),
    withdrawals: Object.fromEntries(states.rows.map((r) => [r.state, r.n])),
    ledgerDeposits: (await one<{ n: number }>("SELECT count(*)::int AS n FROM ledger_deposits")).n,
    subaccountsBackfilled: (
      await one<{ n: number }>("SELECT count(*)::int AS n FROM ledger_sync WHERE job = 'deposits' AND backfill_done")
    ).n,
  };
}
