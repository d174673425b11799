import "server-only";
// Brokerdesk's own retention of the ledger (LEDGER_RETENTION_DAYS, default forever), and the mark on a
// record the platform no longer holds. The two are different on purpose: the platform forgetting a
// record (its retention, or a record it stops returning) never deletes it here, it is only marked; only
// Brokerdesk's configured age deletes, with the record's status history.
import type { Db, Queryable } from "@/server/db";

const DAY = 86_400_000;
/** Deleted per statement, so a first purge of years of records never holds one huge transaction. */
const PURGE_BATCH = 10_000;

/**
 * Marks gone every stored record of `subUid` created in [start, end] (both included) that a complete walk
 * of that window did not return; answers how many were newly marked.
 */
export async function markGone(
  db: Queryable,
  subUid: string,
  start: number,
  end: number,
  seen: readonly string[],
): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `WITH gone AS (
       UPDATE ledger_deposits SET gone_at = now()
        WHERE sub_uid = $1 AND ctime >= $2 AND ctime <= $3 AND gone_at IS NULL AND NOT (order_id = ANY($4::text[]))
       RETURNING 1)
     SELECT count(*)::int AS n FROM gone`,
    [subUid, Math.floor(start), Math.floor(end), seen],
  );
  return rows[0]?.n ?? 0;
}

/** Deletes ledger records created before `now - days` and their status changes; answers how many records. */
export async function purgeLedger(db: Db, days: number | null, now: number = Date.now()): Promise<number> {
  if (days === null) return 0;
  const before = now - days * DAY;
  let total = 0;
  for (;;) {
    const n = await db.transaction(async (tx) => {
      const { rows } = await tx.query<{ order_id: string }>(
        `SELECT order_id FROM ledger_deposits WHERE ctime < $1 ORDER BY ctime LIMIT ${PURGE_BATCH}`,
        [before],
      );
      if (!rows.length) return 0;
      const ids = rows.map((r) => r.order_id);
      await tx.query(`DELETE FROM ledger_deposit_changes WHERE order_id = ANY($1::text[])`, [ids]);
      await tx.query(`DELETE FROM deposit_originators WHERE order_id = ANY($1::text[])`, [ids]);
      await tx.query(`DELETE FROM ledger_deposits WHERE order_id = ANY($1::text[])`, [ids]);
      return ids.length;
    });
    total += n;
    if (n < PURGE_BATCH) return total;
  }
}
