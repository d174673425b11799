import "server-only";
// Reading the deposit ledger: one WHERE clause from the filters, then a keyset page (newest first by
// (ctime, order_id)), the exact count and totals per coin, and the per-day series, all over the whole
// filtered set in the database (not over the rows of one page). Amounts are summed as numeric.
import type { LedgerDeposit, LedgerDepositFilters, LedgerDepositPage, LedgerFreshness } from "@/lib/api/ledger";
import { LEDGER_DEPOSIT_CSV_COLUMNS } from "@/lib/api/ledger";
import { appendAudit } from "@/server/audit";
import type { StaffSession } from "@/server/auth/session";
import type { Db, Queryable } from "@/server/db";
import { keysetPage, keysetWalk, sqlFilters, type CursorCodec } from "@/server/db/keyset";
import { DEPOSITS_JOB } from "./deposits";

type Row = {
  order_id: string; sub_uid: string; subaccount_name: string | null; coin: string; amount: string; status: string; chain: string; dest: string;
  from_address: string; to_address: string; tx_id: string; ctime: string;
};
type Key = { ctime: string; orderId: string };

const codec: CursorCodec<Key> = {
  encode: (k) => `${k.ctime}_${k.orderId}`,
  decode: (c) => {
    const m = /^(\d{1,16})_([A-Za-z0-9]{1,64})$/.exec(c);
    return m ? { ctime: m[1]!, orderId: m[2]! } : null;
  },
};

const SELECT = `SELECT d.order_id, d.sub_uid, s.subaccount_name, d.coin, d.amount::text AS amount, d.status, d.chain, d.dest,
  d.from_address, d.to_address, d.tx_id, d.ctime::text AS ctime
  FROM ledger_deposits d LEFT JOIN subaccounts s ON s.sub_uid = d.sub_uid`;

/** The filters as SQL on ledger_deposits (alias d), every value a parameter. */
function filtersOf(f: LedgerDepositFilters) {
  const w = sqlFilters();
  if (f.subUid) w.add((p) => `d.sub_uid = ${p}`, f.subUid);
  if (f.coin) w.add((p) => `d.coin = ${p}`, f.coin);
  if (f.status) w.add((p) => `d.status = ${p}`, f.status);
  if (f.minAmount) w.add((p) => `d.amount >= ${p}::numeric`, f.minAmount);
  if (f.maxAmount) w.add((p) => `d.amount <= ${p}::numeric`, f.maxAmount);
  if (f.q) w.add((p) => `(d.tx_id = ${p} OR d.order_id = ${p} OR d.from_address = ${p} OR d.to_address = ${p})`, f.q);
  if (f.from) w.add((p) => `d.ctime >= ${p}`, f.from.getTime());
  if (f.to) w.add((p) => `d.ctime <= ${p}`, f.to.getTime());
  return w;
}

const toView = (r: Row): LedgerDeposit => ({
  orderId: r.order_id, subUid: r.sub_uid, subaccountName: r.subaccount_name, coin: r.coin, amount: r.amount, status: r.status,
  chain: r.chain, dest: r.dest, fromAddress: r.from_address, toAddress: r.to_address, txId: r.tx_id, cTime: r.ctime,
});

const query = (f: LedgerDepositFilters) => {
  const w = filtersOf(f);
  return {
    select: SELECT,
    where: w.where,
    params: w.params,
    orderBy: "d.ctime DESC, d.order_id DESC",
    olderThan: (k: Key, p: (v: unknown) => string) => `(d.ctime, d.order_id) < (${p(k.ctime)}::bigint, ${p(k.orderId)})`,
    keyOf: (r: Row): Key => ({ ctime: r.ctime, orderId: r.order_id }),
    codec,
    pageSize: { default: 50, max: 500 },
  };
};

export async function searchDeposits(db: Db, f: LedgerDepositFilters): Promise<LedgerDepositPage> {
  const page = await keysetPage<Row, Key>(db, { ...query(f), cursor: f.cursor, limit: f.limit });
  const w = filtersOf(f);
  const where = w.where.length ? `WHERE ${w.where.join(" AND ")}` : "";
  const [totals, perDay, freshness] = await Promise.all([
    db.query<{ coin: string; count: number; amount: string }>(
      `SELECT d.coin, count(*)::int AS count, sum(d.amount)::text AS amount FROM ledger_deposits d ${where} GROUP BY d.coin ORDER BY count(*) DESC, d.coin`,
      w.params,
    ),
    db.query<{ day: string; count: number }>(
      `SELECT to_char(to_timestamp(d.ctime / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*)::int AS count
         FROM ledger_deposits d ${where} GROUP BY 1 ORDER BY 1`,
      w.params,
    ),
    ledgerFreshness(db),
  ]);
  return {
    rows: page.items.map(toView),
    nextCursor: page.nextCursor,
    total: totals.rows.reduce((n, t) => n + t.count, 0),
    totals: totals.rows,
    perDay: perDay.rows,
    freshness,
  };
}

export async function ledgerFreshness(db: Queryable): Promise<LedgerFreshness> {
  const { rows } = await db.query<{ subaccounts: number; checked: number; backfilled: number; oldest: Date | null; newest: Date | null; failing: number }>(
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
  return { subaccounts: r.subaccounts, checked: r.checked, backfilled: r.backfilled, oldestCheckAt: iso(r.oldest), newestCheckAt: iso(r.newest), failing: r.failing };
}

/** The whole filtered set for a CSV export (recorded in the audit log first). */
export async function depositsForExport(
  db: Db, f: LedgerDepositFilters, session: StaffSession, ctx: { requestId: string; ip: string | null },
): Promise<AsyncIterable<unknown[]>> {
  await appendAudit(db, {
    actor: session.email, actorRole: session.role, action: "ledger.deposits-export", outcome: "info",
    params: { ...f, from: f.from?.toISOString(), to: f.to?.toISOString() }, requestId: ctx.requestId, ip: ctx.ip,
  });
  const q = query(f);
  return (async function* () {
    for await (const r of keysetWalk<Row, Key>(db, q, 5_000_000)) {
      const v = toView(r);
      yield LEDGER_DEPOSIT_CSV_COLUMNS.map((c) => v[c]);
    }
  })();
}
