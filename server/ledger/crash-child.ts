import "server-only";
// A Brokerdesk instance reduced to its ledger sync, for the kill -9 test (crash.test.ts): it takes its
// configuration over IPC (so no key is ever on a command line), starts the pg-boss engine on the given
// database against the given platform, says "started", then reports the sync's progress from its own
// database every 100 ms (PGlite has one writer: the test cannot read the folder while this runs), until
// it is killed.
import { openDb } from "@/server/db";
import { PlatformClient } from "@/server/platform/client";
import { CredentialStore } from "@/server/platform/credentials";
import type { PlatformKey } from "@/lib/env";
import { DEPOSITS_JOB } from "./deposits/sync";
import { startLedger } from "./engine";

export type CrashChildProgress = {
  done: number;
  records: number;
  stored: number;
  /** Sub-accounts with a covered span: a walk of theirs ended. */
  covered: number;
  oldestSuccess: number | null;
  errors: number;
  lastError: string | null;
};
export type CrashChildConfig = {
  baseUrl: string;
  key: PlatformKey;
  db: { url: string } | { dataDir: string };
  schema: string;
};

process.once("message", (cfg: CrashChildConfig) => {
  void (async () => {
    const db = await openDb(cfg.db);
    const client = new PlatformClient({
      baseUrl: cfg.baseUrl,
      credentials: new CredentialStore({ main: cfg.key }),
      timeoutMs: 2_000,
      backoffBaseMs: 20,
    });
    await startLedger({ db, client, share: 1, sweepSeconds: 1, activeSeconds: 1, schema: cfg.schema });
    process.send?.("started");
    for (;;) {
      const { rows } = await db.query<CrashChildProgress>(
        `SELECT count(*) FILTER (WHERE backfill_done)::int AS done, COALESCE(sum(records), 0)::int AS records,
                (SELECT count(*)::int FROM ledger_deposits) AS stored, count(covered_to)::int AS covered,
                min(last_success_at) AS "oldestSuccess",
                COALESCE(sum(errors), 0)::int AS errors, max(last_error) AS "lastError"
           FROM ledger_sync WHERE job = $1`,
        [DEPOSITS_JOB],
      );
      process.send?.({
        ...rows[0]!,
        oldestSuccess: rows[0]!.oldestSuccess ? new Date(rows[0]!.oldestSuccess).getTime() : null,
      });
      await new Promise((r) => setTimeout(r, 100));
    }
  })().catch((e: unknown) => {
    process.send?.(`failed: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  });
});
