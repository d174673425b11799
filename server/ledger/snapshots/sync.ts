import "server-only";
// Daily snapshots of a registry sub-account: its spot assets (E2, every coin it has an entry for) and its
// rebate info (E7, which the platform keeps 30 days). One a UTC day each, in one transaction with the day's
// mark, so a day is either fully kept or not at all; a rerun the same day replaces that day's snapshot.
import type { AssetEntry } from "@/lib/platform/catalog";
import type { Queryable } from "@/server/db";
import { platformNow, type LedgerRunDeps } from "../run-deps";

export const ASSETS_SNAPSHOT_JOB = "assets-snapshot";
export const REBATE_SNAPSHOT_JOB = "rebate-snapshot";
export type SnapshotJob = typeof ASSETS_SNAPSHOT_JOB | typeof REBATE_SNAPSHOT_JOB;
export const SNAPSHOT_JOBS: readonly SnapshotJob[] = [ASSETS_SNAPSHOT_JOB, REBATE_SNAPSHOT_JOB];

export type SnapshotDeps = LedgerRunDeps;

const DAY = 86_400_000;
/** The UTC day of an instant, as the database's date. */
export const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** The next UTC midnight after an instant: when the next snapshot is due. */
export const nextUtcMidnight = (ms: number) => (Math.floor(ms / DAY) + 1) * DAY;

/** Takes one snapshot; returns the day it is kept under and how many rows it holds. */
export async function takeSnapshot(
  job: SnapshotJob,
  subUid: string,
  deps: SnapshotDeps,
): Promise<{ day: string; rows: number }> {
  const now = platformNow(deps);
  const day = utcDay(now);
  deps.signal?.throwIfAborted();
  await deps.budget();
  if (job === ASSETS_SNAPSHOT_JOB) {
    const { data } = await deps.client.call(
      "subaccounts.assets",
      { subUid, assetType: "all" },
      { signal: deps.signal, priority: "background" },
    );
    const rows = data.assetsList as AssetEntry[];
    await deps.db.transaction(async (tx) => {
      await tx.query(`DELETE FROM ledger_asset_snapshots WHERE sub_uid = $1 AND day = $2::date`, [subUid, day]);
      if (rows.length) {
        await tx.query(
          `INSERT INTO ledger_asset_snapshots (sub_uid, day, coin, available, frozen, locked, utime)
           SELECT $1, $2::date, c, NULLIF(a, '')::numeric, NULLIF(f, '')::numeric, NULLIF(l, '')::numeric, NULLIF(u,
             '')::bigint
             FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[]) AS t(c, a, f, l, u)`,
          [
            subUid,
            day,
            rows.map((r) => r.coin),
            rows.map((r) => r.available),
            rows.map((r) => r.frozen),
            rows.map((r) => r.locked),
            rows.map((r) => r.uTime),
          ],
        );
      }
      await markDay(tx, job, subUid, day);
    });
    return { day, rows: rows.length };
  }
  const { data } = await deps.client.call(
    "rebates.get",
    { uid: subUid },
    { signal: deps.signal, priority: "background" },
  );
  await deps.db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO ledger_rebate_snapshots (sub_uid, day, affiliation_type, user_level, spot_rebate_ratio,
         futures_rebate_ratio)
       VALUES ($1, $2::date, $3, $4, NULLIF($5, '')::numeric, NULLIF($6, '')::numeric)
       ON CONFLICT (sub_uid, day) DO UPDATE SET affiliation_type = $3, user_level = $4, spot_rebate_ratio = NULLIF($5,
         '')::numeric,
         futures_rebate_ratio = NULLIF($6, '')::numeric`,
      [subUid, day, data.affiliationType, data.userLevel, data.clientSpotRebateRatio, data.clientFuturesRebateRatio],
    );
    await markDay(tx, job, subUid, day);
  });
  return { day, rows: 1 };
}

async function markDay(tx: Queryable, job: SnapshotJob, subUid: string, day: string) {
  await tx.query(
    `INSERT INTO ledger_snapshot_days (job, sub_uid, day) VALUES ($1, $2, $3::date) ON CONFLICT (job, sub_uid,
       day) DO UPDATE SET taken_at = now()`,
    [job, subUid, day],
  );
}

/** Records a run's outcome in ledger_sync (for /sync) with when it is due next. */
export async function recordSnapshotRun(
  db: Queryable,
  job: SnapshotJob,
  subUid: string,
  outcome: { nextAt: number; rows: number } | { error: unknown },
) {
  if ("error" in outcome) {
    const e = outcome.error as { code?: string; msg?: string; message?: string };
    const message =
      [e?.code, e?.msg ?? e?.message].filter(Boolean).join(" ").slice(0, 500) || String(outcome.error).slice(0, 500);
    await db.query(
      `INSERT INTO ledger_sync (job, sub_uid, last_checked_at, errors, last_error) VALUES ($1, $2, now(), 1, $3)
       ON CONFLICT (job, sub_uid) DO UPDATE SET last_checked_at = now(), errors = ledger_sync.errors + 1,
         last_error = $3`,
      [job, subUid, message],
    );
    return;
  }
  await db.query(
    `INSERT INTO ledger_sync (job, sub_uid, backfill_done, last_checked_at, last_success_at, next_check_at, records,
       calls, errors, last_error)
     VALUES ($1, $2, true, now(), now(), to_timestamp($3 / 1000.0), $4, 1, 0, NULL)
     ON CONFLICT (job, sub_uid) DO UPDATE SET backfill_done = true, last_checked_at = now(), last_success_at = now(),
       next_check_at = to_timestamp($3 / 1000.0), records = ledger_sync.records + $4, calls = ledger_sync.calls + 1,
       errors = 0, last_error = NULL`,
    [job, subUid, outcome.nextAt, outcome.rows],
  );
}
