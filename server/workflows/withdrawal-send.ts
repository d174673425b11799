import "server-only";
// Sending an approved withdrawal to the platform (E5), once: the claim and its audit intent commit together,
// the call is made with the clientOid minted at request time, and its outcome is recorded as the platform
// gave it (confirmed, failed) or as unknown, which a reconcile settles by sending the same request again.
import type { z } from "zod";
import { DomainError } from "@/lib/api/errors";
import type { WithdrawalView } from "@/lib/api/withdrawals";
import { withdrawalRequestSchema } from "@/lib/platform/catalog/withdrawals";
import { openAudit } from "@/server/audit";
import type { Db } from "@/server/db";
import { thisInstance } from "@/server/db/instance-lease";
import { logger } from "@/server/log";
import type { PlatformClient } from "@/server/platform/client";
import { PlatformError } from "@/server/platform/errors";
import { refuseHeldInTransaction } from "@/server/monitoring/hold";
import { lockListsShared } from "@/server/screening/lock";
import { sendingHere } from "./withdrawal-calls";
import { refuseListed, screenDestinationInTransaction } from "./destination-screening";
import { loadRow, toView, type AuditContext, type Row } from "./withdrawal-ledger";

/** Who sends: a member of staff, or Brokerdesk itself settling what a dead process left (actorRole null). */
export type Sender = { email: string; role: string | null };

/** The E5 body of a stored request: exactly the stored fields, every time (the platform compares a repeat). */
export function e5Body(
  r: Pick<Row, "sub_uid" | "coin" | "dest" | "chain" | "address" | "tag" | "amount" | "client_oid">,
): z.input<typeof withdrawalRequestSchema> {
  return {
    subUid: r.sub_uid,
    coin: r.coin as z.input<typeof withdrawalRequestSchema>["coin"],
    dest: r.dest,
    ...(r.chain ? { chain: r.chain } : {}),
    address: r.address,
    amount: r.amount,
    ...(r.tag ? { tag: r.tag } : {}),
    clientOid: r.client_oid,
  };
}

/**
 * One send of a stored request. The claim (state → submitted, guarded by the state and version read) and
 * the "withdrawals.submit" audit intent commit together or not at all: no intent, no send (fail-closed),
 * and no two senders, because only one claim of a given version can match.
 */
/** How often a recovery sends a request the platform refused unread (429), and how long it waits between. */
const RECOVERY_ATTEMPTS = 4;
const RECOVERY_RETRY_MS = 1_100;

export function submitWithdrawal(
  db: Db,
  client: PlatformClient,
  session: Sender,
  row: Row,
  ctx: AuditContext,
  note: Record<string, string> = {},
  opened: (intentId: number) => void = () => undefined,
): Promise<WithdrawalView> {
  return sendingHere(row.id, () => sendOnce(db, client, session, row, ctx, note, opened));
}

async function sendOnce(
  db: Db,
  client: PlatformClient,
  session: Sender,
  row: Row,
  ctx: AuditContext,
  note: Record<string, string>,
  opened: (intentId: number) => void,
): Promise<WithdrawalView> {
  const body = e5Body(row);
  const subject = {
    actor: session.email,
    actorRole: session.role,
    action: "withdrawals.submit" as const,
    target: `withdrawal:${row.id}`,
    requestId: ctx.requestId,
    ip: ctx.ip,
  };
  const claim = await refuseListed(db, () =>
    db.transaction(async (tx) => {
      const { rows } = await tx.query<Row>(
        `UPDATE withdrawal_requests SET state = 'submitted', submitted_at = now(), held_by = $4, version = version + 1
       WHERE id = $1 AND state = $2 AND version = $3 RETURNING *`,
        [row.id, row.state, row.version, thisInstance().id],
      );
      if (!rows[0]) return null;
      // A request that never left is not sent while compliance holds its sub-account: checked under the claim's
      // row lock and the sub-account's hold lock (server/monitoring/hold.ts), so a hold that arrived after the
      // approval (or while a recovery waited) stops it; the claim rolls back and it stays approved, to be sent by
      // a reconcile once the hold is cleared. A resend of one already submitted goes ahead (withdrawal-requests.ts
      // screenIfUnsent says why).
      // The lists' lock first, then the hold lock: the rescreen's order (see approveWithdrawal).
      await lockListsShared(tx);
      if (row.state === "approved") await refuseHeldInTransaction(tx, row.sub_uid);
      // Its destination against the lists, in this transaction (./destination-screening.ts): a listed one stops a
      // request that never left; a resend of one that may have left goes ahead, its screening kept.
      await screenDestinationInTransaction(tx, row, "send", row.state === "approved");
      const trail = await openAudit(db, subject, { ...body, fromState: row.state, ...note }, tx);
      return { row: rows[0], trail };
    }),
  );
  if (!claim) {
    const now = await loadRow(db, row.id);
    throw new DomainError(
      "already_in_progress",
      `This withdrawal changed meanwhile (it is ${now.state}); nothing was sent`,
    );
  }
  opened(claim.trail.intentId);

  let outcome: { state: "confirmed"; orderId: string } | { state: "failed" | "unknown"; code: string; msg: string };
  // A recovery may follow a dead process's call within E5's one-second window, which this process's limiter
  // never saw: the platform's 429 then refused the request unread, so it is sent again (same clientOid) once
  // the window has passed, rather than left unknown for staff to reconcile.
  for (let attempt = 1; ; attempt++) {
    try {
      const { data } = await client.call("withdrawals.submit", body);
      outcome = { state: "confirmed", orderId: data.orderId };
    } catch (e) {
      outcome = classify(e);
      const refusedUnread = e instanceof PlatformError && e.httpStatus === 429;
      if (note.recovers && refusedUnread && attempt < RECOVERY_ATTEMPTS) {
        await new Promise((r) => setTimeout(r, RECOVERY_RETRY_MS));
        continue;
      }
    }
    break;
  }

  // The call happened: if its outcome cannot be recorded (the database went away), the intent is let go of
  // here and the recovery settles the row (same clientOid) and closes the intent once the database is back.
  const settled = await settle(db, claim.row, outcome).catch(async (e: unknown) => {
    await claim.trail.close("info", { state: outcome.state, recorded: false, clientOid: row.client_oid });
    throw e;
  });
  const detail =
    outcome.state === "confirmed"
      ? { state: "confirmed", orderId: outcome.orderId, clientOid: row.client_oid }
      : { state: outcome.state, code: outcome.code, msg: outcome.msg, clientOid: row.client_oid };
  // unknown is neither success nor failure: the money may have moved. "info" keeps the audit honest.
  const auditOutcome = outcome.state === "confirmed" ? "success" : outcome.state === "failed" ? "failure" : "info";
  // The platform call happened: an outcome row that cannot be written is logged (the request row holds the outcome).
  await claim.trail.close(auditOutcome, detail);
  return settled;
}

/**
 * Failed only when the platform itself refused (it answered with its envelope and a 4xx: nothing moved).
 * A 5xx or 429, a timeout, a lost connection, an unreadable reply or anything local: the withdrawal may or
 * may not have happened, so it is unknown and settled by reconcile, which is safe in every case.
 */
function classify(e: unknown): { state: "failed" | "unknown"; code: string; msg: string } {
  if (e instanceof PlatformError && e.httpStatus < 500 && e.httpStatus !== 429)
    return { state: "failed", code: e.code, msg: e.msg };
  if (e instanceof PlatformError) return { state: "unknown", code: e.code, msg: e.msg };
  const err = e as { kind?: string; message?: string };
  return { state: "unknown", code: err?.kind ?? "error", msg: err?.message ?? String(e) };
}

async function settle(
  db: Db,
  claimed: Row,
  o: { state: "confirmed"; orderId: string } | { state: "failed" | "unknown"; code: string; msg: string },
): Promise<WithdrawalView> {
  const { rows } =
    o.state === "confirmed"
      ? await db.query<Row>(
          `UPDATE withdrawal_requests SET state = 'confirmed', platform_order_id = $3, settled_at = now(),
             error_code = NULL, error_msg = NULL, held_by = NULL, version = version + 1
           WHERE id = $1 AND state = 'submitted' AND version = $2 RETURNING *`,
          [claimed.id, claimed.version, o.orderId],
        )
      : await db.query<Row>(
          `UPDATE withdrawal_requests SET state = $3, error_code = $4, error_msg = $5,
             settled_at = CASE WHEN $3 = 'failed' THEN now() END, held_by = NULL, version = version + 1
           WHERE id = $1 AND state = 'submitted' AND version = $2 RETURNING *`,
          [claimed.id, claimed.version, o.state, o.code.slice(0, 64), o.msg.slice(0, 500)],
        );
  if (rows[0]) return toView(rows[0]);
  // Only a reconcile that took over a stale submit can get here; its own outcome is on the row.
  logger.warn({ withdrawal: claimed.id, outcome: o.state }, "withdrawal outcome not recorded: the row was taken over");
  return toView(await loadRow(db, claimed.id));
}
