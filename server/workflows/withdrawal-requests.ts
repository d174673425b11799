import "server-only";
// Two-person withdrawals (issue 6). A broker or lead requests; another lead approves, which sends E5 with the
// clientOid minted at request time. "Never sent twice" rests on the database, not on the browser: every
// state change is one guarded UPDATE (… WHERE state = <expected>), so of two approvers, two clicks or two
// reconciles exactly one wins the row and only the winner calls the platform; a trigger (migration 0003)
// refuses any transition outside the state machine and any change to what was requested. The ledger's
// reads are withdrawal-ledger.ts.
import { randomBytes } from "node:crypto";
import Big from "big.js";
import type { z } from "zod";
import { DomainError } from "@/lib/api/errors";
import type { ApproveWithdrawalInput, WithdrawalFormValues, WithdrawalView } from "@/lib/api/withdrawals";
import { withdrawalRequestSchema } from "@/lib/platform/catalog/withdrawals";
import { env } from "@/lib/env";
import { isReconcilable } from "@/lib/withdrawal-states";
import { groupDecimal } from "@/lib/format";
import { openAudit } from "@/server/audit";
import { approverStanding } from "@/server/auth/approver-standing";
import type { StaffSession } from "@/server/auth/session";
import { findUserById } from "@/server/auth/users";
import type { Db } from "@/server/db";
import { logger } from "@/server/log";
import type { PlatformClient } from "@/server/platform/client";
import { PlatformError } from "@/server/platform/errors";
import { getRegistryEntry } from "./subaccounts";
import { addressProblem } from "./address-check";
import { availableOf, lockFunds, pendingOf } from "./withdrawal-funds";
import { loadRow, toView, type AuditContext, type Row } from "./withdrawal-ledger";
import { refuseHeld, screenRequest } from "@/server/monitoring/hold";

/** bd + base-36 time + 12 random base64url characters: sortable by eye, unguessable, within ^[A-Za-z0-9_-]{1,64}$. */
export function mintClientOid(now = Date.now()): string {
  return `bd${now.toString(36)}${randomBytes(9).toString("base64url")}`;
}

const field = (name: string, message: string) =>
  new DomainError("invalid_input", "Some fields are not valid", { [name]: [message] });

/**
 * Saves a request in state "requested" with a fresh clientOid, before anything is sent. Refuses a sub-account
 * Brokerdesk does not know and an amount above the sub-account's available balance (E2, read now) minus
 * its pending requests of the coin.
 */
export async function requestWithdrawal(
  db: Db,
  client: PlatformClient,
  session: StaffSession,
  input: WithdrawalFormValues,
): Promise<WithdrawalView> {
  const sub = await getRegistryEntry(db, input.subUid);
  if (!sub) throw field("subUid", `Sub-account ${input.subUid} is not in Brokerdesk's registry`);
  if (sub.status !== "normal")
    throw field("subUid", `Sub-account ${input.subUid} is ${sub.status}: it cannot withdraw`);
  const badAddress = input.dest === "on_chain" && input.chain ? addressProblem(input.chain, input.address) : null;
  if (badAddress) throw new DomainError("invalid_input", badAddress, { address: [badAddress] });

  const clientOid = mintClientOid();
  // What will be sent on approval, checked against the platform operation's own schema now, so a request
  // that E5 would refuse for its shape never reaches a lead's queue.
  const body = e5Body({
    sub_uid: input.subUid,
    coin: input.coin,
    dest: input.dest,
    chain: input.chain ?? null,
    address: input.address,
    tag: input.tag ?? null,
    amount: input.amount,
    client_oid: clientOid,
  });
  const shape = withdrawalRequestSchema.safeParse(body);
  if (!shape.success) {
    const issue = shape.error.issues[0];
    throw field(String(issue?.path[0] ?? "_"), issue?.message ?? "not valid for the platform");
  }

  // Checked and saved under the sub-account+coin lock (withdrawal-funds.ts): pending requests reserve the
  // balance, so two requests that together exceed it cannot both pass, on one instance or several.
  // The balance is read before the lock is taken: a platform round trip must not hold a database connection
  // (on the embedded database, the only one) while other requests wait. What the lock guards is the sum of
  // pending requests, which is read under it.
  const available = await availableOf(client, input.subUid, input.coin);
  const rows = await db.transaction(async (tx) => {
    await lockFunds(tx, input.subUid, input.coin);
    const { pending, pendingCount } = await pendingOf(tx, input.subUid, input.coin);
    const free = new Big(available).minus(pending);
    // Decimal comparison (big.js): a float would round "0.30000001" against "0.3".
    if (new Big(input.amount).gt(free)) {
      const name = sub.subaccountName ?? input.subUid;
      // The message is the refusal's own (not "Some fields are not valid"), so the audit row names it too.
      // Amounts grouped as the form's balance line shows them (1,234.5), digits kept exactly.
      const message = pendingCount
        ? `amount is above what ${name} has left: ${groupDecimal(available)} ${input.coin} available, ${groupDecimal(pending)} held by ${pendingCount} pending request${pendingCount === 1 ? "" : "s"}, so at most ${free.lt(0) ? "0" : groupDecimal(free.toString())} ${input.coin}`
        : `amount is above the available balance of ${name}: ${groupDecimal(available)} ${input.coin}`;
      throw new DomainError("invalid_input", message, { amount: [message] });
    }
    return (
      await tx.query<Row>(
        `INSERT INTO withdrawal_requests (client_oid, sub_uid, coin, dest, chain, address, tag, amount, reason, requested_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING *`,
        [
          clientOid,
          input.subUid,
          input.coin,
          input.dest,
          input.chain ?? null,
          input.address,
          input.tag ?? null,
          input.amount,
          input.reason,
          session.email,
        ],
      )
    ).rows;
  });
  // Monitoring: pre-approval screening of the new request (server/monitoring/hold.ts).
  await screenRequest(db, input.subUid, new Date(rows[0]!.requested_at).getTime());
  // Read again for what the row's neighbours say (in the address book or not).
  return toView(await loadRow(db, rows[0]!.id));
}

/** The E5 body of a stored request: exactly the stored fields, every time (the platform compares a repeat). */
function e5Body(
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

function refuseOwn(row: Row, session: StaffSession, what: string) {
  if (row.requested_by.toLowerCase() === session.email.toLowerCase()) {
    throw new DomainError("own_request", `You requested this withdrawal, so another lead must ${what} it`);
  }
}

/** Separation of duties: an approver account an admin set up may not approve yet (server/auth/approver-standing.ts). */
async function refuseOnHold(db: Db, session: StaffSession): Promise<void> {
  const user = await findUserById(db, session.userId);
  if (!user) throw new DomainError("forbidden", "Your staff account no longer exists");
  const standing = approverStanding(user, Date.now(), env.approverCoolOffMs);
  if (!standing.mayApprove)
    throw new DomainError("approver_on_hold", standing.reason ?? "This account may not approve yet");
}

function refuseDecided(row: Row): never {
  throw new DomainError("already_decided", `This withdrawal was already decided: it is ${row.state}`);
}

/**
 * The approver retyped the amount and address; both must equal the stored ones character for character.
 * Then requested → approved (guarded), and the stored request is sent.
 */
export async function approveWithdrawal(
  db: Db,
  client: PlatformClient,
  session: StaffSession,
  id: string,
  confirm: ApproveWithdrawalInput,
  ctx: AuditContext = {},
): Promise<WithdrawalView> {
  const row = await loadRow(db, id);
  refuseOwn(row, session, "approve");
  if (row.state !== "requested") refuseDecided(row);
  await refuseOnHold(db, session);
  // Monitoring: an open holding alert of the sub-account stops the approval (server/monitoring/hold.ts).
  await refuseHeld(db, row.sub_uid);
  const mismatch: Record<string, string[]> = {};
  if (confirm.confirmAmount !== row.amount)
    mismatch.confirmAmount = [`The amount typed is not the requested amount (${row.amount})`];
  if (confirm.confirmAddress !== row.address)
    mismatch.confirmAddress = ["The address typed is not the requested address"];
  if (Object.keys(mismatch).length)
    throw new DomainError("confirmation_mismatch", "The values typed do not match the request", mismatch);

  // The guard is the whole concurrency story: of two approvals that both passed the checks above, the
  // database lets one UPDATE match; the other sees 0 rows and sends nothing. requested_by <> $2 repeats the
  // two-person rule where it cannot be raced (the CHECK constraint backs it once more).
  const { rows } = await db.query<Row>(
    `UPDATE withdrawal_requests SET state = 'approved', approved_by = $2, approved_at = now(), version = version + 1
     WHERE id = $1 AND state = 'requested' AND requested_by <> $2 RETURNING *`,
    [id, session.email],
  );
  if (!rows[0]) refuseDecided(await loadRow(db, id));
  return submit(db, client, session, rows[0], ctx);
}

/** requested → rejected (guarded); never by the requester. Nothing is sent. */
export async function rejectWithdrawal(
  db: Db,
  session: StaffSession,
  id: string,
  reason: string,
): Promise<WithdrawalView> {
  const row = await loadRow(db, id);
  refuseOwn(row, session, "reject");
  if (row.state !== "requested") refuseDecided(row);
  const { rows } = await db.query<Row>(
    `UPDATE withdrawal_requests SET state = 'rejected', rejected_by = $2, rejected_at = now(), reject_reason = $3, version = version + 1
     WHERE id = $1 AND state = 'requested' AND requested_by <> $2 RETURNING *`,
    [id, session.email, reason],
  );
  if (!rows[0]) refuseDecided(await loadRow(db, id));
  return toView(rows[0]);
}

/** requested → cancelled (guarded), only by its requester: nothing was sent and it no longer holds the balance. */
export async function cancelWithdrawal(db: Db, session: StaffSession, id: string): Promise<WithdrawalView> {
  const row = await loadRow(db, id);
  if (row.requested_by.toLowerCase() !== session.email.toLowerCase()) {
    throw new DomainError(
      "forbidden",
      "Only the person who requested this withdrawal can cancel it; a lead can reject it",
    );
  }
  if (row.state !== "requested") refuseDecided(row);
  const { rows } = await db.query<Row>(
    `UPDATE withdrawal_requests SET state = 'cancelled', cancelled_at = now(), version = version + 1
     WHERE id = $1 AND state = 'requested' AND lower(requested_by) = lower($2) RETURNING *`,
    [id, session.email],
  );
  if (!rows[0]) refuseDecided(await loadRow(db, id));
  return toView(rows[0]);
}

/**
 * Settles a withdrawal whose outcome is not known by sending the SAME request again (same clientOid, same
 * fields). The platform answers a repeat with the original orderId and moves nothing, or, if the first
 * never arrived, carries it out now: either way one withdrawal. Also takes an "approved" left behind (its
 * send was never recorded, so it never left) and a "submitted" whose caller died (see the STALE_* times).
 */
export async function reconcileWithdrawal(
  db: Db,
  client: PlatformClient,
  session: StaffSession,
  id: string,
  ctx: AuditContext = {},
): Promise<WithdrawalView> {
  const row = await loadRow(db, id);
  if (!isReconcilable(toView(row), Date.now())) {
    throw new DomainError(
      "not_reconcilable",
      `Only a withdrawal whose outcome is unknown can be reconciled; this one is ${row.state}`,
    );
  }
  return submit(db, client, session, row, ctx);
}

/**
 * One send of a stored request. The claim (state → submitted, guarded by the state and version read) and
 * the "withdrawals.submit" audit intent commit together or not at all: no intent, no send (fail-closed),
 * and no two senders, because only one claim of a given version can match.
 */
async function submit(
  db: Db,
  client: PlatformClient,
  session: StaffSession,
  row: Row,
  ctx: AuditContext,
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
  const claim = await db.transaction(async (tx) => {
    const { rows } = await tx.query<Row>(
      `UPDATE withdrawal_requests SET state = 'submitted', submitted_at = now(), version = version + 1
       WHERE id = $1 AND state = $2 AND version = $3 RETURNING *`,
      [row.id, row.state, row.version],
    );
    if (!rows[0]) return null;
    const trail = await openAudit(db, subject, { ...body, fromState: row.state }, tx);
    return { row: rows[0], trail };
  });
  if (!claim) {
    const now = await loadRow(db, row.id);
    throw new DomainError(
      "already_in_progress",
      `This withdrawal changed meanwhile (it is ${now.state}); nothing was sent`,
    );
  }

  let outcome: { state: "confirmed"; orderId: string } | { state: "failed" | "unknown"; code: string; msg: string };
  try {
    const { data } = await client.call("withdrawals.submit", body);
    outcome = { state: "confirmed", orderId: data.orderId };
  } catch (e) {
    outcome = classify(e);
  }

  const settled = await settle(db, claim.row, outcome);
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
          `UPDATE withdrawal_requests SET state = 'confirmed', platform_order_id = $3, settled_at = now(), error_code = NULL, error_msg = NULL, version = version + 1
           WHERE id = $1 AND state = 'submitted' AND version = $2 RETURNING *`,
          [claimed.id, claimed.version, o.orderId],
        )
      : await db.query<Row>(
          `UPDATE withdrawal_requests SET state = $3, error_code = $4, error_msg = $5, settled_at = CASE WHEN $3 = 'failed' THEN now() END, version = version + 1
           WHERE id = $1 AND state = 'submitted' AND version = $2 RETURNING *`,
          [claimed.id, claimed.version, o.state, o.code.slice(0, 64), o.msg.slice(0, 500)],
        );
  if (rows[0]) return toView(rows[0]);
  // Only a reconcile that took over a stale submit can get here; its own outcome is on the row.
  logger.warn({ withdrawal: claimed.id, outcome: o.state }, "withdrawal outcome not recorded: the row was taken over");
  return toView(await loadRow(db, claimed.id));
}
