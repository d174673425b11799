import "server-only";
// Storing pages of fills (E4) and plan orders (E3) in the ledger: one transaction and a few statements per
// page (the backfill's hot path), upserted by (key, platform ID) so a record is never kept twice. A fill
// does not change once made; a plan order's status does (not_trigger → executed …), and every status it
// was seen in is kept with the time it was seen.
import type { Fill, PlanOrder } from "@/lib/platform/catalog";
import type { Db, Queryable } from "@/server/db";
import { firstFrom, spanUnionSet } from "../spans";

export const FILLS_JOB = "fills";
export const PLAN_ORDERS_JOB = "plan-orders";

/** One row per ID (one INSERT … ON CONFLICT may not touch a row twice). */
const byId = <T>(rows: T[], id: (r: T) => string) => [...new Map(rows.map((r) => [id(r), r])).values()];

/** Stores fills; returns how many were new. Each symbol traded becomes one of the key's plan-order symbols. */
export async function storeFills(
  db: Db,
  key: string,
  page: Fill[],
  /** Run in the same transaction, after the page is stored (a walk's last page: its coverage). */
  after?: (tx: Queryable) => Promise<void>,
): Promise<number> {
  const rows = byId(page, (r) => r.tradeId);
  const col = (f: (r: Fill) => string) => rows.map(f);
  return db.transaction(async (tx) => {
    const inserted = await tx.query<{ trade_id: string }>(
      `INSERT INTO ledger_fills (key_name, trade_id, order_id, user_id, symbol, order_type, side, price_avg, size,
         amount, fee_coin, total_fee,
                                 fee_deduction, total_deduction_fee, trade_scope, ctime, utime)
       SELECT $1, t, o, u, s, ot, sd, NULLIF(pa, '')::numeric, NULLIF(sz, '')::numeric, NULLIF(am, '')::numeric, fc,
         NULLIF(tf, '')::numeric,
              dd, NULLIF(td, '')::numeric, sc, ct::bigint, NULLIF(ut, '')::bigint
         FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
           $10::text[], $11::text[],
                     $12::text[], $13::text[], $14::text[], $15::text[], $16::text[], $17::text[])
              AS t(t, o, u, s, ot, sd, pa, sz, am, fc, tf, dd, td, sc, ct, ut)
       ON CONFLICT (key_name, trade_id) DO NOTHING
       RETURNING trade_id`,
      [
        key,
        col((r) => r.tradeId),
        col((r) => r.orderId),
        col((r) => r.userId),
        col((r) => r.symbol),
        col((r) => r.orderType),
        col((r) => r.side),
        col((r) => r.priceAvg),
        col((r) => r.size),
        col((r) => r.amount),
        col((r) => r.feeDetail.feeCoin),
        col((r) => r.feeDetail.totalFee),
        col((r) => r.feeDetail.deduction),
        col((r) => r.feeDetail.totalDeductionFee),
        col((r) => r.tradeScope),
        col((r) => r.cTime),
        col((r) => r.uTime),
      ],
    );
    // E3 always names a symbol: the symbols a key trades are those its fills name (plus LEDGER_PLAN_SYMBOLS).
    await tx.query(
      `INSERT INTO ledger_key_sync (job, key_name, symbol) SELECT $1, $2,
         s FROM unnest($3::text[]) AS t(s) ON CONFLICT DO NOTHING`,
      [PLAN_ORDERS_JOB, key, [...new Set(rows.map((r) => r.symbol))]],
    );
    if (after) await after(tx);
    return inserted.rows.length;
  });
}

/** Upserts plan orders; returns how many were new or changed status (each gets a row in ledger_plan_order_changes). */
export async function storePlanOrders(
  db: Db,
  key: string,
  page: PlanOrder[],
  /** Run in the same transaction, after the page is stored (a walk's last page: its coverage). */
  after?: (tx: Queryable) => Promise<void>,
): Promise<number> {
  const rows = byId(page, (r) => r.orderId);
  const col = (f: (r: PlanOrder) => string) => rows.map(f);
  return db.transaction(async (tx) => {
    const { rows: known } = await tx.query<{ order_id: string; status: string }>(
      `SELECT order_id, status FROM ledger_plan_orders WHERE key_name = $1 AND order_id = ANY($2)`,
      [key, col((r) => r.orderId)],
    );
    const before = new Map(known.map((k) => [k.order_id, k.status]));
    await tx.query(
      `INSERT INTO ledger_plan_orders (key_name, order_id, client_oid, symbol, trigger_price, execute_price, order_type,
         plan_type, size, status, side,
                                       trigger_type, enter_point_source, ctime, utime)
       SELECT $1, o, co, s, NULLIF(tp, '')::numeric, NULLIF(ep, '')::numeric, ot, pt, NULLIF(sz, '')::numeric, st, sd,
         tt, src, ct::bigint, NULLIF(ut, '')::bigint
         FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
           $10::text[], $11::text[],
                     $12::text[], $13::text[], $14::text[], $15::text[])
              AS t(o, co, s, tp, ep, ot, pt, sz, st, sd, tt, src, ct, ut)
       ON CONFLICT (key_name, order_id) DO UPDATE SET status = EXCLUDED.status, execute_price = EXCLUDED.execute_price,
         utime = EXCLUDED.utime,
         last_seen_at = now()`,
      [
        key,
        col((r) => r.orderId),
        col((r) => r.clientOid),
        col((r) => r.symbol),
        col((r) => r.triggerPrice),
        col((r) => r.executePrice),
        col((r) => r.orderType),
        col((r) => r.planType),
        col((r) => r.size),
        col((r) => r.status),
        col((r) => r.side),
        col((r) => r.triggerType),
        col((r) => r.enterPointSource),
        col((r) => r.cTime),
        col((r) => r.uTime),
      ],
    );
    const changed = rows.filter((r) => before.get(r.orderId) !== r.status);
    if (changed.length) {
      await tx.query(
        `INSERT INTO ledger_plan_order_changes (key_name, order_id, from_status, to_status) SELECT $1,
           * FROM unnest($2::text[], $3::text[], $4::text[])`,
        [
          key,
          changed.map((r) => r.orderId),
          changed.map((r) => before.get(r.orderId) ?? null),
          changed.map((r) => r.status),
        ],
      );
    }
    if (after) await after(tx);
    return changed.length;
  });
}

/**
 * Joins [from, to] to the covered span of a key's fills (symbol '') or of its plan orders of a symbol
 * (../spans.ts); a window that ends the history covers back to 0.
 */
export async function extendKeyCoverage(
  tx: Queryable,
  task: { job: string; key: string; symbol: string },
  w: { from: number; to: number; endsHistory: boolean },
): Promise<void> {
  const p = { from: "$4", to: "$5", endsHistory: "$6" };
  await tx.query(
    `INSERT INTO ledger_key_sync (job, key_name, symbol, covered_from, covered_to)
     VALUES ($1, $2, $3, ${firstFrom(p)}, $5::bigint)
     ON CONFLICT (job, key_name, symbol) DO UPDATE SET ${spanUnionSet("ledger_key_sync", p)}`,
    [task.job, task.key, task.symbol, Math.floor(w.from), Math.floor(w.to), w.endsHistory],
  );
}
