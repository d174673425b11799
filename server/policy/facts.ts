import "server-only";
// What the policy knows of a withdrawal, read from the database: its USDT value at the day's price, where
// it goes (the address book, a registry sub-account, or somewhere new) and the sub-account's velocity
// windows. Read inside the request's transaction, under the sub-account's policy lock (lockPolicy), so two
// requests at once never both count the other as absent: the stored request row is the reservation, and
// a cancelled or rejected one stops counting (the window skips those states).
import Big from "big.js";
import type { DestinationKind, PolicyRule } from "@/lib/policy";
import type { Role } from "@/lib/rbac";
import { HEX_IDENTIFIER } from "@/lib/withdrawal-addresses";
import type { Queryable } from "@/server/db";
import { windowKey, windowsOf, type WindowTotals, type WithdrawalFacts } from "./evaluate";

/** A day's price older than this is not the price of the day: the value is unknown rather than stale. */
const PRICE_MAX_AGE_DAYS = 7;

/** Requests that no longer hold anything: they give back what they reserved. */
const NOT_COUNTED = ["rejected", "cancelled", "failed"];

/** Serialises policy decisions of one sub-account across instances (held to the transaction's end). */
export async function lockPolicy(tx: Queryable, subUid: string): Promise<void> {
  await tx.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`withdrawal-policy:${subUid}`]);
}

/** The USDT price of `coin` on `at`'s UTC day (or the latest within a week before), USDT itself 1; null if none. */
export async function usdtPrice(db: Queryable, coin: string, at: Date): Promise<string | null> {
  if (coin === "USDT") return "1";
  const { rows } = await db.query<{ usdt: string }>(
    `SELECT usdt::text AS usdt FROM ledger_coin_prices
     WHERE coin = $1 AND day <= ($2::timestamptz AT TIME ZONE 'UTC')::date
       AND day > ($2::timestamptz AT TIME ZONE 'UTC')::date - $3::int
     ORDER BY day DESC LIMIT 1`,
    [coin, at.toISOString(), PRICE_MAX_AGE_DAYS],
  );
  return rows[0]?.usdt ?? null;
}

export type DestinationQuery = {
  subUid: string;
  dest: string;
  chain: string | null;
  address: string;
  tag: string | null;
};

/**
 * In the address book (approved, and its lock passed by `at`), else an internal transfer to a registry
 * sub-account, else a new address. The book's match is the ledger's (withdrawal-ledger.ts IN_BOOK).
 */
export async function destinationKind(db: Queryable, d: DestinationQuery, at: Date): Promise<DestinationKind> {
  const { rows } = await db.query<{ in_book: boolean; in_registry: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM withdrawal_destinations b
              WHERE b.state = 'approved' AND b.usable_from <= $6::timestamptz AND b.sub_uid = $1 AND b.dest = $2
                AND (b.address = $3 OR (b.address ~* '${HEX_IDENTIFIER.source}' AND lower(b.address) = lower($3)))
                AND b.chain = upper(coalesce($4, '')) AND b.tag = coalesce($5, '')) AS in_book,
            ($2 = 'internal_transfer' AND EXISTS (SELECT 1 FROM subaccounts s WHERE s.sub_uid = $3)) AS in_registry`,
    [d.subUid, d.dest, d.address, d.chain, d.tag, at.toISOString()],
  );
  if (rows[0]?.in_book) return "address_book";
  if (rows[0]?.in_registry) return "internal_registry";
  return "new_address";
}

/**
 * The sub-account's requests in the `hours` before `at` (of `coin`, or of every coin), counted, summed in the
 * coin and valued in USDT at each request's day's price; `excludeId` leaves one row out (the dry run's own).
 */
async function windowTotals(
  db: Queryable,
  subUid: string,
  w: { hours: number; coin: string | null },
  at: Date,
  excludeId: string | null,
): Promise<WindowTotals> {
  const { rows } = await db.query<{
    n: string | number;
    amount: string | null;
    value: string | null;
    unpriced: string | number;
  }>(
    `SELECT count(*) AS n,
            sum(r.amount::numeric)::text AS amount,
            sum(r.amount::numeric * CASE WHEN r.coin = 'USDT' THEN 1 ELSE p.usdt END)::text AS value,
            count(*) FILTER (WHERE r.coin <> 'USDT' AND p.usdt IS NULL) AS unpriced
       FROM withdrawal_requests r
       LEFT JOIN LATERAL (
         SELECT usdt FROM ledger_coin_prices c
          WHERE c.coin = r.coin AND c.day <= (r.requested_at AT TIME ZONE 'UTC')::date
            AND c.day > (r.requested_at AT TIME ZONE 'UTC')::date - ${PRICE_MAX_AGE_DAYS}
          ORDER BY c.day DESC LIMIT 1) p ON true
      WHERE r.sub_uid = $1 AND ($2::text IS NULL OR r.coin = $2)
        AND r.requested_at > $3::timestamptz - make_interval(hours => $4::int) AND r.requested_at <= $3::timestamptz
        AND r.state <> ALL ($5::text[]) AND ($6::uuid IS NULL OR r.id <> $6::uuid)`,
    [subUid, w.coin, at.toISOString(), w.hours, NOT_COUNTED, excludeId],
  );
  const r = rows[0]!;
  return {
    count: Number(r.n),
    amount: w.coin ? (r.amount ?? "0") : null,
    valueUsdt: Number(r.unpriced) > 0 ? null : (r.value ?? "0"),
  };
}

export type RequestFacts = DestinationQuery & { coin: string; amount: string; requesterRole: Role };

/**
 * The facts of a withdrawal about to be requested at `at` (or, for the dry run, one requested then, left
 * out of its own windows by `excludeId`): its windows count it too.
 */
export async function readFacts(
  db: Queryable,
  rules: readonly PolicyRule[],
  r: RequestFacts,
  at: Date,
  excludeId: string | null = null,
): Promise<WithdrawalFacts> {
  const price = await usdtPrice(db, r.coin, at);
  const valueUsdt = price === null ? null : new Big(r.amount).times(price).toString();
  const windows: Record<string, WindowTotals> = {};
  for (const w of windowsOf(rules)) {
    const before = await windowTotals(db, r.subUid, w, at, excludeId);
    const applies = w.coin === null || w.coin === r.coin;
    windows[windowKey(w.hours, w.coin)] = applies
      ? {
          count: before.count + 1,
          amount: before.amount === null ? null : new Big(before.amount).plus(r.amount).toString(),
          valueUsdt:
            before.valueUsdt === null || valueUsdt === null
              ? null
              : new Big(before.valueUsdt).plus(valueUsdt).toString(),
        }
      : before;
  }
  const label = await db.query<{ label: string | null }>("SELECT label FROM subaccounts WHERE sub_uid = $1", [
    r.subUid,
  ]);
  return {
    coin: r.coin,
    amount: r.amount,
    valueUsdt,
    subLabel: label.rows[0]?.label ?? null,
    destination: await destinationKind(db, r, at),
    subUid: r.subUid,
    requesterRole: r.requesterRole,
    windows,
  };
}
