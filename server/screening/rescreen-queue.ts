import "server-only";
// The rescreens asked for: one queued in the transaction that makes a list version active (an import that drops
// nothing, the confirmation of one that does), so a version is never active without the rescreen that follows it.
// The job engine's sweep runs what is queued (./jobs.ts, ./rescreen.ts).
import type { Queryable } from "@/server/db";

export async function queueRescreen(tx: Queryable, versionId: number | null, requestedBy: string): Promise<number> {
  const { rows } = await tx.query<{ id: string }>(
    `INSERT INTO screening_rescreens (version_id, requested_by) VALUES ($1, $2) RETURNING id`,
    [versionId, requestedBy],
  );
  return Number(rows[0]!.id);
}

/**
 * The rescreens to run: those queued, and those running that stopped reporting progress (their instance died) for
 * `staleSeconds`. Running one again writes nothing twice (./rescreen.ts).
 */
export async function rescreensDue(db: Queryable, staleSeconds = 300): Promise<number[]> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM screening_rescreens
      WHERE state = 'queued'
         OR (state = 'running' AND coalesce((progress->>'at')::timestamptz, started_at)
               < now() - $1 * interval '1 second')
      ORDER BY id`,
    [staleSeconds],
  );
  return rows.map((r) => Number(r.id));
}
