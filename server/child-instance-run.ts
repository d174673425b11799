import "server-only";
// The child's side of server/child-instance.ts, for the kill -9 suites: takes its configuration over IPC (so no
// key is ever on a command line), opens the database and a client of the given platform, lets the suite's child
// start what it tests and say "started", then sends the child's progress, read from its own database, every
// 100 ms (PGlite has one writer: the test cannot read the folder while this runs) until it is killed.
import type { PlatformKey } from "@/lib/env";
import { openDb, type Db } from "@/server/db";
import { PlatformClient } from "@/server/platform/client";
import { CredentialStore } from "@/server/platform/credentials";

export type ChildInstanceConfig = {
  baseUrl: string;
  key: PlatformKey;
  db: { url: string } | { dataDir: string };
};

export type ChildInstanceStart<C> = (child: {
  cfg: C;
  db: Db;
  client: PlatformClient;
  /** Tells the suite the instance is up; called once, after what must be running before a kill. */
  started: () => void;
}) => Promise<() => Promise<object>>;

/** Runs a child instance: `start` returns how to read the progress it reports. */
export function runChildInstance<C extends ChildInstanceConfig>(timeoutMs: number, start: ChildInstanceStart<C>) {
  process.once("message", (cfg: C) => {
    void (async () => {
      const db = await openDb(cfg.db);
      const client = new PlatformClient({
        baseUrl: cfg.baseUrl,
        credentials: new CredentialStore({ main: cfg.key }),
        timeoutMs,
        backoffBaseMs: 20,
      });
      const progress = await start({ cfg, db, client, started: () => process.send?.("started") });
      for (;;) {
        process.send?.(await progress());
        await new Promise((r) => setTimeout(r, 100));
      }
    })().catch((e: unknown) => {
      process.send?.(`failed: ${e instanceof Error ? e.message : String(e)}`);
      process.exit(1);
    });
  });
}
