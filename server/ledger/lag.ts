import "server-only";
import type { Db } from "@/server/db";

/**
 * Per sync job, how long its stalest sub-account (or key and symbol) has gone since its last success, in
 * seconds: what operators alert on (/metrics, brokerdesk_ledger_sync_lag_seconds). One never checked with
 * success yet is left out: a sub-account just added to the registry is not an outage of its job.
 */
export async function syncLag(db: Db): Promise<{ job: string; seconds: number }[]> {
  const { rows } = await db.query<{ job: string; seconds: string | null }>(
    `SELECT job, EXTRACT(EPOCH FROM now() - min(last_success_at))::text AS seconds
       FROM (SELECT job, last_success_at FROM ledger_sync UNION ALL SELECT job, last_success_at FROM ledger_key_sync) s
      WHERE last_success_at IS NOT NULL
      GROUP BY job`,
  );
  return rows.map((r) => ({ job: r.job, seconds: Number(r.seconds ?? 0) }));
}
