import "server-only";
// A single leverage change under the leverage policy. The policy judges it before anything is sent: refused (400
// on the field it exceeds, nothing sent or written), allowed (E10 is called, its audit intent written right before,
// and the record written from the platform's answer), or given to a second lead: the change waits in
// leverage_changes, nothing sent, until another lead approves it (not its requester, in good standing, with a fresh
// second factor: the same checks as a withdrawal's approval), and only then is E10 called and the record written.
// Its requester may withdraw it; another lead may reject it. Each state change is one guarded UPDATE (… WHERE
// state = 'waiting'), so of two approvers one sends and the other is told it was decided.
import { DomainError } from "@/lib/api/errors";
import type { LeverageChangeInput, LeverageChangeView } from "@/lib/api/leverage";
import { env } from "@/lib/env";
import type { LeverageSetting } from "@/lib/platform/catalog/futures";
import { platformKeyTarget, uidOfKeyName } from "@/lib/platform/key-names";
import { requireFreshFactor } from "@/server/auth/mfa/policy";
import type { StaffSession } from "@/server/auth/session";
import { withAudit } from "@/server/audit";
import type { Db, Queryable } from "@/server/db";
import type { PlatformClient } from "@/server/platform/client";
import { PlatformNetworkError, PlatformTimeoutError } from "@/server/platform/errors";
import { refuseOnHold, refuseOwn } from "@/server/workflows/approval-gate";
import { judgeLeverage, type LeverageChange, type LeverageJudgement } from "./policy/judge";
import { recordLeverageSet } from "./record";

/** How long a change waits in Brokerdesk's own queue for rate budget (the mirror's PROXY_QUEUE_DEADLINE_MS). */
const QUEUE_DEADLINE_MS = 3_000;

export type AuditContext = { requestId?: string | null; ip?: string | null; signal?: AbortSignal };
/** The policy's verdict; judgeLeverage unless a test gives another. */
export type LeverageJudge = (db: Queryable, change: LeverageChange) => Promise<LeverageJudgement>;

/** E10's request as the form sends it (the key and the reason apart). */
type E10Request = Pick<LeverageChangeInput, "symbol" | "productType" | "marginCoin" | "leverage" | "holdSide">;

export type LeverageChangeOutcome =
  { state: "set"; data: LeverageSetting } | { state: "waiting"; change: LeverageChangeView };

const e10Of = (i: E10Request): E10Request => ({
  symbol: i.symbol,
  productType: i.productType,
  marginCoin: i.marginCoin,
  leverage: i.leverage,
  ...(i.holdSide ? { holdSide: i.holdSide } : {}),
});

/**
 * The single form's change: judged, then sent and recorded, or left waiting for a second lead. The key's choice
 * (configured, and this role may use it) is the route's, before this runs.
 */
export async function changeLeverage(
  db: Db,
  client: PlatformClient,
  session: StaffSession,
  input: LeverageChangeInput,
  ctx: AuditContext = {},
  judge: LeverageJudge = judgeLeverage,
): Promise<LeverageChangeOutcome> {
  const request = e10Of(input);
  const verdict = await judge(db, {
    productType: request.productType,
    symbol: request.symbol,
    leverage: request.leverage,
    targets: 1,
  });
  if (verdict.verdict === "refuse")
    throw new DomainError("leverage_refused", verdict.message, { [verdict.field]: [verdict.message] });
  if (verdict.verdict === "second-lead") {
    const change = await withAudit(
      db,
      { ...subjectOf(session, ctx), action: "leverage.request", target: platformKeyTarget(input.key) },
      { ...request, key: input.key, reason: input.reason },
      async () => {
        const { rows } = await db.query<ChangeRow>(
          `INSERT INTO leverage_changes (account, sub_uid, product_type, symbol, leverage, request, reason,
             requested_by, policy_version, policy_rule, policy_why)
           VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9, $10, $11) RETURNING *`,
          [
            input.key,
            uidOfKeyName(input.key),
            request.productType,
            request.symbol,
            request.leverage,
            JSON.stringify(request),
            input.reason,
            session.email,
            verdict.policyVersion,
            verdict.rule,
            verdict.why,
          ],
        );
        return toView(rows[0]!);
      },
      (v) => ({ id: v.id, state: v.state }),
    );
    return { state: "waiting", change };
  }
  const data = await sendAndRecord(db, client, session, input.key, request, input.reason, ctx);
  return { state: "set", data };
}

/**
 * E10 signed by `key`, between its audit intent and outcome (the history's rows), and the record written from the
 * platform's answer. A refusal or failure writes the audit outcome and nothing to the record.
 */
async function sendAndRecord(
  db: Db,
  client: PlatformClient,
  session: StaffSession,
  key: string,
  request: E10Request,
  reason: string,
  ctx: AuditContext,
): Promise<LeverageSetting> {
  return withAudit(
    db,
    { ...subjectOf(session, ctx), action: "leverage.set", target: platformKeyTarget(key) },
    { ...request, reason },
    async (intentId) => {
      // As the mirror: at most a few seconds in Brokerdesk's own queue for rate budget (then 429 "busy"), and the
      // platform's timeout for the whole answer someone is waiting for.
      const deadline = AbortSignal.timeout(env.platform.timeoutMs);
      const { data } = await client
        .call("leverage.set", request as never, {
          key: key === "main" ? undefined : key,
          queueDeadlineMs: QUEUE_DEADLINE_MS,
          signal: ctx.signal ? AbortSignal.any([ctx.signal, deadline]) : deadline,
        })
        .catch((e: unknown) => {
          // The deadline, not the caller, ended it: the platform was slow (504), as the mirror says.
          if (e instanceof PlatformNetworkError && deadline.aborted && !ctx.signal?.aborted)
            throw new PlatformTimeoutError("leverage.set", "total", env.platform.timeoutMs, e.requestSent);
          throw e;
        });
      await recordLeverageSet(db, {
        account: key,
        productType: request.productType,
        requested: request.leverage,
        answer: data,
        setBy: session.email,
        setAt: new Date(),
        reason,
        intentId: String(intentId),
      });
      return data;
    },
    // As the proxy's outcome row: the platform's code and answer (the history reads `data`).
    (data) => ({ code: "00000", data }),
  );
}

const subjectOf = (session: StaffSession, ctx: AuditContext) => ({
  actor: session.email,
  actorRole: session.role,
  requestId: ctx.requestId ?? null,
  ip: ctx.ip ?? null,
});

// ---- the waiting changes -------------------------------------------------------------------------

type ChangeRow = {
  id: string;
  account: string;
  sub_uid: string | null;
  product_type: string;
  symbol: string;
  leverage: string;
  request: E10Request | string;
  reason: string;
  requested_by: string;
  requested_at: Date | string;
  policy_rule: string;
  policy_why: string;
  state: LeverageChangeView["state"];
  decided_by: string | null;
  decided_at: Date | string | null;
  reject_reason: string | null;
  failure: string | null;
};

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
const requestOf = (r: ChangeRow): E10Request =>
  typeof r.request === "string" ? (JSON.parse(r.request) as E10Request) : r.request;

function toView(r: ChangeRow): LeverageChangeView {
  const req = requestOf(r);
  return {
    id: r.id,
    account: r.account,
    subUid: r.sub_uid,
    productType: r.product_type,
    symbol: r.symbol,
    leverage: r.leverage,
    marginCoin: req.marginCoin,
    holdSide: req.holdSide ?? null,
    reason: r.reason,
    requestedBy: r.requested_by,
    requestedAt: iso(r.requested_at)!,
    policyRule: r.policy_rule,
    why: r.policy_why,
    state: r.state,
    decidedBy: r.decided_by,
    decidedAt: iso(r.decided_at),
    rejectReason: r.reject_reason,
    failure: r.failure,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function loadRow(db: Queryable, id: string): Promise<ChangeRow> {
  const { rows } = UUID.test(id)
    ? await db.query<ChangeRow>("SELECT * FROM leverage_changes WHERE id = $1", [id])
    : { rows: [] };
  if (!rows[0]) throw new DomainError("not_found", "No such leverage change");
  return rows[0];
}

function refuseDecided(row: ChangeRow): never {
  throw new DomainError("already_decided", `This leverage change was already decided: it is ${row.state}`);
}

/** Single changes, newest first: those waiting by default, or of a state; of one sub-account if given. */
export async function listLeverageChanges(
  db: Queryable,
  f: { state?: LeverageChangeView["state"]; subUid?: string } = {},
): Promise<{ items: LeverageChangeView[] }> {
  const { rows } = await db.query<ChangeRow>(
    `SELECT * FROM leverage_changes WHERE state = $1 AND ($2::text IS NULL OR sub_uid = $2)
     ORDER BY requested_at DESC, id DESC LIMIT 200`,
    [f.state ?? "waiting", f.subUid ?? null],
  );
  return { items: rows.map(toView) };
}

/** How many single changes wait for this lead's decision (others' changes). */
export async function countLeverageWaitingFor(db: Queryable, email: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM leverage_changes WHERE state = 'waiting' AND lower(requested_by) <> lower($1)",
    [email],
  );
  return Number(rows[0]?.n ?? 0);
}

/**
 * Another lead approves: not the requester, in good standing, with a fresh second factor (the route asks for it
 * too). waiting → approved (guarded: one approver only), then E10 with its intent, the record, and sent or failed.
 */
export async function approveLeverageChange(
  db: Db,
  client: PlatformClient,
  session: StaffSession,
  id: string,
  ctx: AuditContext = {},
): Promise<LeverageChangeView> {
  const row = await loadRow(db, id);
  refuseOwn(row.requested_by, session, "You asked for this leverage change, so another lead must approve it");
  if (row.state !== "waiting") refuseDecided(row);
  requireFreshFactor(session, env.mfa.freshMs, Date.now());
  await refuseOnHold(db, session);
  // The policy in force now (a stricter one may have been published while it waited): beyond its maximum, refused.
  const now = await judgeLeverage(db, {
    productType: row.product_type,
    symbol: row.symbol,
    leverage: row.leverage,
    targets: 1,
  });
  if (now.verdict === "refuse") throw new DomainError("leverage_refused", now.message, { [now.field]: [now.message] });
  const { rows } = await db.query<ChangeRow>(
    `UPDATE leverage_changes SET state = 'approved', decided_by = $2, decided_at = clock_timestamp()
     WHERE id = $1 AND state = 'waiting' AND lower(requested_by) <> lower($2) RETURNING *`,
    [id, session.email],
  );
  if (!rows[0]) refuseDecided(await loadRow(db, id));
  // The record says who asked and why; the audit intent of the call is the approver's (who sent it).
  try {
    const data = await sendAndRecordFor(db, client, session, rows[0], ctx);
    const { rows: sent } = await db.query<ChangeRow>(
      "UPDATE leverage_changes SET state = 'sent', answer = $2::jsonb WHERE id = $1 RETURNING *",
      [id, JSON.stringify(data)],
    );
    return toView(sent[0]!);
  } catch (e) {
    await db.query("UPDATE leverage_changes SET state = 'failed', failure = $2 WHERE id = $1", [
      id,
      e instanceof Error ? e.message.slice(0, 500) : String(e),
    ]);
    throw e;
  }
}

async function sendAndRecordFor(
  db: Db,
  client: PlatformClient,
  approver: StaffSession,
  row: ChangeRow,
  ctx: AuditContext,
): Promise<LeverageSetting> {
  const reason = `${row.reason}${row.reason ? " " : ""}(asked by ${row.requested_by}, approved by ${approver.email})`;
  return sendAndRecord(db, client, approver, row.account, requestOf(row), reason, ctx);
}

/** Another lead rejects it (in good standing; never the requester): nothing is sent. */
export async function rejectLeverageChange(
  db: Db,
  session: StaffSession,
  id: string,
  reason: string,
): Promise<LeverageChangeView> {
  const row = await loadRow(db, id);
  refuseOwn(row.requested_by, session, "You asked for this leverage change: withdraw it instead");
  if (row.state !== "waiting") refuseDecided(row);
  await refuseOnHold(db, session);
  const { rows } = await db.query<ChangeRow>(
    `UPDATE leverage_changes SET state = 'rejected', decided_by = $2, decided_at = clock_timestamp(), reject_reason = $3
     WHERE id = $1 AND state = 'waiting' AND lower(requested_by) <> lower($2) RETURNING *`,
    [id, session.email, reason],
  );
  if (!rows[0]) refuseDecided(await loadRow(db, id));
  return toView(rows[0]);
}

/** Its requester withdraws it while it waits: nothing is sent. */
export async function withdrawLeverageChange(db: Db, session: StaffSession, id: string): Promise<LeverageChangeView> {
  const row = await loadRow(db, id);
  if (row.requested_by.toLowerCase() !== session.email.toLowerCase())
    throw new DomainError("forbidden", "Only the lead who asked for this change can withdraw it; a lead can reject it");
  if (row.state !== "waiting") refuseDecided(row);
  const { rows } = await db.query<ChangeRow>(
    `UPDATE leverage_changes SET state = 'withdrawn', decided_by = $2, decided_at = clock_timestamp()
     WHERE id = $1 AND state = 'waiting' AND lower(requested_by) = lower($2) RETURNING *`,
    [id, session.email],
  );
  if (!rows[0]) refuseDecided(await loadRow(db, id));
  return toView(rows[0]);
}
