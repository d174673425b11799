import "server-only";
// The rollout of a plan: `concurrency` workers send its pending targets in order, each E10 signed with the
// target's own key through the platform client, so E10's limit per UID and the budget other work leaves are the
// client's limiter's (every caller's), and a 429 never comes from pacing of ours. Before each call the target is
// claimed (state sending) in the same transaction as its audit intent: no call without an intent, no intent without
// a claim. Its answer then settles it: done (the platform's answer, written to the leverage record with the plan's
// id), failed (the platform's code and message: it refused, nothing was set), or unknown (the call went out and no
// answer came: it may have been set).
//
// A run that finds targets claimed by a run that stopped (kill -9, a lost machine) never sends them again: their
// calls may have reached the platform, and E10 cannot be read back to find out. They become unknown, and their
// intents get their outcome ("interrupted"). So each target is sent at most once by a plan, and every call the
// platform saw has its intent. Pause and cancel are the plan's state, read by the workers before each claim.
import type { LeverageSetting } from "@/lib/platform/catalog/futures";
import { appendAuditBatchInTransaction, appendAuditInTransaction } from "@/server/audit";
import type { Db, Queryable } from "@/server/db";
import { failureDetail } from "@/server/failures";
import { logger } from "@/server/log";
import type { PlatformClient } from "@/server/platform/client";
import {
  PlatformError,
  PlatformMalformedResponseError,
  PlatformNetworkError,
  PlatformTimeoutError,
} from "@/server/platform/errors";
import { recordLeverageSet } from "../record";
import { groupCommit } from "./group-commit";

export type RolloutOptions = {
  /** Targets in flight at once (LEVERAGE_ROLLOUT_CONCURRENCY). */
  concurrency: number;
  /** Who runs it (the instance's id): its claims and its heartbeat. */
  instance: string;
  /** How often the run says it is alive and reads the plan's state (pause, cancel). */
  heartbeatMs?: number;
  /** A plan whose run has been silent this long is taken over by another. */
  staleMs?: number;
};

export const ROLLOUT_TIMES = { heartbeatMs: 2_000, staleMs: 15_000 };

/** The actor of the calls: the lead who started the plan (their role, lead). */
type Plan = { id: string; product_type: string; margin_coin: string; started_by: string; reason: string };
type Claimed = { ord: number; sub_uid: string; symbol: string; leverage: string; key_name: string; intentId: number };

const g = globalThis as typeof globalThis & { __brokerdeskPlansHere?: Set<string> };
/** Plans this process is sending now: a second job for one of them returns at once. */
const runningHere = (g.__brokerdeskPlansHere ??= new Set<string>());

/** Takes the plan for this run: running, and nobody else's live run. */
async function takePlan(db: Queryable, planId: string, instance: string, staleMs: number): Promise<Plan | null> {
  const { rows } = await db.query<Plan>(
    `UPDATE leverage_plans SET runner = $2, heartbeat_at = now()
      WHERE id = $1 AND state = 'running'
        AND (runner IS NULL OR runner = $2 OR heartbeat_at < now() - $3 * interval '1 millisecond')
      RETURNING id::text, product_type, margin_coin, started_by, reason`,
    [planId, instance, staleMs],
  );
  return rows[0] ?? null;
}

/**
 * Targets an earlier run claimed and never settled: their calls may have reached the platform. Never sent again:
 * unknown, and their intents closed as interrupted (only while still open: never a second outcome).
 */
export async function settleInFlight(db: Db, planId: string, instance: string): Promise<number> {
  const { rows } = await db.query<{ ord: number; intent_id: string | null; claimed_by: string | null }>(
    "SELECT ord, intent_id::text, claimed_by FROM leverage_plan_targets WHERE plan_id = $1 AND state = 'sending'",
    [planId],
  );
  for (const t of rows) {
    await db.transaction(async (tx) => {
      await tx.query(
        `UPDATE leverage_plan_targets SET state = 'unknown', answered_at = now(),
                message = 'the run that sent it stopped before its answer was recorded: it may have been set, and it is not sent again'
          WHERE plan_id = $1 AND ord = $2 AND state = 'sending'`,
        [planId, t.ord],
      );
      if (t.intent_id === null) return;
      const open = await tx.query<{ instance_id: string }>(
        "DELETE FROM audit_open_intents WHERE intent_id = $1 RETURNING instance_id",
        [t.intent_id],
      );
      if (!open.rows[0]) return;
      const { rows: intent } = await tx.query<{ actor: string; actor_role: string | null; target: string | null }>(
        "SELECT actor, actor_role, target FROM audit_log WHERE id = $1",
        [t.intent_id],
      );
      await appendAuditInTransaction(tx, {
        actor: intent[0]?.actor ?? "system:recovery",
        actorRole: intent[0]?.actor_role ?? null,
        action: "leverage.set",
        target: intent[0]?.target ?? `leverage-plan:${planId}`,
        requestId: null,
        ip: null,
        outcome: "interrupted",
        intentId: Number(t.intent_id),
        detail: { instance: open.rows[0].instance_id, closedBy: instance, planTarget: t.ord, state: "unknown" },
      });
    });
  }
  return rows.length;
}

type Claim = "claim";

/**
 * Claims pending targets for the workers asking, one each, with their audit intents, in one transaction (see
 * ./group-commit.ts); null for a worker when none is left or sending stops. Each worker sends only after this commits.
 */
async function claimBatch(tx: Queryable, plan: Plan, instance: string, asks: number): Promise<(Claimed | null)[]> {
  const none = Array.from({ length: asks }, () => null);
  const live = await tx.query("SELECT 1 FROM leverage_plans WHERE id = $1 AND state = 'running' AND runner = $2", [
    plan.id,
    instance,
  ]);
  if (!live.rows[0]) return none;
  const { rows } = await tx.query<Omit<Claimed, "intentId">>(
    `SELECT ord, sub_uid, symbol, leverage, key_name FROM leverage_plan_targets
      WHERE plan_id = $1 AND state = 'pending' ORDER BY ord LIMIT $2 FOR UPDATE SKIP LOCKED`,
    [plan.id, asks],
  );
  const intents = await appendAuditBatchInTransaction(
    tx,
    rows.map((t) => ({
      actor: plan.started_by,
      actorRole: "lead",
      action: "leverage.set" as const,
      outcome: "intent" as const,
      target: `leverage-plan:${plan.id}`,
      params: {
        planId: plan.id,
        ord: t.ord,
        subUid: t.sub_uid,
        key: t.key_name,
        productType: plan.product_type,
        marginCoin: plan.margin_coin,
        symbol: t.symbol,
        leverage: t.leverage,
      },
    })),
  );
  const claimed: Claimed[] = rows.map((t, i) => ({ ...t, intentId: intents[i]!.id }));
  if (claimed.length)
    await tx.query(
      `UPDATE leverage_plan_targets t SET state = 'sending', intent_id = c.intent_id, claimed_by = $2,
              sends = t.sends + 1, sent_at = now(), code = NULL, message = NULL
         FROM unnest($3::int[], $4::bigint[]) AS c (ord, intent_id) WHERE t.plan_id = $1 AND t.ord = c.ord`,
      [plan.id, instance, claimed.map((c) => c.ord), claimed.map((c) => c.intentId)],
    );
  return none.map((_, i) => claimed[i] ?? null);
}

type Settled = { state: "done" | "failed" | "unknown"; code: string | null; message: string; answer?: LeverageSetting };

/** What an error says of a target: refused (nothing set), or unknown (the call may have reached the platform). */
function settledBy(e: unknown): Settled {
  if (e instanceof PlatformError) return { state: "failed", code: e.code, message: e.message };
  if ((e instanceof PlatformTimeoutError || e instanceof PlatformNetworkError) && !e.requestSent)
    return { state: "failed", code: e.kind, message: `not sent: ${e.message}` };
  if (
    e instanceof PlatformTimeoutError ||
    e instanceof PlatformNetworkError ||
    e instanceof PlatformMalformedResponseError
  )
    return {
      state: "unknown",
      code: e.kind,
      message: `no answer that could be read: it may have been set (${e.message})`,
    };
  // Brokerdesk's own refusal before sending (rate budget, a key no longer configured): nothing left.
  const d = failureDetail(e);
  return {
    state: "failed",
    code: String(d.code ?? d.kind ?? "not_sent"),
    message: `not sent: ${String(d.message ?? e)}`,
  };
}

async function callOne(client: PlatformClient, plan: Plan, t: Claimed): Promise<Settled> {
  try {
    const r = await client.call(
      "leverage.set",
      { symbol: t.symbol, productType: plan.product_type as never, marginCoin: plan.margin_coin, leverage: t.leverage },
      { key: t.key_name, priority: "background" },
    );
    return { state: "done", code: r.envelope.code, message: r.envelope.msg, answer: r.data };
  } catch (e) {
    return settledBy(e);
  }
}

/**
 * Writes answers: each target's state, the leverage record (with the plan and the intent), and the intent's outcome,
 * all in one transaction for every worker that has one (see ./group-commit.ts). An intent already closed (the
 * recovery took it for lost) gets no second outcome.
 */
async function settleBatch(tx: Queryable, plan: Plan, instance: string, answers: readonly [Claimed, Settled][]) {
  const { rows } = await tx.query<{ ord: number }>(
    `UPDATE leverage_plan_targets t SET state = a.state, code = a.code, message = a.message, answer = a.answer::jsonb,
            answered_at = now()
       FROM unnest($3::int[], $4::text[], $5::text[], $6::text[], $7::text[]) AS a (ord, state, code, message, answer)
      WHERE t.plan_id = $1 AND t.ord = a.ord AND t.claimed_by = $2 AND t.state IN ('sending', 'unknown')
      RETURNING t.ord`,
    [
      plan.id,
      instance,
      answers.map(([t]) => t.ord),
      answers.map(([, s]) => s.state),
      answers.map(([, s]) => s.code),
      answers.map(([, s]) => s.message),
      answers.map(([, s]) => (s.answer ? JSON.stringify(s.answer) : null)),
    ],
  );
  const updated = new Set(rows.map((r) => r.ord));
  for (const [t, s] of answers)
    if (updated.has(t.ord) && s.answer)
      await recordLeverageSet(tx, {
        account: t.key_name,
        productType: plan.product_type,
        requested: t.leverage,
        answer: s.answer,
        setBy: plan.started_by,
        setAt: new Date(),
        reason: plan.reason,
        intentId: String(t.intentId),
        planId: plan.id,
      });
  const open = await tx.query<{ intent_id: string }>(
    "SELECT intent_id::text FROM audit_open_intents WHERE intent_id = ANY($1::bigint[])",
    [answers.map(([t]) => t.intentId)],
  );
  const stillOpen = new Set(open.rows.map((r) => Number(r.intent_id)));
  await appendAuditBatchInTransaction(
    tx,
    answers
      .filter(([t]) => stillOpen.has(t.intentId))
      .map(([t, s]) => ({
        actor: plan.started_by,
        actorRole: "lead",
        action: "leverage.set" as const,
        outcome: s.state === "done" ? ("success" as const) : ("failure" as const),
        target: `leverage-plan:${plan.id}`,
        intentId: t.intentId,
        detail: { ord: t.ord, subUid: t.sub_uid, state: s.state, code: s.code, message: s.message },
      })),
  );
  return answers.map(() => undefined);
}

export type RunEnd = "done" | "stopped" | "busy" | "not-running";

/**
 * Sends a running plan's pending targets until none is left (then it is done), or its state is no longer running
 * (paused, cancelled), or another run took it over. Safe to call again at any time, by any instance.
 */
export async function runPlan(db: Db, client: PlatformClient, planId: string, opts: RolloutOptions): Promise<RunEnd> {
  if (runningHere.has(planId)) return "busy";
  const { heartbeatMs, staleMs } = { ...ROLLOUT_TIMES, ...opts };
  runningHere.add(planId);
  try {
    const plan = await takePlan(db, planId, opts.instance, staleMs);
    if (!plan) return "not-running";
    const unsettled = await settleInFlight(db, planId, opts.instance);
    if (unsettled)
      logger.warn({ planId, unsettled }, "leverage plan: targets a stopped run left in flight are unknown");
    let stop = false;
    const beat = setInterval(() => {
      db.query<{ state: string }>(
        "UPDATE leverage_plans SET heartbeat_at = now() WHERE id = $1 AND runner = $2 RETURNING state",
        [planId, opts.instance],
      ).then(
        ({ rows }) => void (stop ||= rows[0]?.state !== "running"),
        (e: unknown) => logger.error({ err: String(e), planId }, "leverage plan heartbeat failed"),
      );
    }, heartbeatMs);
    beat.unref();
    const claim = groupCommit<Claim, Claimed | null>(db, (tx, asks) =>
      claimBatch(tx, plan, opts.instance, asks.length),
    );
    // A worker's answer and its next claim go in one transaction: half the commits, each on the audit chain's lock.
    const settleAndClaim = groupCommit<[Claimed, Settled], Claimed | null>(db, async (tx, answers) => {
      await settleBatch(tx, plan, opts.instance, answers);
      return stop ? answers.map(() => null) : claimBatch(tx, plan, opts.instance, answers.length);
    });
    const worker = async () => {
      // A claimed target is always sent: its intent is written (pause and cancel act on the claims, in the database).
      let t = stop ? null : await claim("claim");
      while (t) t = await settleAndClaim([t, await callOne(client, plan, t)]);
    };
    try {
      await Promise.all(Array.from({ length: Math.max(1, opts.concurrency) }, worker));
    } finally {
      clearInterval(beat);
    }
    const { rows } = await db.query(
      `UPDATE leverage_plans SET state = 'done', finished_at = now(), runner = NULL
        WHERE id = $1 AND state = 'running' AND runner = $2
          AND NOT EXISTS (SELECT 1 FROM leverage_plan_targets WHERE plan_id = $1 AND state IN ('pending', 'sending'))
        RETURNING id`,
      [planId, opts.instance],
    );
    return rows[0] ? "done" : "stopped";
  } finally {
    runningHere.delete(planId);
  }
}
