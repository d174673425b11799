import "server-only";
// A plan's life: made from its targets under the leverage policy's verdict (refused on its field; waiting for a
// second lead; or ready), approved by a second lead when the policy says so, started, paused, resumed, cancelled,
// and its failed targets sent again. Each state change is one guarded UPDATE (… WHERE state = <expected>), so two
// leads acting at once cannot both win. The sending itself is the rollout job's (./rollout.ts).
import { DomainError, invalidField } from "@/lib/api/errors";
import type { CreatePlanInput, PlanTargetsInput, PlanView } from "@/lib/api/leverage-plans";
import type { PlanState } from "@/lib/api/leverage-plans/words";
import type { StaffSession } from "@/server/auth/session";
import type { Db, Queryable } from "@/server/db";
import { judgeLeverage, type LeverageJudgement } from "@/server/leverage/policy/judge";
import type { CredentialStore } from "@/server/platform/credentials";
import { refuseOnHold, refuseOwn } from "@/server/workflows/approval-gate";
import { chooseTargets, highestOf, keyedUids, previewTargets, type Target } from "./targets";

/** The preview of what a plan would be, before anything is written. */
export async function previewPlan(
  db: Queryable,
  credentials: CredentialStore,
  role: StaffSession["role"],
  input: PlanTargetsInput,
) {
  const keyed = keyedUids(credentials, role);
  const targets = await chooseTargets(db, input, keyed);
  const items = await previewTargets(db, input.productType, input.marginCoin, targets, keyed);
  const withKey = items.filter((t) => t.hasKey).length;
  return { items, withKey, withoutKey: items.length - withKey, highest: highestOf(targets) };
}

const STRICTNESS = { allow: 0, "second-lead": 1, refuse: 2 } as const;

/** The policy's verdict on a plan: per symbol (its highest value, the plan's count), the strictest one. */
export async function judgePlan(
  db: Queryable,
  productType: string,
  targets: readonly Target[],
): Promise<LeverageJudgement> {
  const highest = new Map<string, number>();
  for (const t of targets) highest.set(t.symbol, Math.max(highest.get(t.symbol) ?? 0, Number(t.leverage)));
  let worst: LeverageJudgement = { verdict: "allow", policyVersion: null };
  for (const [symbol, leverage] of highest) {
    const j = await judgeLeverage(db, { productType, symbol, leverage: String(leverage), targets: targets.length });
    if (STRICTNESS[j.verdict] > STRICTNESS[worst.verdict]) worst = j;
  }
  return worst;
}

/** Refuses a plan the policy refuses: 400 naming its field, nothing written. */
function refuseByPolicy(j: LeverageJudgement): void {
  if (j.verdict !== "refuse") return;
  throw new DomainError("leverage_refused", j.message, { [j.field]: [j.message] });
}

/**
 * The policy in force now, on what a plan still has to send (a plan made, or approved, under an older policy): a
 * refusal refuses the start, resume or retry on its field; a second lead the plan never had refuses it too (its
 * planner makes the plan again, and it waits for one). Nothing is sent that today's policy would not let through.
 */
async function judgeAgain(db: Queryable, id: string, states: readonly string[]): Promise<void> {
  const { rows } = await db.query<{
    product_type: string;
    approved_by: string | null;
    sub_uid: string;
    symbol: string;
    leverage: string;
  }>(
    `SELECT p.product_type, p.approved_by, t.sub_uid, t.symbol, t.leverage
       FROM leverage_plans p JOIN leverage_plan_targets t ON t.plan_id = p.id
      WHERE p.id::text = $1 AND t.state = ANY($2::text[])`,
    [id, states],
  );
  if (!rows.length) return;
  const j = await judgePlan(
    db,
    rows[0]!.product_type,
    rows.map((r) => ({ subUid: r.sub_uid, symbol: r.symbol, leverage: r.leverage })),
  );
  refuseByPolicy(j);
  if (j.verdict === "second-lead" && rows[0]!.approved_by === null)
    throw new DomainError(
      "already_decided",
      `The leverage policy now asks a second lead for this plan (${j.why}): make the plan again, and it waits for one`,
    );
}

/** Makes a plan: its targets, each with what the record held and its key (or none), judged by the policy. */
export async function createPlan(
  db: Db,
  credentials: CredentialStore,
  session: StaffSession,
  input: CreatePlanInput,
): Promise<PlanView> {
  const keyed = keyedUids(credentials, session.role);
  const targets = await chooseTargets(db, input, keyed);
  const verdict = await judgePlan(db, input.productType, targets);
  refuseByPolicy(verdict);
  const preview = await previewTargets(db, input.productType, input.marginCoin, targets, keyed);
  const selection =
    input.source === "csv"
      ? { rows: targets.length }
      : {
          symbol: input.symbol,
          leverage: input.leverage,
          ...(input.source === "list"
            ? { uids: targets.length }
            : {
                label: input.label,
                riskUnit: input.riskUnit,
                above: input.above,
                below: input.below,
                keyOnly: input.keyOnly,
              }),
        };
  const state: PlanState = verdict.verdict === "second-lead" ? "waiting" : "ready";
  const why = verdict.verdict === "second-lead" ? verdict.why : null;
  const id = await db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: string }>(
      `INSERT INTO leverage_plans (product_type, margin_coin, source, selection, reason, state, verdict, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
      [
        input.productType,
        input.marginCoin,
        input.source,
        JSON.stringify(selection),
        input.reason,
        state,
        JSON.stringify({ ...verdict, why }),
        session.email,
      ],
    );
    const planId = rows[0]!.id;
    // Preview's order: keyed targets first. One statement for all of them.
    await tx.query(
      `INSERT INTO leverage_plan_targets (plan_id, ord, sub_uid, symbol, leverage, key_name, current, state)
       SELECT $1, t.ord, t.sub_uid, t.symbol, t.leverage, t.key_name, t.current,
              CASE WHEN t.key_name IS NULL THEN 'no-key' ELSE 'pending' END
         FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
              AS t (ord, sub_uid, symbol, leverage, key_name, current)`,
      [
        planId,
        preview.map((_, i) => i + 1),
        preview.map((t) => t.subUid),
        preview.map((t) => t.symbol),
        preview.map((t) => t.leverage),
        preview.map((t) => keyed.get(t.subUid) ?? null),
        preview.map((t) => t.current),
      ],
    );
    return planId;
  });
  return getPlan(db, id);
}

type PlanRow = {
  id: string;
  state: PlanState;
  product_type: string;
  margin_coin: string;
  source: PlanView["source"];
  selection: Record<string, unknown>;
  reason: string;
  verdict: { verdict: string; why?: string | null };
  created_by: string;
  created_at: Date;
  approved_by: string | null;
  started_by: string | null;
  started_at: Date | null;
  finished_at: Date | null;
};

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

async function countsOf(db: Queryable, ids: readonly string[]): Promise<Map<string, PlanView["counts"]>> {
  const { rows } = await db.query<{ plan_id: string; state: string; n: number }>(
    `SELECT plan_id::text, state, count(*)::int AS n FROM leverage_plan_targets WHERE plan_id = ANY($1::uuid[])
      GROUP BY plan_id, state`,
    [ids],
  );
  const out = new Map<string, PlanView["counts"]>();
  for (const id of ids)
    out.set(id, { total: 0, pending: 0, sending: 0, done: 0, failed: 0, unknown: 0, noKey: 0, cancelled: 0 });
  for (const r of rows) {
    const c = out.get(r.plan_id)!;
    c.total += r.n;
    c[r.state === "no-key" ? "noKey" : (r.state as Exclude<keyof typeof c, "total" | "noKey">)] += r.n;
  }
  return out;
}

function view(r: PlanRow, counts: PlanView["counts"]): PlanView {
  return {
    id: r.id,
    state: r.state,
    productType: r.product_type,
    marginCoin: r.margin_coin,
    source: r.source,
    selection: r.selection,
    reason: r.reason,
    verdict: { verdict: r.verdict.verdict, why: r.verdict.why ?? null },
    createdBy: r.created_by,
    createdAt: iso(r.created_at)!,
    approvedBy: r.approved_by,
    startedBy: r.started_by,
    startedAt: iso(r.started_at),
    finishedAt: iso(r.finished_at),
    counts,
  };
}

const PLAN_COLUMNS = `id::text, state, product_type, margin_coin, source, selection, reason, verdict, created_by, created_at,
  approved_by, started_by, started_at, finished_at`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function getPlan(db: Queryable, id: string): Promise<PlanView> {
  const { rows } = UUID.test(id)
    ? await db.query<PlanRow>(`SELECT ${PLAN_COLUMNS} FROM leverage_plans WHERE id = $1`, [id])
    : { rows: [] };
  if (!rows[0]) throw new DomainError("not_found", `No leverage plan ${id.slice(0, 64)}`);
  return view(rows[0], (await countsOf(db, [id])).get(id)!);
}

export async function listPlans(db: Queryable): Promise<PlanView[]> {
  const { rows } = await db.query<PlanRow>(
    `SELECT ${PLAN_COLUMNS} FROM leverage_plans ORDER BY created_at DESC, id LIMIT 50`,
  );
  const counts = await countsOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => view(r, counts.get(r.id)!));
}

/** One guarded change of a plan's state; `refusal` says why when the plan is not in a state it applies to. */
async function move(
  db: Queryable,
  id: string,
  from: readonly PlanState[],
  set: string,
  params: unknown[],
  refusal: (state: PlanState) => string,
): Promise<void> {
  await getPlan(db, id);
  const { rows } = await db.query(
    `UPDATE leverage_plans SET ${set} WHERE id = $1 AND state = ANY($2::text[]) RETURNING id`,
    [id, from, ...params],
  );
  if (!rows[0]) {
    throw new DomainError("already_decided", refusal((await getPlan(db, id)).state));
  }
}

/** A second lead lets a waiting plan start: not its planner, in good standing (the route asks a fresh factor). */
export async function approvePlan(db: Db, session: StaffSession, id: string): Promise<PlanView> {
  const plan = await getPlan(db, id);
  refuseOwn(plan.createdBy, session, "You made this plan: another lead must approve it");
  await refuseOnHold(db, session);
  await move(
    db,
    id,
    ["waiting"],
    "state = 'ready', approved_by = $3, approved_at = now()",
    [session.email],
    (s) => `This plan is ${s}: it is not waiting for a second lead`,
  );
  return getPlan(db, id);
}

/** Starts a ready plan: the rollout job sends it (`kick` queues the job at once). */
export async function startPlan(db: Db, session: StaffSession, id: string, kick: (id: string) => Promise<void>) {
  await judgeAgain(db, id, ["pending"]);
  await move(db, id, ["ready"], "state = 'running', started_by = $3, started_at = now()", [session.email], (s) =>
    s === "waiting" ? "This plan waits for a second lead's approval" : `This plan is ${s}: it cannot start`,
  );
  await kick(id);
  return getPlan(db, id);
}

export async function pausePlan(db: Db, id: string): Promise<PlanView> {
  await move(db, id, ["running"], "state = 'paused'", [], (s) => `This plan is ${s}: only a running plan pauses`);
  return getPlan(db, id);
}

export async function resumePlan(db: Db, id: string, kick: (id: string) => Promise<void>): Promise<PlanView> {
  await judgeAgain(db, id, ["pending"]);
  await move(db, id, ["paused"], "state = 'running'", [], (s) => `This plan is ${s}: only a paused plan resumes`);
  await kick(id);
  return getPlan(db, id);
}

/** Cancels a plan: its targets not sent yet are never sent (those in flight get their answers). */
export async function cancelPlan(db: Db, id: string): Promise<PlanView> {
  await db.transaction(async (tx) => {
    await move(
      tx,
      id,
      ["waiting", "ready", "running", "paused"],
      "state = 'cancelled', finished_at = now()",
      [],
      (s) => `This plan is ${s}: it cannot be cancelled`,
    );
    await tx.query(
      "UPDATE leverage_plan_targets SET state = 'cancelled', message = 'the plan was cancelled' WHERE plan_id = $1 AND state = 'pending'",
      [id],
    );
  });
  return getPlan(db, id);
}

/** Sends again only what failed: the failed targets become pending and the plan runs again. */
export async function retryFailed(db: Db, id: string, kick: (id: string) => Promise<void>): Promise<PlanView> {
  await judgeAgain(db, id, ["failed", "pending"]);
  await db.transaction(async (tx) => {
    const plan = await getPlan(tx, id);
    if (plan.state !== "done" && plan.state !== "paused")
      throw new DomainError("already_decided", `This plan is ${plan.state}: a retry follows a finished or paused plan`);
    const { rows } = await tx.query(
      `UPDATE leverage_plan_targets SET state = 'pending', code = NULL, message = NULL, answer = NULL
        WHERE plan_id = $1 AND state = 'failed' RETURNING ord`,
      [id],
    );
    if (!rows.length) throw invalidField("id", "This plan has no failed target to send again");
    await tx.query(
      "UPDATE leverage_plans SET state = 'running', finished_at = NULL WHERE id = $1 AND state = ANY($2::text[])",
      [id, ["done", "paused"]],
    );
  });
  await kick(id);
  return getPlan(db, id);
}
