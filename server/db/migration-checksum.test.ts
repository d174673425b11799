import { readFileSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { logger } from "@/server/log";
import { applyMigrations, loadMigrations, MIGRATIONS_DIR, type MigrationRunner } from "./migrate";
import { checksumMatches, migrationChecksum, normalizeSql, rawChecksum } from "./migration-checksum";
import { LEGACY_CHECKSUMS } from "./migration-checksums-legacy";

describe("[db][migrations][checksum] the statements, not the comments", () => {
  const base = "CREATE TABLE t (\n  id int PRIMARY KEY, -- the key\n  note text DEFAULT 'a -- b'\n);\n";

  it("drops comments and folds whitespace", () => {
    const reworded =
      "-- What t is for, said again.\n/* and /* nested */ here */\nCREATE  TABLE t (\n\tid int PRIMARY KEY,\n" +
      "    note text DEFAULT 'a -- b' /* the default */\n);";
    expect(normalizeSql(base)).toBe("CREATE TABLE t ( id int PRIMARY KEY, note text DEFAULT 'a -- b' );");
    expect(migrationChecksum(reworded)).toBe(migrationChecksum(base));
  });

  it("keeps string literals, quoted names and dollar-quoted bodies as written", () => {
    expect(normalizeSql("SELECT 'a  -- kept'")).toBe("SELECT 'a  -- kept'");
    expect(normalizeSql('SELECT "x  y"')).toBe('SELECT "x  y"');
    const fn = "CREATE FUNCTION f() RETURNS int AS $$\n  -- inside the body\n  SELECT 1\n$$ LANGUAGE sql;";
    expect(normalizeSql(fn)).toContain("$$\n  -- inside the body\n  SELECT 1\n$$");
    expect(migrationChecksum(fn.replace("inside", "within"))).not.toBe(migrationChecksum(fn));
  });

  it("tells a changed statement from a reworded comment", () => {
    expect(migrationChecksum(base.replace("-- the key", "-- the row's key"))).toBe(migrationChecksum(base));
    expect(migrationChecksum(base.replace("id int", "id bigint"))).not.toBe(migrationChecksum(base));
    expect(migrationChecksum(base.replace("'a -- b'", "'a -- c'"))).not.toBe(migrationChecksum(base));
  });

  it("each legacy checksum names the statements of today's file (the reworded migrations changed no statement)", () => {
    expect(Object.keys(LEGACY_CHECKSUMS).length).toBeGreaterThan(0);
    for (const [file, legacy] of Object.entries(LEGACY_CHECKSUMS)) {
      const sql = readFileSync(path.join(MIGRATIONS_DIR, file), "utf8");
      expect(legacy.statements, file).toBe(migrationChecksum(sql));
      for (const raw of legacy.raw) expect(checksumMatches(file, sql, raw), file).toBe(true);
      expect(checksumMatches(file, `${sql}\nSELECT 1;\n`, legacy.raw[0]!), file).toBe(false);
    }
  });
});

describe("[db][migrations][checksum] a database migrated by an earlier release", () => {
  let pg: PGlite;
  const run: MigrationRunner = (fn) =>
    fn({
      query: async (sql, params) => ({ rows: (await pg.query<Record<string, unknown>>(sql, params)).rows }),
      exec: async (sql) => void (await pg.exec(sql)),
    });
  const migrations = loadMigrations();
  let migrated: Blob;
  // Migrated once, then each test starts from a copy of that data folder.
  beforeAll(async () => {
    pg = await PGlite.create("memory://", { extensions: { pg_trgm } });
    await applyMigrations(run, migrations);
    migrated = await pg.dumpDataDir("none");
    await pg.close();
  }, 120_000);
  beforeEach(async () => {
    pg = await PGlite.create("memory://", { loadDataDir: migrated, extensions: { pg_trgm } });
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await pg.close();
  });

  /** As an earlier release left it: every migration recorded by its file's bytes as they were then. */
  async function recordAsEarlierRelease() {
    for (const m of migrations) {
      const recorded = LEGACY_CHECKSUMS[m.file]?.raw[0] ?? rawChecksum(m.sql);
      await pg.query("UPDATE schema_migrations SET checksum = $1 WHERE version = $2", [recorded, m.version]);
    }
  }

  it("starts with today's text without a warning", async () => {
    await recordAsEarlierRelease();
    const warn = vi.spyOn(logger, "warn");
    expect(await applyMigrations(run, migrations)).toEqual({ applied: [] });
    expect(warn).not.toHaveBeenCalled();
  });

  it("still warns when a statement of an applied migration changed, and applies nothing of it", async () => {
    await recordAsEarlierRelease();
    const warn = vi.spyOn(logger, "warn");
    const target = Object.keys(LEGACY_CHECKSUMS)[0]!;
    const changed = migrations.map((m) => {
      if (m.file !== target) return m;
      const sql = `${m.sql}\nCREATE TABLE edited_after_the_fact (id int);\n`;
      return { ...m, sql, checksum: migrationChecksum(sql) };
    });
    expect(await applyMigrations(run, changed)).toEqual({ applied: [] });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![0]).toEqual({ migration: target });
    expect((await pg.query("SELECT to_regclass('edited_after_the_fact')::text AS t")).rows).toEqual([{ t: null }]);
  });

  it("records the statements' checksum from now on, so a comment reworded later warns nobody", async () => {
    const rows = (
      await pg.query<{ version: number; checksum: string }>("SELECT version, checksum FROM schema_migrations")
    ).rows;
    expect(rows.map((r) => r.checksum)).toEqual(
      rows.map((r) => migrationChecksum(migrations.find((m) => m.version === r.version)!.sql)),
    );
    const warn = vi.spyOn(logger, "warn");
    const reworded = migrations.map((m) => ({ ...m, sql: `-- Said another way.\n${m.sql}` }));
    expect(await applyMigrations(run, reworded)).toEqual({ applied: [] });
    expect(warn).not.toHaveBeenCalled();
  });
});
