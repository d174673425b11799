import "server-only";
// What the ledger holds completely of every dataset its sync keeps (engine.ts registers them), over one range,
// each in its own unit: deposits per registry sub-account (ledger_sync's spans, as ./coverage.ts counts them);
// fills per key and plan orders per key and symbol (ledger_key_sync's spans); balance and rebate snapshots per
// registry sub-account, complete when every UTC day of the range has its snapshot (ledger_snapshot_days: the
// platform answers only the present, so no day before the first snapshot can be had, and the range is judged
// from then); prices per coin the sync prices, complete when every UTC day of the range has a price (E8 holds
// the last PRICE_DAYS days, so the range is judged from then). /api/ledger/coverage answers with it.
import type { DatasetCoverage, SyncedDataset } from "@/lib/api/ledger/coverage";
import type { Queryable } from "@/server/db";
import { coverageOf, keySpansComplete } from "./coverage";
import { PRICE_DAYS } from "./prices/sync";
import { ASSETS_SNAPSHOT_JOB, REBATE_SNAPSHOT_JOB, utcDay } from "./snapshots/sync";
import { FILLS_JOB, PLAN_ORDERS_JOB } from "./trades/store";

const DAY = 86_400_000;

export type DatasetsCoverageQuery = {
  /** The range (ms or Date; absent from: the whole history; absent to: up to now). */
  from?: number | Date | null;
  to?: number | Date | null;
  /** Only these sub-accounts for the datasets kept per sub-account (absent: the registry). */
  uids?: readonly string[];
  now?: number;
};

type Query = Omit<DatasetsCoverageQuery, "from" | "to"> & { from: number | null; to: number | null };
const iso = (v: number | null | undefined) => (v == null ? null : new Date(v).toISOString());

const ms = (v: number | Date | null | undefined) => (v == null ? null : typeof v === "number" ? v : v.getTime());

export async function datasetsCoverage(db: Queryable, given: DatasetsCoverageQuery = {}): Promise<DatasetCoverage[]> {
  const q = { ...given, from: ms(given.from), to: ms(given.to) };
  const now = q.now ?? Date.now();
  const deposits = await coverageOf(db, { dataset: "deposits", from: q.from, to: q.to, uids: q.uids, limit: 0, now });
  const keyed = async (dataset: "fills" | "plan-orders"): Promise<DatasetCoverage> => {
    const c = await keySpansComplete(db, dataset === "fills" ? FILLS_JOB : PLAN_ORDERS_JOB, { ...q, now });
    return {
      dataset,
      unit: dataset === "fills" ? "key" : "key and symbol",
      from: iso(q.from),
      to: iso(q.to),
      ...c,
    };
  };
  return [
    {
      dataset: "deposits",
      unit: "sub-account",
      from: deposits.from,
      to: deposits.to,
      total: deposits.total,
      complete: deposits.complete,
      currentTo: deposits.currentTo,
    },
    await keyed("fills"),
    await keyed("plan-orders"),
    await snapshotDays(db, "balance-snapshots", ASSETS_SNAPSHOT_JOB, q, now),
    await snapshotDays(db, "rebate-snapshots", REBATE_SNAPSHOT_JOB, q, now),
    await priceDays(db, q, now),
  ];
}

/** Registry sub-accounts with a snapshot on every UTC day of the range, from the job's first snapshot on. */
async function snapshotDays(
  db: Queryable,
  dataset: Extract<SyncedDataset, `${string}-snapshots`>,
  job: string,
  q: Query,
  now: number,
): Promise<DatasetCoverage> {
  const { rows } = await db.query<{ total: number; complete: number; lo: string | null; hi: string }>(
    `WITH r AS (SELECT sub_uid FROM subaccounts WHERE $2::text[] IS NULL OR sub_uid = ANY($2::text[])),
          b AS (SELECT GREATEST($3::date, (SELECT min(day) FROM ledger_snapshot_days WHERE job = $1)) AS lo,
                       $4::date AS hi)
     SELECT (SELECT count(*) FROM r)::int AS total, b.lo::text AS lo, b.hi::text AS hi,
            (SELECT count(*) FROM (SELECT d.sub_uid FROM ledger_snapshot_days d JOIN r ON r.sub_uid = d.sub_uid
               WHERE d.job = $1 AND d.day BETWEEN b.lo AND b.hi GROUP BY d.sub_uid
               HAVING count(*) = b.hi - b.lo + 1) x)::int AS complete
       FROM b`,
    [job, q.uids ? [...q.uids] : null, utcDay(q.from ?? 0), utcDay(Math.min(q.to ?? now, now))],
  );
  const r = rows[0]!;
  // No snapshot taken yet, or a range that ends before the first: nothing of it can be held.
  const judged = r.lo !== null && r.lo <= r.hi;
  return {
    dataset,
    unit: "sub-account",
    from: judged ? `${r.lo}T00:00:00.000Z` : iso(q.from),
    to: `${r.hi}T23:59:59.999Z`,
    total: r.total,
    complete: judged ? r.complete : 0,
    currentTo: null,
  };
}

/** Coins the sync prices with a price on every UTC day of the range, within the days E8 still holds. */
async function priceDays(db: Queryable, q: Query, now: number): Promise<DatasetCoverage> {
  const lo = utcDay(Math.max(q.from ?? 0, now - PRICE_DAYS * DAY));
  const hi = utcDay(Math.min(q.to ?? now, now));
  const { rows } = await db.query<{ total: number; complete: number }>(
    `SELECT count(*)::int AS total,
            count(*) FILTER (WHERE NOT s.no_market AND $1::date <= $2::date AND (
              SELECT count(*) FROM ledger_coin_prices p WHERE p.coin = s.coin AND p.day BETWEEN $1::date AND $2::date
            ) = $2::date - $1::date + 1)::int AS complete
       FROM ledger_price_sync s`,
    [lo, hi],
  );
  return {
    dataset: "prices",
    unit: "coin",
    from: `${lo}T00:00:00.000Z`,
    to: `${hi}T23:59:59.999Z`,
    total: rows[0]!.total,
    complete: lo <= hi ? rows[0]!.complete : 0,
    currentTo: null,
  };
}
