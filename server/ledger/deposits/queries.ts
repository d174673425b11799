import "server-only";
// Reading the deposit ledger: one WHERE clause from the filters, then a keyset page (newest first by
// (ctime, order_id)), the exact count and totals per coin, and the per-day series, all over the whole
// filtered set in the database (not over the rows of one page). Amounts are summed as numeric.
import { DomainError } from "@/lib/api/errors";
import {
  SYNC_ROWS_DEFAULT,
  type LedgerDeposit,
  type LedgerDepositFilters,
  type LedgerDepositPage,
  type LedgerFreshness,
  type LedgerSyncJob,
  type LedgerSyncRow,
  type ValuedTotal,
} from "@/lib/api/ledger";
import { HEX_IDENTIFIER } from "@/lib/withdrawal-addresses";
import type { Db, Queryable } from "@/server/db";
import { keysetPage, sqlFilters, type CursorCodec } from "@/server/db/keyset";
import { coverageOf } from "../coverage";
import { DEPOSITS_JOB } from "./sync";
import { priceJoin, valueOf } from "../prices/queries";

export type Row = {
  order_id: string;
  sub_uid: string;
  subaccount_name: string | null;
  coin: string;
  amount: string;
  status: string;
  chain: string;
  dest: string;
  from_address: string;
  to_address: string;
  tx_id: string;
  ctime: string;
  gone_at: Date | string | null;
  value_usdt: string | null;
};
export type Key = { ctime: string; orderId: string };

const codec: CursorCodec<Key> = {
  encode: (k) => `${k.ctime}_${k.orderId}`,
  decode: (c) => {
    const m = /^(\d{1,16})_([A-Za-z0-9]{1,64})$/.exec(c);
    return m ? { ctime: m[1]!, orderId: m[2]! } : null;
  },
};

const COLUMNS = `d.order_id, d.sub_uid, d.coin, d.amount::text AS amount, d.status, d.chain, d.dest,
  d.from_address, d.to_address, d.tx_id, d.ctime::text AS ctime, d.gone_at,
    round(${valueOf("d")}, 2)::text AS value_usdt`;
/** The deposits, each with its day's price (px) beside it: what the value column and filter read. */
export const PRICED_DEPOSITS = `ledger_deposits d ${priceJoin("d")}`;
const SELECT = `SELECT ${COLUMNS}, s.subaccount_name FROM ${PRICED_DEPOSITS}
  LEFT JOIN subaccounts s ON s.sub_uid = d.sub_uid`;
/** Without the registry's names (an export looks each sub-account's name up once, not once per row). */
const SELECT_UNNAMED = `SELECT ${COLUMNS}, NULL::text AS subaccount_name FROM ${PRICED_DEPOSITS}`;
/** Success, fail, and any other status (pending on the platform) as pending: the totals' split. */
const STATUS_GROUP = `(CASE WHEN d.status = 'success' THEN 'success' WHEN d.status IN ('fail', 'failed') THEN 'fail'
  ELSE 'pending' END)`;
const DAY_MS = 86_400_000;

/** The filters as SQL on ledger_deposits (alias d), every value a parameter. */
function filtersOf(f: LedgerDepositFilters) {
  const w = sqlFilters();
  if (f.subUid) w.add((p) => `d.sub_uid = ${p}`, f.subUid);
  if (f.coin) w.add((p) => `d.coin = ${p}`, f.coin);
  if (f.status) w.add((p) => `d.status = ${p}`, f.status);
  if (f.minAmount) w.add((p) => `d.amount >= ${p}::numeric`, f.minAmount);
  if (f.maxAmount) w.add((p) => `d.amount <= ${p}::numeric`, f.maxAmount);
  // Over PRICED_DEPOSITS: a deposit without a price has a NULL value and matches neither bound.
  if (f.minValue) w.add((p) => `${valueOf("d")} >= ${p}::numeric`, f.minValue);
  if (f.maxValue) w.add((p) => `${valueOf("d")} <= ${p}::numeric`, f.maxValue);
  if (f.q) {
    const q = f.q;
    // Hex is one value in any case; anything else (a base58 address) exactly as typed. Through lower() either
    // way, which is what the columns' indexes are on (migration 0016).
    const hex = HEX_IDENTIFIER.test(q);
    w.add((p) => {
      const match = (col: string) =>
        hex ? `lower(${col}) = lower(${p})` : `(lower(${col}) = lower(${p}) AND ${col} = ${p})`;
      return `(d.order_id = ${p} OR ${["d.tx_id", "d.from_address", "d.to_address"].map(match).join(" OR ")})`;
    }, q);
  }
  if (f.from) w.add((p) => `d.ctime >= ${p}`, f.from.getTime());
  if (f.to) w.add((p) => `d.ctime <= ${p}`, f.to.getTime());
  return w;
}

export const toView = (r: Row): LedgerDeposit => ({
  orderId: r.order_id,
  subUid: r.sub_uid,
  subaccountName: r.subaccount_name,
  coin: r.coin,
  amount: r.amount,
  status: r.status,
  chain: r.chain,
  dest: r.dest,
  fromAddress: r.from_address,
  toAddress: r.to_address,
  txId: r.tx_id,
  cTime: r.ctime,
  goneAt: r.gone_at === null ? null : new Date(r.gone_at).toISOString(),
  valueUsdt: r.value_usdt,
});

export const depositsQuery = (f: LedgerDepositFilters, o: { names?: boolean } = {}) => {
  const w = filtersOf(f);
  return {
    select: o.names === false ? SELECT_UNNAMED : SELECT,
    where: w.where,
    params: w.params,
    orderBy: "d.ctime DESC, d.order_id DESC",
    olderThan: (k: Key, p: (v: unknown) => string) =>
      `(d.ctime, d.order_id) < (${p(k.ctime)}::bigint, ${p(k.orderId)})`,
    keyOf: (r: Row): Key => ({ ctime: r.ctime, orderId: r.order_id }),
    codec,
    pageSize: { default: 50, max: 500 },
  };
};

export async function searchDeposits(db: Db, f: LedgerDepositFilters): Promise<LedgerDepositPage> {
  const page = await keysetPage<Row, Key>(db, { ...depositsQuery(f), cursor: f.cursor, limit: f.limit });
  const w = filtersOf(f);
  const where = w.where.length ? `WHERE ${w.where.join(" AND ")}` : "";
  // The per-day count reads prices only when a value filter needs them.
  const perDayFrom = f.minValue || f.maxValue ? PRICED_DEPOSITS : "ledger_deposits d";
  const n = w.params.length;
  const [totals, perDay, freshness, coverage] = await Promise.all([
    depositTotals(db, where, w.params),
    // Every day of the range asked (else of the matches), a day without deposits as 0: gaps and bursts show.
    // Grouped by the UTC day's number first, formatted per day after: to_char on every record cost more than the scan.
    db.query<{ day: string; count: number }>(
      `WITH c AS (SELECT d.ctime / ${DAY_MS} AS k, count(*)::int AS n FROM ${perDayFrom} ${where} GROUP BY 1)
       SELECT to_char(DATE '1970-01-01' + s.k::int, 'YYYY-MM-DD') AS day, COALESCE(c.n, 0)::int AS count
         FROM generate_series(COALESCE($${n + 1}::bigint, (SELECT min(k) FROM c)),
           COALESCE($${n + 2}::bigint, (SELECT max(k) FROM c))) AS s(k)
         LEFT JOIN c ON c.k = s.k
        WHERE EXISTS (SELECT 1 FROM c) ORDER BY s.k`,
      [...w.params, ...dayBounds(f)],
    ),
    ledgerFreshness(db),
    depositsCoverage(db, f),
  ]);
  return {
    rows: page.items.map(toView),
    nextCursor: page.nextCursor,
    ...totals,
    perDay: perDay.rows,
    freshness,
    coverage,
  };
}

/** How many records the filters select (an export counts before it writes, and refuses a set over its cap). */
export async function countDeposits(db: Db, f: LedgerDepositFilters): Promise<number> {
  const w = filtersOf(f);
  const from = f.minValue || f.maxValue ? PRICED_DEPOSITS : "ledger_deposits d";
  const { rows } = await db.query<{ n: string }>(
    `SELECT count(*)::text AS n FROM ${from} ${w.where.length ? `WHERE ${w.where.join(" AND ")}` : ""}`,
    w.params,
  );
  return Number(rows[0]!.n);
}

/** The UTC day numbers the chart spans: the range's own days, the end no later than today (null: the matches'). */
function dayBounds(f: LedgerDepositFilters): [number | null, number | null] {
  const today = Math.floor(Date.now() / DAY_MS);
  const first = f.from ? Math.floor(f.from.getTime() / DAY_MS) : null;
  const last = f.to ? Math.min(Math.floor(f.to.getTime() / DAY_MS), today) : null;
  return [first, last === null || first === null || last >= first ? last : first];
}

type TotalRow = {
  coin: string | null;
  g: string | null;
  gc: number;
  gg: number;
  count: number;
  amount: string;
  value: string | null;
  unpriced: number;
};

/** Totals of the filtered set: per coin, per coin and status group, per status group over every coin, in one scan. */
async function depositTotals(db: Db, where: string, params: unknown[]) {
  const { rows } = await db.query<TotalRow>(
    `SELECT coin, g, GROUPING(coin)::int AS gc, GROUPING(g)::int AS gg,
      count(*)::int AS count, sum(amount)::text AS amount,
            round(sum(v), 2)::text AS value, (count(*) - count(v))::int AS unpriced
       FROM (SELECT d.coin, ${STATUS_GROUP} AS g, d.amount, ${valueOf("d")} AS v FROM ${PRICED_DEPOSITS} ${where}) t
      GROUP BY GROUPING SETS ((coin), (coin, g), (g))`,
    params,
  );
  const empty = (): ValuedTotal => ({ count: 0, amount: "0", value: null, unpriced: 0 });
  const part = (r: TotalRow) => ({ count: r.count, amount: r.amount, value: r.value, unpriced: r.unpriced });
  const perCoin = rows.filter((r) => r.gc === 0 && r.gg === 1);
  perCoin.sort((a, b) => b.count - a.count || a.coin!.localeCompare(b.coin!));
  const split = new Map(
    perCoin.map((r) => [r.coin!, { coin: r.coin!, success: empty(), pending: empty(), fail: empty() }]),
  );
  const all = { success: empty(), pending: empty(), fail: empty() };
  for (const r of rows) {
    const g = r.g as "success" | "pending" | "fail" | null;
    if (g === null) continue;
    if (r.gc === 0) split.get(r.coin!)![g] = part(r);
    else all[g] = part(r);
  }
  const valueAll = (t: ValuedTotal) => ({ count: t.count, value: t.value, unpriced: t.unpriced });
  return {
    total: perCoin.reduce((n, t) => n + t.count, 0),
    totals: perCoin.map((r) => ({ coin: r.coin!, count: r.count, amount: r.amount })),
    totalsByStatus: [...split.values()],
    valueByStatus: { success: valueAll(all.success), pending: valueAll(all.pending), fail: valueAll(all.fail) },
  };
}

/** What the ledger holds completely of the filters' range and sub-account (all of the registry's when none). */
export const depositsCoverage = (db: Queryable, f: Pick<LedgerDepositFilters, "subUid" | "from" | "to">) =>
  coverageOf(db, { dataset: "deposits", from: f.from, to: f.to, uids: f.subUid ? [f.subUid] : undefined });

export async function ledgerFreshness(db: Queryable): Promise<LedgerFreshness> {
  const { rows } = await db.query<{
    subaccounts: number;
    checked: number;
    backfilled: number;
    oldest: Date | null;
    newest: Date | null;
    failing: number;
  }>(
    `SELECT (SELECT count(*)::int FROM subaccounts) AS subaccounts,
            count(*)::int AS checked,
            count(*) FILTER (WHERE backfill_done)::int AS backfilled,
            min(last_success_at) AS oldest, max(last_success_at) AS newest,
            count(*) FILTER (WHERE errors > 0)::int AS failing
       FROM ledger_sync WHERE job = $1`,
    [DEPOSITS_JOB],
  );
  const r = rows[0]!;
  const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
  return {
    subaccounts: r.subaccounts,
    checked: r.checked,
    backfilled: r.backfilled,
    oldestCheckAt: iso(r.oldest),
    newestCheckAt: iso(r.newest),
    failing: r.failing,
  };
}

/**
 * Each sync job over everything it keeps: how many it has started on, checked and failing, its lag, records and calls.
 */
export async function syncJobs(db: Queryable): Promise<Omit<LedgerSyncJob, "budget">[]> {
  const { rows } = await db.query<{
    job: string;
    units: number;
    checked: number;
    failing: number;
    lag: string | null;
    records: string;
    calls: string;
  }>(
    `SELECT job, count(*)::int AS units, count(last_success_at)::int AS checked,
            count(*) FILTER (WHERE errors > 0)::int AS failing,
            EXTRACT(EPOCH FROM now() - min(last_success_at))::text AS lag, sum(records)::text AS records,
            sum(calls)::text AS calls
       FROM (SELECT job, last_success_at, errors, records, calls FROM ledger_sync
             UNION ALL SELECT job, last_success_at, errors, records, calls FROM ledger_key_sync) s
      GROUP BY job ORDER BY job`,
  );
  return rows.map((r) => ({
    job: r.job,
    units: r.units,
    checked: r.checked,
    failing: r.failing,
    lagSeconds: r.lag === null ? null : Math.round(Number(r.lag)),
    records: Number(r.records),
    calls: Number(r.calls),
  }));
}

/**
 * The deposit sync's state per registry sub-account (the /sync page): the `limit` needing attention most
 * (failing first, then the longest since a success, never checked first of all), or the one asked for.
 */
export async function syncStatus(
  db: Queryable,
  opts: { subUid?: string; limit?: number } = {},
): Promise<LedgerSyncRow[]> {
  const { rows } = await db.query<{
    sub_uid: string;
    subaccount_name: string | null;
    backfill_done: boolean | null;
    newest_ctime: string | null;
    last_checked_at: Date | null;
    last_success_at: Date | null;
    next_check_at: Date | null;
    records: string | null;
    calls: string | null;
    errors: number | null;
    last_error: string | null;
  }>(
    `SELECT r.sub_uid, r.subaccount_name, s.backfill_done, s.newest_ctime::text AS newest_ctime, s.last_checked_at,
            s.last_success_at, s.next_check_at, s.records::text AS records, s.calls::text AS calls, s.errors,
            s.last_error
       FROM subaccounts r LEFT JOIN ledger_sync s ON s.job = $1 AND s.sub_uid = r.sub_uid
      WHERE $2::text IS NULL OR r.sub_uid = $2
      ORDER BY COALESCE(s.errors, 0) > 0 DESC, s.last_success_at ASC NULLS FIRST, r.sub_uid
      LIMIT $3`,
    [DEPOSITS_JOB, opts.subUid ?? null, opts.limit ?? SYNC_ROWS_DEFAULT],
  );
  const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
  return rows.map((r) => ({
    subUid: r.sub_uid,
    subaccountName: r.subaccount_name,
    backfillDone: r.backfill_done ?? false,
    newestRecordAt: r.newest_ctime === null ? null : new Date(Number(r.newest_ctime)).toISOString(),
    lastCheckedAt: iso(r.last_checked_at),
    lastSuccessAt: iso(r.last_success_at),
    nextCheckAt: iso(r.next_check_at),
    records: Number(r.records ?? 0),
    calls: Number(r.calls ?? 0),
    errors: r.errors ?? 0,
    lastError: r.last_error,
  }));
}

/** "Check now": the sub-account is due at once; the next sweep (of any instance) queues it. */
export async function checkNow(db: Queryable, subUid: string): Promise<{ subUid: string; nextCheckAt: string }> {
  const known = await db.query(`SELECT 1 FROM subaccounts WHERE sub_uid = $1`, [subUid]);
  if (!known.rows.length) throw new DomainError("not_found", "No sub-account with this UID in the registry");
  const { rows } = await db.query<{ next_check_at: Date }>(
    `INSERT INTO ledger_sync (job, sub_uid, next_check_at) VALUES ($1, $2, now())
     ON CONFLICT (job, sub_uid) DO UPDATE SET next_check_at = now() RETURNING next_check_at`,
    [DEPOSITS_JOB, subUid],
  );
  return { subUid, nextCheckAt: new Date(rows[0]!.next_check_at).toISOString() };
}
