import "server-only";
// Reading the ledger's fills and plan orders of one configured key: the filters as one WHERE clause, a keyset
// page newest first by (ctime, ID), the exact count of the whole filtered set, where the key's sync stands, and
// what the ledger holds completely of the range asked (../coverage.ts).
import { DomainError } from "@/lib/api/errors";
import type {
  LedgerFill,
  LedgerFillFilters,
  LedgerFillPage,
  LedgerKeySync,
  LedgerPlanOrder,
  LedgerPlanOrderFilters,
  LedgerPlanOrderPage,
} from "@/lib/api/ledger/trades";
import type { Role } from "@/lib/rbac";
import type { Db, Queryable } from "@/server/db";
import { keysetPage, sqlFilters, type CursorCodec } from "@/server/db/keyset";
import type { CredentialStore } from "@/server/platform/credentials";
import { keyCoverageOf } from "../coverage";
import { FILLS_JOB, PLAN_ORDERS_JOB } from "./store";

type Key = { ctime: string; id: string };
const codec: CursorCodec<Key> = {
  encode: (k) => `${k.ctime}_${k.id}`,
  decode: (c) => {
    const m = /^(\d{1,16})_(\d{1,32})$/.exec(c);
    return m ? { ctime: m[1]!, id: m[2]! } : null;
  },
};
const PAGE_SIZE = { default: 50, max: 500 };

/**
 * A key's records are that account's activity: a named key's only for the roles that may choose it (as on
 * the proxy routes), whether or not it is still configured.
 */
export function ledgerKeyRefusal(
  credentials: CredentialStore,
  key: string | undefined,
  role: Role,
): DomainError | null {
  if (!key || key === "main" || credentials.mayChoose(key, role)) return null;
  return new DomainError("forbidden", `Your role (${role}) may not read the records of the platform key "${key}"`);
}

/** Filters shared by both lists on alias t; every value a parameter. */
function commonFilters(f: LedgerFillFilters | LedgerPlanOrderFilters) {
  const w = sqlFilters();
  w.add((p) => `t.key_name = ${p}`, f.key ?? "main");
  if (f.symbol) w.add((p) => `t.symbol = ${p}`, f.symbol);
  if (f.side) w.add((p) => `t.side = ${p}`, f.side);
  if (f.orderId) w.add((p) => `t.order_id = ${p}`, f.orderId);
  if (f.from) w.add((p) => `t.ctime >= ${p}`, f.from.getTime());
  if (f.to) w.add((p) => `t.ctime <= ${p}`, f.to.getTime());
  return w;
}

type Table<Row> = {
  table: "ledger_fills" | "ledger_plan_orders";
  job: typeof FILLS_JOB | typeof PLAN_ORDERS_JOB;
  /** The select list, on alias t; ctime among it. */
  columns: string;
  idColumn: "trade_id" | "order_id";
  idOf: (r: Row) => string;
};

/**
 * One page of a key's table, newest first by (ctime, the record's ID): the order, the rows older than a
 * cursor's key and a row's key agree. With it, the exact count of the whole filtered set and where the key's
 * sync stands.
 */
async function searchKeyTable<Row extends { ctime: string }>(
  db: Db,
  f: LedgerFillFilters | LedgerPlanOrderFilters,
  w: { where: string[]; params: unknown[] },
  t: Table<Row>,
) {
  const [page, total, sync, coverage] = await Promise.all([
    keysetPage<Row, Key>(db, {
      select: `SELECT ${t.columns} FROM ${t.table} t`,
      where: w.where,
      params: w.params,
      orderBy: `t.ctime DESC, t.${t.idColumn} DESC`,
      olderThan: (k, p) => `(t.ctime, t.${t.idColumn}) < (${p(k.ctime)}::bigint, ${p(k.id)})`,
      keyOf: (r) => ({ ctime: r.ctime, id: t.idOf(r) }),
      codec,
      cursor: f.cursor,
      limit: f.limit,
      pageSize: PAGE_SIZE,
    }),
    count(db, t.table, w),
    keySync(db, t.job, f.key ?? "main"),
    keyCoverageOf(db, {
      dataset: t.job === FILLS_JOB ? "fills" : "plan-orders",
      key: f.key ?? "main",
      symbol: f.symbol,
      from: f.from,
      to: f.to,
    }),
  ]);
  return { page, total, sync, coverage };
}

async function count(db: Queryable, table: string, w: { where: string[]; params: unknown[] }): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ${table} t WHERE ${w.where.join(" AND ")}`,
    w.params,
  );
  return rows[0]?.n ?? 0;
}

async function keySync(db: Queryable, job: string, key: string): Promise<LedgerKeySync> {
  const { rows } = await db.query<{ last: Date | null; done: boolean | null; failing: boolean | null }>(
    `SELECT min(last_success_at) AS last, bool_and(backfill_done) AS done, bool_or(errors > 0) AS failing
       FROM ledger_key_sync WHERE job = $1 AND key_name = $2`,
    [job, key],
  );
  const r = rows[0];
  return {
    key,
    lastSuccessAt: r?.last ? new Date(r.last).toISOString() : null,
    backfillDone: r?.done ?? false,
    failing: r?.failing ?? false,
  };
}

type FillRow = {
  trade_id: string;
  order_id: string;
  symbol: string;
  order_type: string;
  side: string;
  price_avg: string | null;
  size: string | null;
  amount: string | null;
  fee_coin: string;
  total_fee: string | null;
  trade_scope: string;
  ctime: string;
};

export async function searchFills(db: Db, f: LedgerFillFilters): Promise<LedgerFillPage> {
  const w = commonFilters(f);
  if (f.tradeScope) w.add((p) => `t.trade_scope = ${p}`, f.tradeScope);
  const { page, total, sync, coverage } = await searchKeyTable<FillRow>(db, f, w, {
    table: "ledger_fills",
    job: FILLS_JOB,
    idColumn: "trade_id",
    idOf: (r) => r.trade_id,
    columns: `t.trade_id, t.order_id, t.symbol, t.order_type, t.side, t.price_avg::text AS price_avg,
      t.size::text AS size,
              t.amount::text AS amount, t.fee_coin, t.total_fee::text AS total_fee, t.trade_scope,
                t.ctime::text AS ctime`,
  });
  const rows = page.items.map((r): LedgerFill => ({
    tradeId: r.trade_id,
    orderId: r.order_id,
    symbol: r.symbol,
    orderType: r.order_type,
    side: r.side,
    priceAvg: r.price_avg,
    size: r.size,
    amount: r.amount,
    feeCoin: r.fee_coin,
    totalFee: r.total_fee,
    tradeScope: r.trade_scope,
    cTime: r.ctime,
  }));
  return { rows, nextCursor: page.nextCursor, total, sync, coverage };
}

type PlanRow = {
  order_id: string;
  client_oid: string;
  symbol: string;
  side: string;
  order_type: string;
  plan_type: string;
  trigger_type: string;
  trigger_price: string | null;
  execute_price: string | null;
  size: string | null;
  status: string;
  seen: number;
  ctime: string;
  utime: string | null;
};

export async function searchPlanOrders(db: Db, f: LedgerPlanOrderFilters): Promise<LedgerPlanOrderPage> {
  const w = commonFilters(f);
  if (f.status) w.add((p) => `t.status = ${p}`, f.status);
  const { page, total, sync, coverage } = await searchKeyTable<PlanRow>(db, f, w, {
    table: "ledger_plan_orders",
    job: PLAN_ORDERS_JOB,
    idColumn: "order_id",
    idOf: (r) => r.order_id,
    columns: `t.order_id, t.client_oid, t.symbol, t.side, t.order_type, t.plan_type, t.trigger_type,
      t.trigger_price::text AS trigger_price,
              t.execute_price::text AS execute_price, t.size::text AS size, t.status, t.ctime::text AS ctime,
                t.utime::text AS utime,
              (SELECT count(*)::int FROM ledger_plan_order_changes c WHERE c.key_name = t.key_name
                AND c.order_id = t.order_id) AS seen`,
  });
  const rows = page.items.map((r): LedgerPlanOrder => ({
    orderId: r.order_id,
    clientOid: r.client_oid,
    symbol: r.symbol,
    side: r.side,
    orderType: r.order_type,
    planType: r.plan_type,
    triggerType: r.trigger_type,
    triggerPrice: r.trigger_price,
    executePrice: r.execute_price,
    size: r.size,
    status: r.status,
    statusesSeen: r.seen,
    cTime: r.ctime,
    uTime: r.utime,
  }));
  return { rows, nextCursor: page.nextCursor, total, sync, coverage };
}
