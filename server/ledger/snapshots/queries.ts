import "server-only";
// Reading a sub-account's daily snapshots: balances per day and coin (summed as numeric, never as floats)
// and rebate info per day, over the last `days` UTC days; a balance history says which of the days asked it
// holds a snapshot of (a day without one is not known: never read as a zero balance).
import { DomainError } from "@/lib/api/errors";
import type { SnapshotCoverage } from "@/lib/api/ledger/coverage";
import type { BalanceHistory, RebateHistory } from "@/lib/api/ledger/history";
import type { Queryable } from "@/server/db";
import { ASSETS_SNAPSHOT_JOB } from "./sync";

const DEFAULT_DAYS = 365;

async function known(db: Queryable, subUid: string) {
  const { rows } = await db.query(`SELECT 1 FROM subaccounts WHERE sub_uid = $1`, [subUid]);
  if (!rows.length) throw new DomainError("not_found", "No sub-account with this UID in the registry");
}

export async function balanceHistory(db: Queryable, subUid: string, days = DEFAULT_DAYS): Promise<BalanceHistory> {
  await known(db, subUid);
  const since = `(now() AT TIME ZONE 'UTC')::date - ($2::int - 1)`;
  const [marks, rows, range] = await Promise.all([
    db.query<{ day: string }>(
      `SELECT to_char(day,
         'YYYY-MM-DD') AS day FROM ledger_snapshot_days WHERE job = $3 AND sub_uid = $1 AND day >= ${since}
         ORDER BY day`,
      [subUid, days, ASSETS_SNAPSHOT_JOB],
    ),
    db.query<{ day: string; coin: string; total: string; available: string }>(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, coin,
              (COALESCE(available, 0) + COALESCE(frozen, 0) + COALESCE(locked, 0))::text AS total, COALESCE(available,
                0)::text AS available
         FROM ledger_asset_snapshots WHERE sub_uid = $1 AND day >= ${since} ORDER BY day, coin`,
      [subUid, days],
    ),
    db.query<{ from: string; to: string }>(
      `SELECT to_char((now() AT TIME ZONE 'UTC')::date - ($1::int - 1), 'YYYY-MM-DD') AS from,
              to_char((now() AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS to`,
      [days],
    ),
  ]);
  const held = marks.rows.map((r) => r.day);
  return {
    subUid,
    days: held,
    balances: rows.rows,
    coverage: snapshotCoverage(range.rows[0]!.from, range.rows[0]!.to, held),
  };
}

/** Gap days a balance history names (the rest are counted). */
export const MISSING_DAYS_LISTED = 10;
const DAY_MS = 86_400_000;
const dayMs = (day: string) => Date.parse(`${day}T00:00:00Z`);

/**
 * Of the UTC days [from, to], those with a snapshot (`held`, oldest first): a snapshot is of the present (E2),
 * so a day without one is not known, never "held nothing".
 */
export function snapshotCoverage(from: string, to: string, held: readonly string[]): SnapshotCoverage {
  const have = new Set(held);
  const firstHeld = held[0] ?? null;
  const gaps: string[] = [];
  let gapCount = 0;
  if (firstHeld)
    for (let t = dayMs(firstHeld); t <= dayMs(to); t += DAY_MS) {
      const day = new Date(t).toISOString().slice(0, 10);
      if (have.has(day)) continue;
      gapCount++;
      if (gaps.length < MISSING_DAYS_LISTED) gaps.push(day);
    }
  return {
    from,
    to,
    days: Math.round((dayMs(to) - dayMs(from)) / DAY_MS) + 1,
    held: held.length,
    firstHeld,
    gaps,
    gapCount,
  };
}

export async function rebateHistory(db: Queryable, subUid: string, days = DEFAULT_DAYS): Promise<RebateHistory> {
  await known(db, subUid);
  const { rows } = await db.query<{
    day: string;
    affiliation_type: string;
    user_level: string;
    spot: string | null;
    futures: string | null;
  }>(
    `SELECT to_char(day, 'YYYY-MM-DD') AS day, affiliation_type, user_level, spot_rebate_ratio::text AS spot,
       futures_rebate_ratio::text AS futures
       FROM ledger_rebate_snapshots WHERE sub_uid = $1 AND day >= (now() AT TIME ZONE 'UTC')::date - ($2::int - 1)
         ORDER BY day DESC`,
    [subUid, days],
  );
  return {
    subUid,
    rows: rows.map((r) => ({
      day: r.day,
      affiliationType: r.affiliation_type,
      userLevel: r.user_level,
      spotRebateRatio: r.spot,
      futuresRebateRatio: r.futures,
    })),
  };
}
