import "server-only";
// Two-person withdrawals. A broker or lead requests; another lead approves, which sends E5 with the
// clientOid minted at request time. "Never sent twice" rests on the database, not on the browser: every
// state change is one guarded UPDATE (… WHERE state = <expected>), so of two approvers, two clicks or two
// reconciles exactly one wins the row and only the winner calls the platform; a trigger (migration 0003)
// refuses any transition outside the state machine and any change to what was requested. The ledger's
// reads are withdrawal-ledger.ts.
import { randomBytes } from "node:crypto";
import Big from "big.js";
import { DomainError } from "@/lib/api/errors";
import type { ApproveWithdrawalInput, WithdrawalFormValues, WithdrawalView } from "@/lib/api/withdrawals";
import { withdrawalRequestSchema } from "@/lib/platform/catalog/withdrawals";
import { isReconcilable } from "@/lib/withdrawal-states";
import { groupDecimal } from "@/lib/format";
import type { StaffSession } from "@/server/auth/session";
import type { Db } from "@/server/db";
import { thisInstance } from "@/server/db/instance-lease";
import type { PlatformClient } from "@/server/platform/client";
import { approvalGate, refuseOnHold, refuseOwn } from "./approval-gate";
import { decideWithdrawal } from "@/server/policy/decide";
import { requirementWords } from "@/lib/policy";
import { getRegistryEntry } from "./subaccounts";
import { addressProblem } from "./address-check";
import { availableOf, lockFunds, pendingOf } from "./withdrawal-funds";
import { loadRow, requiredOf, toView, type AuditContext, type Row } from "./withdrawal-ledger";
import { e5Body, submitWithdrawal, type Sender } from "./withdrawal-send";
import { refuseHeldInTransaction, screenRequest } from "@/server/monitoring/hold";
import { lockListsShared } from "@/server/screening/lock";
import { screenBeforeMoneyLeaves } from "./withdrawal-screening";
import { refuseListed, screenDestinationInTransaction, screenRequestedDestination } from "./destination-screening";
import { env } from "@/lib/env";
import { refuseWithoutTravelRuleEarly, travelRuleNamesForScreening, travelRuleRecordFor } from "./travel-rule";
import { recordTravelRuleNames } from "@/server/screening/names";

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
  opts: { travelRuleThresholdUsdt?: string } = {},
): Promise<WithdrawalView> {
  const threshold = opts.travelRuleThresholdUsdt ?? env.travelRule.thresholdUsdt;
  const sub = await getRegistryEntry(db, input.subUid);
  if (!sub) throw field("subUid", `Sub-account ${input.subUid} is not in Brokerdesk's registry`);
  if (sub.status !== "normal")
    throw field("subUid", `Sub-account ${input.subUid} is ${sub.status}: it cannot withdraw`);
  const badAddress = input.dest === "on_chain" && input.chain ? addressProblem(input.chain, input.address) : null;
  if (badAddress) throw new DomainError("invalid_input", badAddress, { address: [badAddress] });
  refuseWithoutTravelRuleEarly(input, threshold);

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
    // The money-out policy first (it takes the sub-account's policy lock, then the funds lock below, always in
    // that order): its velocity windows count the requests stored before this one, and this row, once
    // inserted, is the reservation the next request counts.
    const policy = await decideWithdrawal(tx, {
      subUid: input.subUid,
      dest: input.dest,
      chain: input.chain ?? null,
      address: input.address,
      tag: input.tag ?? null,
      coin: input.coin,
      amount: input.amount,
      requesterRole: session.role,
    });
    // The Travel Rule, judged on the value the policy just computed (the day's price): a refusal here rolls the
    // transaction back, so a request without the data writes nothing.
    const travelRule = await travelRuleRecordFor(tx, session, input, policy.valueUsdt, threshold);
    await lockFunds(tx, input.subUid, input.coin);
    const { pending, pendingCount } = await pendingOf(tx, input.subUid, input.coin);
    const free = new Big(available).minus(pending);
    // Decimal comparison (big.js): a float would round "0.30000001" against "0.3".
    if (new Big(input.amount).gt(free)) {
      const name = sub.subaccountName ?? input.subUid;
      // The message is the refusal's own (not "Some fields are not valid"), so the audit row names it too.
      // Amounts grouped as the form's balance line shows them (1,234.5), digits kept exactly.
      const message = pendingCount
        ? `amount is above what ${name} has left: ${groupDecimal(available)} ${input.coin} available, ` +
          `${groupDecimal(pending)} held by ${pendingCount} pending request${pendingCount === 1 ? "" : "s"}, ` +
          `so at most ${free.lt(0) ? "0" : groupDecimal(free.toString())} ${input.coin}`
        : `amount is above the available balance of ${name}: ${groupDecimal(available)} ${input.coin}`;
      throw new DomainError("invalid_input", message, { amount: [message] });
    }
    const inserted = (
      await tx.query<Row>(
        `INSERT INTO withdrawal_requests (client_oid, sub_uid, coin, dest, chain, address, tag, amount,
          reason, requested_by,
                                          policy_version, policy_rule, policy_approvals, value_usdt, travel_rule)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13::jsonb, $14, $15::jsonb) RETURNING *`,
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
          policy.version,
          policy.rule,
          JSON.stringify(policy.approvals),
          policy.valueUsdt,
          travelRule === null ? null : JSON.stringify(travelRule),
        ],
      )
    ).rows;
    // Its Travel Rule names, kept with it for the name screening that screenRequest runs below.
    if (travelRule) await recordTravelRuleNames(tx, inserted[0]!.id, travelRuleNamesForScreening(travelRule));
    return inserted;
  });
  // The destination against the lists, kept as evidence (an internal transfer's UID is not screened), then
  // monitoring's pre-approval screening of the new request (server/monitoring/hold.ts), whose sanctions rule
  // raises the holding alert of a listed destination.
  await screenRequestedDestination(db, rows[0]!);
  await screenRequest(db, input.subUid, new Date(rows[0]!.requested_at).getTime());
  // Read again for what the row's neighbours say (in the address book or not).
  return toView(await loadRow(db, rows[0]!.id));
}

const refuseOwnWithdrawal = (row: Row, session: StaffSession, what: string) =>
  refuseOwn(row.requested_by, session, `You requested this withdrawal, so another lead must ${what} it`);

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
  refuseOwnWithdrawal(row, session, "approve");
  if (row.state !== "requested") refuseDecided(row);
  await refuseOnHold(db, session);
  const mismatch: Record<string, string[]> = {};
  if (confirm.confirmAmount !== row.amount)
    mismatch.confirmAmount = [`The amount typed is not the requested amount (${row.amount})`];
  if (confirm.confirmAddress !== row.address)
    mismatch.confirmAddress = ["The address typed is not the requested address"];
  if (Object.keys(mismatch).length)
    throw new DomainError("confirmation_mismatch", "The values typed do not match the request", mismatch);
  // Monitoring, before the transaction (a platform round trip holds no connection): the sub-account's newest
  // deposits from the platform, then the deposit and withdrawal rules over them (./withdrawal-screening.ts).
  // A platform that cannot be read refuses the approval with its error, and nothing has changed.
  await screenBeforeMoneyLeaves(db, client, row.sub_uid, row.id);

  // Under the row's lock, the approval gate judges this approval against those already given (what the
  // money-out policy required when it was requested): it is recorded, and the one that meets the last
  // requirement moves the row to approved. The guard is still the concurrency story: of two approvals that
  // both passed the checks above, one takes the lock first and the other sees what it did. requested_by <> $2
  // repeats the two-person rule where it cannot be raced (the CHECK constraint and a trigger back it).
  // The destination is screened again in the transaction, under the lists' lock (./destination-screening.ts): a
  // match rolls the approval back, then is recorded and raised, and the approval is refused as held.
  const step = await refuseListed(db, () =>
    db.transaction(async (tx) => {
      const { rows: locked } = await tx.query<Row>("SELECT * FROM withdrawal_requests WHERE id = $1 FOR UPDATE", [id]);
      if (locked[0]?.state !== "requested") return null;
      // An open holding alert of the sub-account stops the approval: checked here, under the row lock and the
      // sub-account's hold lock, so no holding alert commits between this check and the approval's commit (a
      // holding alert's raised_at is taken under that lock, and approved_at below after the check: an alert
      // that came later says so by its time).
      // The lists' lock before the hold lock, in the order the rescreen takes them (it raises holding alerts under
      // the lists' shared lock): the other order could deadlock with a rescreen and an import queued between them.
      await lockListsShared(tx);
      await refuseHeldInTransaction(tx, locked[0].sub_uid);
      await screenDestinationInTransaction(tx, locked[0], "approval", true);
      const gate = await approvalGate(tx, session, {
        id,
        requestedBy: locked[0].requested_by,
        required: requiredOf(locked[0]),
      });
      await tx.query("INSERT INTO withdrawal_approvals (withdrawal_id, approver, role) VALUES ($1, $2, $3)", [
        id,
        session.email,
        session.role,
      ]);
      if (!gate.completes) return { waiting: true as const };
      const { rows } = await tx.query<Row>(
        `UPDATE withdrawal_requests SET state = 'approved', approved_by = $2, approved_at = clock_timestamp(),
         held_by = $3,
         version = version + 1
       WHERE id = $1 AND state = 'requested' AND requested_by <> $2 RETURNING *`,
        [id, session.email, thisInstance().id],
      );
      return rows[0] ? { approved: rows[0] } : null;
    }),
  );
  if (!step) refuseDecided(await loadRow(db, id));
  if ("waiting" in step) return toView(await loadRow(db, id));
  return submitWithdrawal(db, client, session, step.approved, ctx);
}

/** requested → rejected (guarded); never by the requester. Nothing is sent. */
export async function rejectWithdrawal(
  db: Db,
  session: StaffSession,
  id: string,
  reason: string,
): Promise<WithdrawalView> {
  const row = await loadRow(db, id);
  refuseOwnWithdrawal(row, session, "reject");
  if (row.state !== "requested") refuseDecided(row);
  await refuseOnHold(db, session);
  // Whoever's approval the policy asks for may refuse it; another role may not (compliance, under the default).
  if (!requiredOf(row).some((r) => r.role === session.role))
    throw new DomainError(
      "approval_not_needed",
      `This withdrawal needs ${requirementWords(requiredOf(row))}: a ${session.role} may not reject it`,
    );
  const { rows } = await db.query<Row>(
    `UPDATE withdrawal_requests SET state = 'rejected', rejected_by = $2, rejected_at = now(), reject_reason = $3,
       version = version + 1
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
  // An approved request was never sent: it is screened as an approval is, and its claim for sending checks the
  // holds (withdrawal-send.ts). One submitted or unknown may have reached the platform: see screenIfUnsent.
  await screenIfUnsent(db, client, row);
  return submitWithdrawal(db, client, session, row, ctx);
}

/**
 * Before a request that never left is sent (state approved: its claim, the audit intent and the call were
 * never made), the same screening as an approval's. A request submitted or unknown is not screened and is
 * settled with the same clientOid even while its sub-account is held: its first send may already have
 * reached the platform, and then the money has moved whatever Brokerdesk does now; resending the identical
 * request cannot move it twice (the platform answers a repeat with the original orderId), and it is the only
 * way to learn the outcome. Leaving it unknown would hide from compliance whether the money left; the hold
 * was not there when the lead approved and the request was sent. Compliance sees it settled on the
 * sub-account's timeline, with the rest of the case.
 */
async function screenIfUnsent(db: Db, client: PlatformClient, row: Row): Promise<void> {
  if (row.state === "approved") await screenBeforeMoneyLeaves(db, client, row.sub_uid, row.id);
}

/**
 * Settles a withdrawal whose call is held by a process that is gone, or by this one when its answer could
 * not be recorded (server/workflows/instance-recovery.ts): at once, not after STALE_SUBMIT_MS, since nobody
 * is waiting for that call's answer any more. The same request again, with the same clientOid, so it is
 * carried out once whatever the first call did. Null when the row is no longer held by `gone` (settled, or
 * taken over meanwhile).
 */
export async function recoverWithdrawal(
  db: Db,
  client: PlatformClient,
  sender: Sender,
  id: string,
  gone: string,
  ctx: AuditContext = {},
): Promise<{ view: WithdrawalView; submitIntentId: number } | null> {
  const row = await loadRow(db, id);
  if (row.held_by !== gone || (row.state !== "approved" && row.state !== "submitted")) return null;
  await screenIfUnsent(db, client, row);
  let submitIntentId = 0;
  const view = await submitWithdrawal(db, client, sender, row, ctx, { recovers: gone }, (intentId) => {
    submitIntentId = intentId;
  });
  return { view, submitIntentId };
}
