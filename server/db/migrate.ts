import "server-only";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { logger } from "@/server/log";
import { checksumMatches, migrationChecksum } from "./migration-checksum";

/** One connection held exclusively while migrations run (and, on PostgreSQL, the migration lock). */
export type MigrationSession = {
  query(sql: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  /** Several statements at once (a migration file); no parameters. */
  exec(sql: string): Promise<void>;
};
export type MigrationRunner = <T>(fn: (s: MigrationSession) => Promise<T>) => Promise<T>;

/** `checksum` is of the statements (migrationChecksum): comments and whitespace change nothing. */
export type Migration = { version: number; name: string; file: string; sql: string; checksum: string };

/**
 * Read at run time from the repository, not bundled: the .sql files stay plain files that several
 * engineers add to, with no build step. The app always runs from the repository root (`next start`,
 * the CLIs, Vitest); Next's file tracing follows this literal folder for standalone output.
 */
export const MIGRATIONS_DIR = path.join(process.cwd(), "server/db/migrations");

const FILE_NAME = /^(\d{4})_([a-z0-9_]+)\.sql$/;

export function loadMigrations(dir: string = MIGRATIONS_DIR): Migration[] {
  let files: string[];
  try {
    files = readdirSync(dir);
  } catch (e) {
    throw new Error(`database migrations not found in ${dir}: run Brokerdesk from the repository root`, { cause: e });
  }
  const migrations: Migration[] = [];
  for (const file of files) {
    if (!file.endsWith(".sql")) continue;
    const m = FILE_NAME.exec(file);
    if (!m) throw new Error(`migration file ${file}: name it NNNN_lower_snake_case.sql`);
    const sql = readFileSync(path.join(dir, file), "utf8");
    migrations.push({
      version: Number(m[1]),
      name: m[2]!,
      file,
      sql,
      checksum: migrationChecksum(sql),
    });
  }
  migrations.sort((a, b) => a.version - b.version);
  for (let i = 1; i < migrations.length; i++) {
    if (migrations[i]!.version === migrations[i - 1]!.version) {
      throw new Error(
        `two migrations share version ${migrations[i]!.version}: ${migrations[i - 1]!.file}, ${migrations[i]!.file}`,
      );
    }
  }
  if (migrations.length === 0) throw new Error(`no migrations in ${dir}`);
  return migrations;
}

/** Applies pending migrations in version order, each in its own transaction, recording each once. */
export async function applyMigrations(
  run: MigrationRunner,
  migrations: Migration[] = loadMigrations(),
): Promise<{ applied: string[] }> {
  return run(async (s) => {
    // Checked before creating: a non-owner app role may read but not create (see server/audit/README.md).
    const exists = await s.query("SELECT to_regclass('schema_migrations')::text AS t");
    if (!exists.rows[0]?.t) {
      await s.exec(`CREATE TABLE schema_migrations (
        version     integer PRIMARY KEY,
        name        text NOT NULL,
        checksum    text NOT NULL,
        applied_at  timestamptz NOT NULL DEFAULT now()
      )`);
    }
    const done = new Map<number, { name: string; checksum: string }>();
    for (const row of (await s.query("SELECT version, name, checksum FROM schema_migrations")).rows) {
      done.set(Number(row.version), { name: String(row.name), checksum: String(row.checksum) });
    }
    const applied: string[] = [];
    for (const m of migrations) {
      const prior = done.get(m.version);
      if (prior) {
        // An applied migration is history: editing a statement changes nothing in existing databases. A reworded
        // comment is no edit: the checksum is of the statements, and the one an earlier release recorded (the
        // file's bytes) is still accepted (./migration-checksum).
        if (!checksumMatches(m.file, m.sql, prior.checksum))
          logger.warn(
            { migration: m.file },
            "migration file changed after it was applied; add a new migration instead",
          );
        continue;
      }
      await s.exec("BEGIN");
      try {
        await s.exec(m.sql);
        await s.query("INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)", [
          m.version,
          m.name,
          m.checksum,
        ]);
        await s.exec("COMMIT");
      } catch (e) {
        await s.exec("ROLLBACK").catch(() => undefined);
        throw new Error(`migration ${m.file} failed: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
      }
      applied.push(m.file);
      logger.info({ migration: m.file }, "migration applied");
    }
    const known = new Set(migrations.map((m) => m.version));
    const unknown = [...done.keys()].filter((v) => !known.has(v));
    if (unknown.length)
      logger.warn(
        { versions: unknown },
        "database has migrations this code does not know (older code on a newer database?)",
      );
    return { applied };
  });
}
