import "server-only";
// A Brokerdesk instance reduced to its ledger sync, for the kill -9 test (crash.test.ts): a child instance
// (server/child-instance-run.ts) that starts the pg-boss engine on the given database against the given
// platform, then reports the sync's progress until it is killed.
import { runChildInstance, type ChildInstanceConfig } from "@/server/child-instance-run";
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
export type CrashChildConfig = ChildInstanceConfig & { schema: string };

runChildInstance<CrashChildConfig>(2_000, async ({ cfg, db, client, started }) => {
  await startLedger({ db, client, share: 1, sweepSeconds: 1, activeSeconds: 1, schema: cfg.schema });
  started();
  return async () => {
    const { rows } = await db.query<CrashChildProgress>(
      `SELECT count(*) FILTER (WHERE backfill_done)::int AS done, COALESCE(sum(records), 0)::int AS records,
              (SELECT count(*)::int FROM ledger_deposits) AS stored, count(covered_to)::int AS covered,
              min(last_success_at) AS "oldestSuccess",
              COALESCE(sum(errors), 0)::int AS errors, max(last_error) AS "lastError"
         FROM ledger_sync WHERE job = $1`,
      [DEPOSITS_JOB],
    );
    return {
      ...rows[0]!,
      oldestSuccess: rows[0]!.oldestSuccess ? new Date(rows[0]!.oldestSuccess).getTime() : null,
    };
  };
});
