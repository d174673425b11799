import "server-only";
// Nothing is left dangling when a process dies mid-call. Each instance keeps its lease (server/db/
// instance-lease.ts) and, on start and on every heartbeat after, looks for instances that are gone. For
// each, one peer claims the settling of what it left:
// 1. every withdrawal whose platform call it held (approved, or submitted with no answer recorded) is
//    reconciled at once: the same request with the same clientOid, so the platform carries it out once
//    whether or not the first call arrived. Nobody waits STALE_SUBMIT_MS for an answer that cannot come;
//    that wait remains for a live instance that is merely slow.
// 2. every audit intent it opened and never closed gets its outcome, "interrupted", naming the reconcile
//    that settled its withdrawal (its audit intent id, the state it ended in).
// Then its lease row goes. A step that fails leaves the rest for the next claim (every step is idempotent:
// a settled withdrawal is no longer held by the gone instance; a closed intent is no longer open).
import type { AuditOutcome } from "@/lib/api/audit/actions";
import { DomainError } from "@/lib/api/errors";
import { AUDIT_ACTIONS, appendAuditInTransaction, intentsOpenHere, withAudit, type AuditRow } from "@/server/audit";
import type { Db } from "@/server/db";
import {
  claimRecovery,
  dropLease,
  goneInstances,
  releaseLease,
  renewLease,
  thisInstance,
  type InstanceIdentity,
} from "@/server/db/instance-lease";
import { logger } from "@/server/log";
import type { PlatformClient } from "@/server/platform/client";
import { withdrawalsSendingHere } from "./withdrawal-calls";
import { recoverWithdrawal } from "./withdrawal-requests";

export type LeaseTimes = {
  /** A lease not renewed for this long has lapsed. Far above heartbeatMs, so a busy event loop is not death. */
  ttlMs: number;
  heartbeatMs: number;
  /** How long one peer's claim on a gone instance's leftovers holds before another may take it over. */
  claimMs: number;
  /**
   * A withdrawal this instance holds but is not sending, or an intent it opened and is not closing, this long
   * after it began: its outcome was lost (the database was unreachable when it came), so it is settled too.
   */
  orphanAfterMs: number;
};
export const LEASE_TIMES: LeaseTimes = { ttlMs: 20_000, heartbeatMs: 5_000, claimMs: 60_000, orphanAfterMs: 30_000 };

/** The actor of what Brokerdesk does by itself here; no role, since no person acted. */
export const RECOVERY_ACTOR = "system:recovery";

type Settled = { reconcileIntentId: number; state: string; orderId: string | null };
export type Recovery = {
  instance: string;
  withdrawals: ({ id: string } & Settled)[];
  interrupted: number;
};

/**
 * Whose leftovers, and which of them: all of a gone instance's; of this one's, those older than `olderThanMs` and not
 * in hand.
 */
type Leftovers = {
  holder: string;
  why: string;
  olderThanMs: number;
  sending: ReadonlySet<string>;
  closing: ReadonlySet<number>;
  /** Leave approved requests whose sub-account is held (this instance's own, tried again each heartbeat). */
  skipHeld: boolean;
};

/** What the recovery's audit says of an approved request it did not send because compliance holds it. */
const HELD_STATE = "approved, not sent: held by compliance";

async function settleWithdrawals(db: Db, client: PlatformClient, of: Leftovers): Promise<Map<string, Settled>> {
  const settled = new Map<string, Settled>();
  // This instance's own approved requests whose sub-account compliance holds are left as they are: each was
  // refused once already (by its approval's claim or an earlier round) and is sent by a reconcile once the hold
  // is cleared, not tried again on every heartbeat.
  const leftovers = await db.query<{ id: string }>(
    `SELECT w.id FROM withdrawal_requests w
      WHERE w.held_by = $1 AND w.state IN ('approved', 'submitted')
        AND COALESCE(w.submitted_at, w.approved_at) <= now() - $2 * interval '1 millisecond'
        AND NOT ($3::boolean AND w.state = 'approved' AND EXISTS (SELECT 1 FROM monitoring_alerts a
                  WHERE a.sub_uid = w.sub_uid AND a.holds AND a.status = 'open'))
      ORDER BY w.approved_at`,
    [of.holder, of.olderThanMs, of.skipHeld],
  );
  const gone = of.holder;
  for (const { id } of leftovers.rows.filter((r) => !of.sending.has(r.id))) {
    const target = `withdrawal:${id}`;
    const subject = { actor: RECOVERY_ACTOR, action: "withdrawals.reconcile" as const, target };
    const params = { instance: gone, why: of.why };
    // Another sender winning the row meanwhile (already_in_progress) is its outcome, not this recovery's failure;
    // so is a hold on its sub-account (withdrawal_held): an approved request that never left stays approved,
    // unsent, until compliance clears the hold and a reconcile sends it.
    let held = false;
    const out = await withAudit(
      db,
      subject,
      params,
      async (reconcileIntentId) => ({
        reconcileIntentId,
        sent: await recoverWithdrawal(db, client, { email: RECOVERY_ACTOR, role: null }, id, gone).catch(
          (e: unknown) => {
            if (e instanceof DomainError && e.code === "already_in_progress") return null;
            if (!(e instanceof DomainError && e.code === "withdrawal_held")) throw e;
            held = true;
            return null;
          },
        ),
      }),
      ({ sent }) =>
        sent
          ? { state: sent.view.state, orderId: sent.view.platformOrderId, submitIntentId: sent.submitIntentId }
          : { state: held ? HELD_STATE : "no longer held by the stopped instance: nothing sent" },
    );
    settled.set(target, {
      reconcileIntentId: out.reconcileIntentId,
      state: out.sent?.view.state ?? (held ? HELD_STATE : "no longer held"),
      orderId: out.sent?.view.platformOrderId ?? null,
    });
  }
  return settled;
}

type OpenIntent = Pick<AuditRow, "actor" | "actorRole" | "action" | "target" | "requestId" | "ip"> & { id: number };

async function closeIntents(db: Db, of: Leftovers, settled: Map<string, Settled>): Promise<number> {
  const gone = of.holder;
  const { rows } = await db.query<OpenIntent>(
    `SELECT a.id::int AS id, a.actor, a.actor_role AS "actorRole", a.action, a.target, a.request_id AS "requestId", a.ip
       FROM audit_open_intents o JOIN audit_log a ON a.id = o.intent_id
      WHERE o.instance_id = $1 AND o.opened_at <= now() - $2 * interval '1 millisecond' ORDER BY a.id`,
    [gone, of.olderThanMs],
  );
  let closed = 0;
  for (const intent of rows.filter((r) => !of.closing.has(r.id))) {
    const withdrawal = intent.target?.startsWith("withdrawal:") ? intent.target.slice("withdrawal:".length) : null;
    const link = intent.target ? settled.get(intent.target) : undefined;
    // A withdrawal this recovery did not resend (nothing of it was in flight): what it is now.
    const now =
      withdrawal && !link
        ? (await db.query<{ state: string }>("SELECT state FROM withdrawal_requests WHERE id::text = $1", [withdrawal]))
            .rows[0]?.state
        : undefined;
    const detail = {
      instance: gone,
      closedBy: RECOVERY_ACTOR,
      why: of.why,
      ...(link ? { settledBy: link } : {}),
      ...(now ? { withdrawalState: now } : {}),
    };
    const wrote = await db.transaction(async (tx) => {
      // Only while it is still open and still the gone instance's: never a second outcome.
      const open = await tx.query(
        "DELETE FROM audit_open_intents WHERE intent_id = $1 AND instance_id = $2 RETURNING intent_id",
        [intent.id, gone],
      );
      if (!open.rows[0]) return false;
      const outcome: AuditOutcome = "interrupted";
      const action = AUDIT_ACTIONS.parse(intent.action);
      await appendAuditInTransaction(tx, { ...intent, action, outcome, intentId: intent.id, detail });
      return true;
    });
    if (wrote) closed++;
  }
  return closed;
}

/** Settles what a gone instance left, if this instance wins the claim on it (null otherwise). */
export async function recoverGoneInstance(
  db: Db,
  client: PlatformClient,
  me: InstanceIdentity,
  gone: string,
  times: Pick<LeaseTimes, "claimMs"> = LEASE_TIMES,
  goneToo: readonly string[] = [],
): Promise<Recovery | null> {
  if (!(await claimRecovery(db, me, gone, times.claimMs, goneToo))) return null;
  const of: Leftovers = {
    holder: gone,
    why: "the process that held it stopped before it recorded how it ended",
    olderThanMs: 0,
    sending: new Set(),
    closing: new Set(),
    skipHeld: false,
  };
  const settled = await settleWithdrawals(db, client, of);
  const interrupted = await closeIntents(db, of, settled);
  await dropLease(db, gone);
  const withdrawals = [...settled].map(([target, s]) => ({ id: target.slice("withdrawal:".length), ...s }));
  if (withdrawals.length || interrupted)
    logger.warn({ instance: gone, withdrawals, interrupted }, "settled what a stopped instance left in flight");
  return { instance: gone, withdrawals, interrupted };
}

/**
 * Settles what this instance itself holds but no longer has in hand: a withdrawal whose answer came while
 * the database was unreachable (so it stayed "sent, no answer yet"), an intent whose outcome could not be
 * written. Once the database is back, on the next heartbeat, rather than after STALE_SUBMIT_MS.
 */
export async function recoverOwnLeftovers(
  db: Db,
  client: PlatformClient,
  me: InstanceIdentity,
  times: Pick<LeaseTimes, "orphanAfterMs"> = LEASE_TIMES,
): Promise<Recovery | null> {
  const of: Leftovers = {
    holder: me.id,
    why: "its outcome could not be recorded: the database was unreachable when it came",
    olderThanMs: times.orphanAfterMs,
    sending: withdrawalsSendingHere(),
    closing: intentsOpenHere(),
    skipHeld: true,
  };
  const settled = await settleWithdrawals(db, client, of);
  const interrupted = await closeIntents(db, of, settled);
  const withdrawals = [...settled].map(([target, s]) => ({ id: target.slice("withdrawal:".length), ...s }));
  if (!withdrawals.length && !interrupted) return null;
  logger.warn({ withdrawals, interrupted }, "settled what this instance could not record while the database was away");
  return { instance: me.id, withdrawals, interrupted };
}

export type InstanceLease = { me: InstanceIdentity; stop(): Promise<void>; recoverNow(): Promise<Recovery[]> };

/**
 * Keeps this instance's lease and settles what gone instances left: once at start (not awaited: the
 * platform may be slow, and the app serves meanwhile), then on every heartbeat. The renewal runs on its own
 * timer, so a slow recovery never lets this instance's own lease lapse.
 */
export async function startInstanceLease(
  db: Db,
  client: PlatformClient,
  times: LeaseTimes = LEASE_TIMES,
): Promise<InstanceLease> {
  const me = thisInstance();
  await renewLease(db, me, times.ttlMs);
  // Since when every renewal has succeeded (null after one failed): lapses are judged a time to live after.
  let renewedSince: number | null = Date.now();
  let running: Promise<Recovery[]> | null = null;
  const recoverNow = (): Promise<Recovery[]> => {
    running ??= (async () => {
      const done: Recovery[] = [];
      const own = await recoverOwnLeftovers(db, client, me, times);
      if (own) done.push(own);
      const judgeLapses = renewedSince !== null && Date.now() - renewedSince >= times.ttlMs;
      const goneNow = await goneInstances(db, me, judgeLapses);
      for (const gone of goneNow) {
        const r = await recoverGoneInstance(db, client, me, gone, times, goneNow);
        if (r) done.push(r);
      }
      return done;
    })().finally(() => (running = null));
    return running;
  };
  const quietly = () =>
    void recoverNow().catch((e: unknown) =>
      logger.error({ err: String(e) }, "settling a stopped instance's calls failed; tried again on the next heartbeat"),
    );
  const renew = setInterval(() => {
    renewLease(db, me, times.ttlMs).then(
      () => void (renewedSince ??= Date.now()),
      (e: unknown) => {
        renewedSince = null;
        logger.error({ err: String(e) }, "instance lease renewal failed");
      },
    );
    quietly();
  }, times.heartbeatMs);
  renew.unref();
  quietly();
  return {
    me,
    recoverNow,
    async stop() {
      clearInterval(renew);
      await running?.catch(() => undefined);
      await releaseLease(db, me);
    },
  };
}

// ---- the process's lease (started by server/startup.ts) ----

const g = globalThis as typeof globalThis & { __brokerdeskLease?: Promise<InstanceLease> };

export function startProcessLease(db: Db, client: PlatformClient): Promise<InstanceLease> {
  if (g.__brokerdeskLease) return g.__brokerdeskLease;
  const started = startInstanceLease(db, client);
  g.__brokerdeskLease = started;
  started.catch(() => {
    if (g.__brokerdeskLease === started) g.__brokerdeskLease = undefined;
  });
  return started;
}
