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
import { DomainError } from "@/lib/api/errors";
import { coverageNeedOf } from "@/lib/api/monitoring/rule-kinds";
import type { Db } from "@/server/db";
import { refreshNewestDeposits, type DepositRefresh } from "@/server/ledger/deposits/refresh";
import { activeVersions, evaluateScope } from "@/server/monitoring/evaluate";
import { covers, WITHDRAWAL_MS } from "@/server/monitoring/kinds/sql";
import { screenWithdrawals } from "@/server/monitoring/hold";
import { touchedSince } from "@/server/monitoring/jobs";
import type { PlatformClient } from "@/server/platform/client";

export type Screening = { refresh: DepositRefresh; raised: number };

export async function screenBeforeMoneyLeaves(
  db: Db,
  client: PlatformClient,
  subUid: string,
  /** The request the decision is about: refused while a holding rule cannot judge it yet. */
  requestId: string,
): Promise<Screening> {
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
  await refuseUnjudged(db, subUid, requestId);
  return { refresh, raised };
}

/**
 * What the system does not know, it does not let pass. A holding rule over withdrawals that needs the deposits of
 * a window before the request (pass-through) judges the request only once the ledger covers that window up to the
 * request's time (server/monitoring/kinds/sql.ts `covers`); until then it raised nothing, and that silence is not
 * a clearance. The refresh above claims coverage up to COVERAGE_SKEW_MS ago, so this refuses only a request made
 * within those seconds of its approval, or while the platform's newest deposits could not all be read. The
 * message names no rule (lib/api/audit/confidential.ts).
 */
async function refuseUnjudged(db: Db, subUid: string, requestId: string): Promise<void> {
  const windows = (await activeVersions(db, "withdrawals"))
    .filter((v) => v.holds)
    .map((v) => coverageNeedOf(v.spec))
    .flatMap((need) => (need.needs === "window" ? [need.ms] : []));
  if (!windows.length) return;
  const ms = Math.max(...windows);
  const { rows } = await db.query(
    `SELECT 1 FROM withdrawal_requests WHERE id = $1 AND sub_uid = $2
        AND NOT ${covers("$2", `${WITHDRAWAL_MS} - $3::bigint`, WITHDRAWAL_MS)}`,
    [requestId, subUid, ms],
  );
  if (rows[0])
    throw new DomainError(
      "withdrawal_held",
      "Held until compliance's checks can judge it: the sub-account's newest deposits are still being read. " +
        "Try again in a few seconds. Nothing was sent.",
    );
}
