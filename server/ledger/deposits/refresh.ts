import "server-only";
// Before money leaves a sub-account (server/workflows/withdrawal-screening.ts): its newest deposits, read from
// the platform now rather than whenever the sync next checks it. A staff call (priority staff, so it queues
// ahead of the sync's calls, and the sync keeps to its share meanwhile: server/ledger/budget.ts): the newest
// window (E1's three months), newest first, page by page, until a page holds a record the ledger already holds
// as it is (same orderId, same status): what lies below it the sync has already brought. Each page is stored
// through the sync's own store (./sync.ts storeDeposits: upserted by orderId, a change row per new or changed
// status), so the sync sees these records as held and the monitoring batch as touched. It claims no coverage:
// it stops where it meets the ledger, not at a window's end, so the span the sync has walked is unchanged
// (what it walked is recorded only in the records themselves).
import { catalog } from "@/lib/platform/catalog";
import type { DepositRecord } from "@/lib/platform/catalog/deposits";
import type { Paging } from "@/lib/platform/define-endpoint";
import type { Db } from "@/server/db";
import type { PlatformClient } from "@/server/platform/client";
import { PAGE } from "../walk";
import { storeDeposits, WINDOW_MS } from "./sync";

export type DepositRefresh = {
  calls: number;
  /** Records read from the platform. */
  records: number;
  /** Of them, new to the ledger or with a changed status (stored). */
  changes: number;
};

/**
 * Reads the sub-account's newest deposits until it meets the ledger, storing each page. A platform failure
 * is thrown as the client raises it (the caller refuses with it); pages stored before it stay stored.
 */
export async function refreshNewestDeposits(
  db: Db,
  client: PlatformClient,
  subUid: string,
  /** The platform's clock (its spans count on it). */
  now: number = Date.now() + client.clockOffsetMs,
): Promise<DepositRefresh> {
  const paging = catalog["deposits.list"].paging as unknown as Paging<unknown, DepositRecord>;
  const out: DepositRefresh = { calls: 0, records: 0, changes: 0 };
  const span = { startTime: String(Math.floor(now - WINDOW_MS)), endTime: String(Math.floor(now)) };
  let cursor: string | undefined;
  for (;;) {
    const { data } = await client.call(
      "deposits.list",
      { userId: subUid, ...span, limit: String(PAGE), ...(cursor ? { idLessThan: cursor } : {}) },
      { priority: "staff" },
    );
    out.calls++;
    const rows = paging.rows(data);
    out.records += rows.length;
    const changed = rows.length ? await storeDeposits(db, subUid, rows) : 0;
    out.changes += changed;
    // Fewer changes than distinct records: one of them was held as it is. Below it, the sync has walked.
    const metLedger = changed < new Set(rows.map((r) => r.orderId)).size;
    const next = paging.nextCursor(data, PAGE);
    if (metLedger || next === null || next === cursor) return out;
    cursor = next;
  }
}
