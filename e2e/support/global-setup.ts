// The e2e run's global set-up (playwright.config.ts): what the specs' instances share, made once per run. The
// embedded database's migrated template (e2e/support/pglite-template.ts), and the shared instance with the
// ledger's sync on (e2e/support/synced-instance.ts) and the two that specs keep to themselves, started without
// waiting so they sync while the first specs run. Returns the teardown, which stops and removes them.
import path from "node:path";
import { makePgliteTemplate } from "./pglite-template";
import {
  launchOwnSyncedInstance,
  launchSyncedInstance,
  OWN_SYNCED,
  SYNCED_SPECS,
  type OwnSyncedSpec,
} from "./synced-instance";

/** Options of `playwright test` that take a value as the next argument (so it is no spec filter). */
const VALUED = new Set(["-c", "--config", "-g", "--grep", "-G", "--grep-invert", "--project", "-j", "--workers"]);
for (const o of ["--reporter", "--retries", "--timeout", "--repeat-each", "--output", "--max-failures", "--shard"])
  VALUED.add(o);

/** The spec filters and projects named on the command line; none of either when the whole suite runs. */
function commandLine(argv = process.argv): { filters: string[]; projects: string[] } {
  const at = argv.indexOf("test");
  const args = at >= 0 ? argv.slice(at + 1) : [];
  const filters: string[] = [];
  const projects: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a.startsWith("--project=")) projects.push(a.slice("--project=".length));
    else if (a === "--project") projects.push(args[++i] ?? "");
    else if (a.startsWith("-")) i += !a.includes("=") && VALUED.has(a) ? 1 : 0;
    else filters.push(a);
  }
  return { filters, projects };
}

/**
 * Whether this run may include a ui spec named in `specs` (a spec filter is a regular expression on its path).
 * They are the "synced" project's (playwright.config.ts).
 */
function mayRun(specs: string[]): boolean {
  const { filters, projects } = commandLine();
  if (projects.length && !projects.includes("synced")) return false;
  const files = specs.map((s) => path.join("e2e", `${s}.ui.spec.ts`));
  const matches = (filter: string, file: string) => {
    try {
      return new RegExp(filter).test(file) || new RegExp(filter).test(path.resolve(file));
    } catch {
      return file.includes(filter);
    }
  };
  return !filters.length || filters.some((f) => files.some((file) => matches(f, file)));
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  // The repository: reports/ is in it (playwright.config.ts).
  const root = path.dirname(process.env.E2E_REPORTS_DIR ?? path.resolve("reports"));
  const template = makePgliteTemplate(root);
  const users = SYNCED_SPECS.filter((spec) => mayRun([spec]));
  const synced = users.length ? await launchSyncedInstance(users) : null;
  const own = await Promise.all(
    (Object.keys(OWN_SYNCED) as OwnSyncedSpec[]).filter((spec) => mayRun([spec])).map(launchOwnSyncedInstance),
  );
  return async () => {
    await Promise.all([synced, ...own].map((i) => i?.stop()));
    template.remove();
  };
}
