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
import { evaluateScope, gatherIntoCases } from "@/server/monitoring/evaluate";
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

/**
 * The request's match was released by two people (a proposal and another's confirmation, not a rescreen's release)
 * for every list that lists the destination now: a release reviewed the lists its alert named, and never covers a
 * list that listed the address since (that is a new match, raised again by refuseListed).
 */
async function releasedByTwo(tx: Queryable, row: Screened, result: ScreeningResult): Promise<boolean> {
  const { rows } = await tx.query<{ listed: { list: string }[] | null }>(
    `SELECT records->0->'listed' AS listed FROM monitoring_alerts
      WHERE rule_id = $1 AND sub_uid = $2 AND (occurrence = 'w:' || $3::text OR occurrence LIKE 'w:' || $3::text || '#%')
        AND status = 'cleared' AND release_requested_by IS NOT NULL AND cleared_by <> 'screening'
        AND lower(cleared_by) <> lower(release_requested_by)`,
    [SANCTIONS_RULES.withdrawal_destination.ruleId, row.sub_uid, row.id],
  );
  const reviewed = new Set(rows.flatMap((r) => (r.listed ?? []).map((l) => l.list)));
  return rows.length > 0 && result.matches.every((m) => reviewed.has(m.list));
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
  if (result.match && refuse && !(await releasedByTwo(tx, row, result)))
    throw new ListedDestination(row, occasion, result);
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
    await raiseAgain(db, e.row, e.result);
    throw new DomainError("withdrawal_held", HELD_BY_COMPLIANCE);
  }
}

/**
 * A request whose match was released, listed since by a list the release did not review: the rule's own alert for
 * it is cleared (its key is the request's), so a new one is raised, keyed `w:<id>#<ms>`, naming the lists that list
 * it now, unless one is open already. Inserted, so the hold lock's trigger orders it against approvals.
 */
async function raiseAgain(db: Db, row: Screened, result: ScreeningResult): Promise<void> {
  const listed = JSON.stringify(
    [...new Map(result.matches.map((m) => [`${m.list}|${m.versionId}`, m])).values()].map((m) => ({
      list: m.list,
      versionId: m.versionId,
    })),
  );
  await db.query(
    `INSERT INTO monitoring_alerts (rule_version_id, rule_id, sub_uid, occurrence, window_start, window_end, severity,
                                    holds, value, records, coverage)
     SELECT a.rule_version_id, a.rule_id, a.sub_uid, 'w:' || $3::text || '#' || floor(extract(epoch FROM now()) * 1000),
            a.window_start, a.window_end, a.severity, a.holds, a.value, jsonb_set(a.records, '{0,listed}', $4::jsonb),
            a.coverage
       FROM monitoring_alerts a
      WHERE a.rule_id = $1 AND a.sub_uid = $2 AND (a.occurrence = 'w:' || $3::text OR a.occurrence LIKE 'w:' || $3::text || '#%')
        AND NOT EXISTS (SELECT 1 FROM monitoring_alerts o WHERE o.rule_id = $1 AND o.sub_uid = $2 AND o.status = 'open'
                         AND (o.occurrence = 'w:' || $3::text OR o.occurrence LIKE 'w:' || $3::text || '#%'))
      ORDER BY a.id DESC LIMIT 1
     ON CONFLICT (rule_version_id, sub_uid, occurrence) DO NOTHING`,
    [SANCTIONS_RULES.withdrawal_destination.ruleId, row.sub_uid, row.id, listed],
  );
  await gatherIntoCases(db);
}
