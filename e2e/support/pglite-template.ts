// A migrated, empty embedded database, made once per e2e run (e2e/support/global-setup.ts) and copied into the
// data folder of every Brokerdesk the run starts (e2e/support/second-instance.ts). A new data folder otherwise
// costs each instance PGlite's initdb and every migration: 3-10 s of its start on a loaded 2-core machine, paid
// by some fifteen instances a run. The copy is what the app itself leaves after its first start's migrations,
// made by the app's own code (`npm run db:migrate`); the app checks it on open as it would any folder.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** Where the global set-up tells the workers the template's folder (inherited through the environment). */
const TEMPLATE_VAR = "E2E_PGLITE_TEMPLATE";

/** Makes the template (the app's migrate command on a fresh DATA_DIR); remove() deletes it. */
export function makePgliteTemplate(root: string): { remove(): void } {
  const dataDir = mkdtempSync(path.join(tmpdir(), "brokerdesk-e2e-template-"));
  execFileSync(process.execPath, ["--conditions=react-server", "--import", "tsx", "server/cli/db-migrate.ts"], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", LOG_LEVEL: "warn" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  process.env[TEMPLATE_VAR] = path.join(dataDir, "pglite");
  return { remove: () => rmSync(dataDir, { recursive: true, force: true }) };
}

/** Copies the run's template into a new instance's DATA_DIR, when there is one; else the app makes its own. */
export function seedDataDir(dataDir: string): void {
  const template = process.env[TEMPLATE_VAR];
  if (template && existsSync(template)) cpSync(template, path.join(dataDir, "pglite"), { recursive: true });
}
