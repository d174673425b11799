import "server-only";
// Vitest's global set-up (vitest.config.mts): the embedded database's migrated template, made once per run.
// Every test's PGlite database is a copy of it (server/db/testing.ts). Without it each test file made its own:
// Vitest imports a file's modules afresh, so a template kept in a module variable lasted one file, and the ~27
// files on PGlite each paid initdb and every migration (about 4 s of CPU each, 15 s on a loaded machine).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { applyMigrations } from "./migrate";
import { openPglite } from "./pglite";

declare module "vitest" {
  export interface ProvidedContext {
    /** The migrated template's tarball (PGlite's dumpDataDir), for openPglite's `loadDataDir`. */
    pgliteTemplate: string;
  }
}

/** A migrated, empty embedded database as a tarball of its data folder. */
export async function migratedPgliteTemplate(): Promise<Blob | File> {
  const { db, withMigrationSession, dump } = await openPglite("memory://");
  try {
    await applyMigrations(withMigrationSession);
    return await dump();
  } finally {
    await db.close();
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const dir = mkdtempSync(path.join(tmpdir(), "brokerdesk-vitest-"));
  const file = path.join(dir, "pglite-template.tar");
  writeFileSync(file, Buffer.from(await (await migratedPgliteTemplate()).arrayBuffer()));
  project.provide("pgliteTemplate", file);
  return () => rmSync(dir, { recursive: true, force: true });
}
