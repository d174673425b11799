import "server-only";
// What a sub-account can still withdraw of a coin: the platform's available balance (E2, read now) minus
// what Brokerdesk's own pending requests already hold. A request is "pending" from the moment it is asked
// for until the platform has answered it: requested, approved, being sent (submitted) or unknown (the money
// may have moved). A request is checked and saved under one lock per sub-account and coin (a transaction
// advisory lock, so every instance on the same PostgreSQL waits for the others): of two requests that
// together exceed the balance, the second sees the first's amount as pending and is refused.
import Big from "big.js";
import type { WithdrawalFunds } from "@/lib/api/withdrawals";
import type { Queryable } from "@/server/db";
import type { PlatformClient } from "@/server/platform/client";

export const PENDING_STATES = ["requested", "approved", "submitted", "unknown"] as const;

/** The platform's available balance of one coin of one sub-account, as its decimal string. */
export async function availableOf(
  client: PlatformClient,
  subUid: string,
  coin: string,
  signal?: AbortSignal,
): Promise<string> {
  const { data } = await client.call("subaccounts.assets", { subUid, coin }, { signal });
  return new Big(data.assetsList.find((a) => a.coin === coin)?.available || "0").toString();
}

/** The sum and count of the pending requests of one sub-account and coin (exact: numeric, never float). */
export async function pendingOf(
  q: Queryable,
  subUid: string,
  coin: string,
): Promise<{ pending: string; pendingCount: number }> {
  const { rows } = await q.query<{ pending: string; n: number }>(
    `SELECT COALESCE(SUM(amount::numeric), 0)::text AS pending, count(*)::int AS n
     FROM withdrawal_requests WHERE sub_uid = $1 AND coin = $2 AND state = ANY($3::text[])`,
    [subUid, coin, [...PENDING_STATES]],
  );
  return { pending: new Big(rows[0]?.pending ?? "0").toString(), pendingCount: Number(rows[0]?.n ?? 0) };
}

/** Balance, pending and what is left; "free" is never shown below zero (the balance may have dropped). */
export async function fundsOf(
  q: Queryable,
  client: PlatformClient,
  subUid: string,
  coin: string,
  signal?: AbortSignal,
): Promise<WithdrawalFunds> {
  const available = await availableOf(client, subUid, coin, signal);
  const { pending, pendingCount } = await pendingOf(q, subUid, coin);
  const left = new Big(available).minus(pending);
  return { subUid, coin, available, pending, pendingCount, free: left.lt(0) ? "0" : left.toString() };
}

/**
 * Runs `fn` holding the lock of one sub-account and coin until the transaction ends. hashtext folds the
 * key to the lock's number; two keys sharing a number only wait for each other, never pass together.
 */
export async function lockFunds(tx: Queryable, subUid: string, coin: string): Promise<void> {
  await tx.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`withdrawal-funds:${subUid}:${coin}`]);
}
