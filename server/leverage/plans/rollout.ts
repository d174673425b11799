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
import { appendAuditInTransaction, openAudit, type AuditTrail } from "@/server/audit";
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
type Claimed = { ord: number; sub_uid: string; symbol: string; leverage: string; key_name: string; trail: AuditTrail };

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

/** Claims the next pending target with its audit intent, in one transaction; null when none is left or sending stops. */
async function claimNext(db: Db, plan: Plan, instance: string): Promise<Claimed | null> {
  let trail: AuditTrail | null = null;
  const row = await db.transaction(async (tx) => {
    const live = await tx.query("SELECT 1 FROM leverage_plans WHERE id = $1 AND state = 'running' AND runner = $2", [
      plan.id,
      instance,
    ]);
    if (!live.rows[0]) return null;
    const { rows } = await tx.query<Omit<Claimed, "trail">>(
      `SELECT ord, sub_uid, symbol, leverage, key_name FROM leverage_plan_targets
        WHERE plan_id = $1 AND state = 'pending' ORDER BY ord LIMIT 1 FOR UPDATE SKIP LOCKED`,
      [plan.id],
    );
    const t = rows[0];
    if (!t) return null;
    trail = await openAudit(
      db,
      { actor: plan.started_by, actorRole: "lead", action: "leverage.set", target: `leverage-plan:${plan.id}` },
      {
        planId: plan.id,
        ord: t.ord,
        subUid: t.sub_uid,
        key: t.key_name,
        productType: plan.product_type,
        marginCoin: plan.margin_coin,
        symbol: t.symbol,
        leverage: t.leverage,
      },
      tx,
    );
    await tx.query(
      `UPDATE leverage_plan_targets SET state = 'sending', intent_id = $3, claimed_by = $4, sends = sends + 1,
              sent_at = now(), code = NULL, message = NULL WHERE plan_id = $1 AND ord = $2`,
      [plan.id, t.ord, (trail as AuditTrail).intentId, instance],
    );
    return t;
  });
  return row && trail ? { ...row, trail } : null;
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

async function sendOne(db: Db, client: PlatformClient, plan: Plan, t: Claimed, instance: string): Promise<void> {
  let settled: Settled;
  let msg = "";
  try {
    const r = await client.call(
      "leverage.set",
      { symbol: t.symbol, productType: plan.product_type as never, marginCoin: plan.margin_coin, leverage: t.leverage },
      { key: t.key_name, priority: "background" },
    );
    msg = r.envelope.msg;
    settled = { state: "done", code: r.envelope.code, message: msg, answer: r.data };
  } catch (e) {
    settled = settledBy(e);
  }
  await db.transaction(async (tx) => {
    const { rows } = await tx.query(
      `UPDATE leverage_plan_targets SET state = $3, code = $4, message = $5, answer = $6, answered_at = now()
        WHERE plan_id = $1 AND ord = $2 AND claimed_by = $7 AND state IN ('sending', 'unknown') RETURNING ord`,
      [
        plan.id,
        t.ord,
        settled.state,
        settled.code,
        settled.message,
        settled.answer ? JSON.stringify(settled.answer) : null,
        instance,
      ],
    );
    if (rows[0] && settled.answer)
      await recordLeverageSet(tx, {
        account: t.key_name,
        productType: plan.product_type,
        requested: t.leverage,
        answer: settled.answer,
        setBy: plan.started_by,
        setAt: new Date(),
        reason: plan.reason,
        intentId: String(t.trail.intentId),
        planId: plan.id,
      });
  });
  const detail = { ord: t.ord, subUid: t.sub_uid, state: settled.state, code: settled.code, message: settled.message };
  await t.trail.close(settled.state === "done" ? "success" : "failure", detail);
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
    const worker = async () => {
      while (!stop) {
        const t = await claimNext(db, plan, opts.instance);
        if (!t) return;
        await sendOne(db, client, plan, t, opts.instance);
      }
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
