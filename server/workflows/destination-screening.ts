import "server-only";
// A withdrawal's destination against the sanctions and block lists, kept as evidence each time (a screenings row,
// "no match" too): when it is requested, inside the approval's transaction, and inside the claim that sends it
// (an approval's send, a reconcile's, a recovery's resend). An internal transfer's destination is a sub-account UID
// of the same broker, not an address on a chain: it is not screened.
//
// The in-transaction screening is the backstop of the monitoring path (the sanctions rule raises a holding alert,
// and the hold check refuses): after the hold check, under the row lock, the decision takes the lists' lock shared
// (server/screening/lock.ts) and screens the destination against the versions active then. A version that became
// active after the decision's pre-screen is seen (its import took the lock exclusive and committed first), and one
// being imported makes the decision wait. A match refuses the decision with `withdrawal_held` and nothing else said
// (lib/api/audit/confidential.ts): the transaction rolls back, then the screening is recorded and the sanctions
// rule raises its alert over the sub-account's requests, so compliance sees the hold. A match that two people
// released (server/monitoring/sanctions-release.ts) lets the request pass, still recorded as a match.
import { DomainError } from "@/lib/api/errors";
import { HELD_BY_COMPLIANCE } from "@/lib/api/audit/confidential";
import type { Db, Queryable } from "@/server/db";
import { logger } from "@/server/log";
import { evaluateScope } from "@/server/monitoring/evaluate";
import { SANCTIONS_RULES } from "@/server/monitoring/system-rules";
import { lockListsShared } from "@/server/screening/lock";
import { recordScreening, screenAndRecord, type ScreeningOccasion } from "@/server/screening/record";
import { screenAddress, type ScreeningResult } from "@/server/screening/screen";
import type { Row } from "./withdrawal-ledger";

type Screened = Pick<Row, "id" | "sub_uid" | "dest" | "address">;

const subjectOf = (row: Screened, occasion: ScreeningOccasion) => ({
  subject: "withdrawal" as const,
  subjectId: row.id,
  subUid: row.sub_uid,
  address: row.address,
  occasion,
});

/**
 * At request time, after the request is stored: the screening kept (its alert is raised by the monitoring
 * screening that follows). A failure is logged and loses nothing: the approval screens again.
 */
export async function screenRequestedDestination(db: Db, row: Screened): Promise<void> {
  if (row.dest !== "on_chain") return;
  await screenAndRecord(db, subjectOf(row, "request")).catch((e: unknown) =>
    logger.error({ err: e instanceof Error ? e.message : String(e), withdrawal: row.id }, "screening not recorded"),
  );
}

/** Thrown inside a decision's transaction to roll it back; answered by `refuseListed` after. */
class ListedDestination extends Error {
  constructor(
    readonly row: Screened,
    readonly occasion: ScreeningOccasion,
    readonly result: ScreeningResult,
  ) {
    super("listed destination");
  }
}

/** The request's sanctions alert was released by two people (a proposal and another's confirmation). */
async function releasedByTwo(tx: Queryable, row: Screened): Promise<boolean> {
  const { rows } = await tx.query(
    `SELECT 1 FROM monitoring_alerts WHERE rule_id = $1 AND sub_uid = $2 AND occurrence = 'w:' || $3::text
        AND status = 'cleared' AND release_requested_by IS NOT NULL LIMIT 1`,
    [SANCTIONS_RULES.withdrawal_destination.ruleId, row.sub_uid, row.id],
  );
  return rows.length > 0;
}

/**
 * The destination screened in the decision's transaction `tx`, after its row lock and hold check, and recorded
 * with it. With `refuse`, a match not released by two people rolls the decision back (run it inside
 * `refuseListed`). Without (the resend of a request that may already have left: withdrawal-requests.ts
 * screenIfUnsent says why it goes ahead), a match is recorded and logged.
 */
export async function screenDestinationInTransaction(
  tx: Queryable,
  row: Screened,
  occasion: "approval" | "send",
  refuse: boolean,
): Promise<void> {
  if (row.dest !== "on_chain") return;
  await lockListsShared(tx);
  // The time after the lock, not the transaction's start: a version whose import committed while this decision
  // waited for the lock was activated after the transaction began (rounded up: Date keeps milliseconds).
  const { rows } = await tx.query<{ at: Date }>(
    `SELECT date_trunc('milliseconds', clock_timestamp()) + interval '1 millisecond' AS at`,
  );
  const result = await screenAddress(tx, row.address, new Date(rows[0]!.at));
  if (result.match && refuse && !(await releasedByTwo(tx, row))) throw new ListedDestination(row, occasion, result);
  if (result.match && !refuse)
    logger.warn({ withdrawal: row.id }, "a request that may already have left is resent to a listed destination");
  await recordScreening(tx, subjectOf(row, occasion), result);
}

/**
 * Runs a decision's transaction; a listed destination found in it (screenDestinationInTransaction) is answered
 * after the rollback: the screening recorded, the sanctions rule evaluated over the sub-account's requests (its
 * alert holds them and reaches compliance), and the decision refused as any hold refuses it.
 */
export async function refuseListed<T>(db: Db, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (!(e instanceof ListedDestination)) throw e;
    await recordScreening(db, subjectOf(e.row, e.occasion), e.result);
    await evaluateScope(db, { subUid: e.row.sub_uid, since: null }, "withdrawals");
    throw new DomainError("withdrawal_held", HELD_BY_COMPLIANCE);
  }
}
