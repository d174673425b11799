import "server-only";
// One deposit's page: the record as the ledger keeps it (every field, its value at its day's price), its
// sub-account's registry entry, and the status changes the sync kept (ledger_deposit_changes: the first
// sighting, from null, then each change), oldest first.
import { DomainError } from "@/lib/api/errors";
import type { LedgerDepositDetail } from "@/lib/api/ledger";
import type { Queryable } from "@/server/db";
import { priceJoin, priceOf, utcDayOf, valueOf } from "../prices/queries";
import { toView, type Row } from "./queries";

const ORDER_ID = /^[A-Za-z0-9]{1,64}$/;

export async function depositDetail(db: Queryable, orderId: string): Promise<LedgerDepositDetail> {
  if (!ORDER_ID.test(orderId)) throw new DomainError("not_found", "No deposit with this record ID in the ledger");
  const { rows } = await db.query<Row & { label: string | null; price_day: string; price_usdt: string | null }>(
    `SELECT d.order_id, d.sub_uid, d.coin, d.amount::text AS amount, d.status, d.chain, d.dest, d.from_address,
            d.to_address, d.tx_id, d.ctime::text AS ctime, d.gone_at, round(${valueOf("d")}, 2)::text AS value_usdt,
            s.subaccount_name, s.label, to_char(${utcDayOf("d.ctime")}, 'YYYY-MM-DD') AS price_day,
            ${priceOf("d")}::text AS price_usdt
       FROM ledger_deposits d ${priceJoin("d")} LEFT JOIN subaccounts s ON s.sub_uid = d.sub_uid
      WHERE d.order_id = $1`,
    [orderId],
  );
  const r = rows[0];
  if (!r) throw new DomainError("not_found", "No deposit with this record ID in the ledger");
  const changes = await db.query<{ from_status: string | null; to_status: string; seen_at: Date | string }>(
    `SELECT from_status, to_status, seen_at FROM ledger_deposit_changes WHERE order_id = $1 ORDER BY id`,
    [orderId],
  );
  return {
    deposit: toView(r),
    subaccountLabel: r.label,
    priceDay: r.price_day,
    priceUsdt: r.price_usdt,
    changes: changes.rows.map((c) => ({
      fromStatus: c.from_status,
      toStatus: c.to_status,
      seenAt: new Date(c.seen_at).toISOString(),
    })),
  };
}
