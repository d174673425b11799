import "server-only";
// What a decision that lets money go (an approval, the send of a request approved earlier) does first, before
// its transaction: the sub-account's newest deposits from the platform, now, as a staff call
// (server/ledger/deposits/refresh.ts); the active deposit rules over what the ledger holds of it and monitoring
// has not yet evaluated (what the refresh just stored included); the active withdrawal rules over its
// requests. Only then does the decision's transaction take the row lock and check the holds
// (server/monitoring/hold.ts refuseHeldInTransaction). A deposit that reached the platform before the refresh
// read it therefore holds the decision if a holding rule fires on it, whether or not the sync has brought it.
// Fails closed: a platform that cannot be read refuses the decision with its own error, and nothing changes.
// The platform is called before any transaction: a round trip must not hold a database connection (on the
// embedded database, the only one).
import type { Db } from "@/server/db";
import { refreshNewestDeposits, type DepositRefresh } from "@/server/ledger/deposits/refresh";
import { evaluateScope } from "@/server/monitoring/evaluate";
import { screenWithdrawals } from "@/server/monitoring/hold";
import { touchedSince } from "@/server/monitoring/jobs";
import type { PlatformClient } from "@/server/platform/client";

export type Screening = { refresh: DepositRefresh; raised: number };

export async function screenBeforeMoneyLeaves(db: Db, client: PlatformClient, subUid: string): Promise<Screening> {
  const refresh = await refreshNewestDeposits(db, client, subUid);
  // From the earliest record the monitoring batch has not yet evaluated (its watermark, less its overlap): the
  // refreshed records, and any the sync stored whose batch has not run yet. The watermark is the batch's to
  // move; evaluating the same records again raises nothing twice (evaluate.ts).
  const mark = await db.query<{ at: Date }>(
    `SELECT evaluated_through AS at FROM monitoring_watermarks WHERE sub_uid = $1`,
    [subUid],
  );
  const since = await touchedSince(db, subUid, mark.rows[0]?.at ?? null);
  let raised = since === null ? 0 : await evaluateScope(db, { subUid, since }, "deposits");
  raised += await screenWithdrawals(db, subUid, null);
  return { refresh, raised };
}
