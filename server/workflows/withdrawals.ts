import "server-only";
// Two-person withdrawals (issue 6). A broker or lead requests; another lead approves, which sends E5 with the
// clientOid minted at request time. "Never sent twice" rests on the database, not on the browser: every
// state change is one guarded UPDATE (… WHERE state = <expected>), so of two approvers, two clicks or two
// reconciles exactly one wins the row and only the winner calls the platform; a trigger (migration 0003)
// refuses any transition outside the state machine and any change to what was requested.
import { randomBytes } from "node:crypto";
import Big from "big.js";
import type { z } from "zod";
import { withdrawalRequestSchema } from "@/lib/platform/catalog/withdrawals";
import type { ApproveWithdrawalInput, WithdrawalFormValues, WithdrawalView, withdrawalFiltersSchema } from "@/lib/api/withdrawals";
import { isReconcilable, type WithdrawalState } from "@/lib/withdrawal-states";
import { appendAudit, appendAuditInTransaction } from "@/server/audit";
import type { StaffSession } from "@/server/auth/session";
import type { Db, Queryable } from "@/server/db";
import { HttpError } from "@/server/http/errors";
import { logger } from "@/server/log";
import type { PlatformClient } from "@/server/platform/client";
import { PlatformError } from "@/server/platform/errors";
import { csvCell, CSV_EOL } from "./csv";
import { getRegistryEntry } from "./subaccounts";

/** Where an audit row came from (the route's request id and the caller's IP). */
export type AuditContext = { requestId?: string | null; ip?: string | null };

type Row = {
  id: string; client_oid: string; sub_uid: string; coin: string; dest: "on_chain" | "internal_transfer"; chain: string | null;
  address: string; tag: string | null; amount: string; reason: string; state: WithdrawalState; requested_by: string;
  requested_at: Date | string; approved_by: string | null; approved_at: Date | string | null; rejected_by: string | null;
  rejected_at: Date | string | null; reject_reason: string | null; submitted_at: Date | string | null;
  settled_at: Date | string | null; platform_order_id: string | null; error_code: string | null; error_msg: string | null;
  version: number;
};

const iso = (v: Date | string | null): string | null => (v === null ? null : new Date(v).toISOString());

export function toView(r: Row): WithdrawalView {
  return {
    id: r.id, clientOid: r.client_oid, subUid: r.sub_uid, coin: r.coin, dest: r.dest, chain: r.chain, address: r.address,
    tag: r.tag, amount: r.amount, reason: r.reason, state: r.state, requestedBy: r.requested_by,
    requestedAt: new Date(r.requested_at).toISOString(), approvedBy: r.approved_by, approvedAt: iso(r.approved_at),
    rejectedBy: r.rejected_by, rejectedAt: iso(r.rejected_at), rejectReason: r.reject_reason, submittedAt: iso(r.submitted_at),
    settledAt: iso(r.settled_at), platformOrderId: r.platform_order_id, errorCode: r.error_code, errorMsg: r.error_msg,
    version: Number(r.version),
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function loadRow(db: Queryable, id: string): Promise<Row> {
  // A malformed id would make PostgreSQL throw on the uuid cast: to staff it is simply not there.
  const rows = UUID.test(id) ? (await db.query<Row>("SELECT * FROM withdrawal_requests WHERE id = $1", [id])).rows : [];
  if (!rows[0]) throw new HttpError(404, "not_found", `No withdrawal request ${id}`);
  return rows[0];
}

export async function getWithdrawal(db: Db, id: string): Promise<WithdrawalView> {
  return toView(await loadRow(db, id));
}

/** bd + base-36 time + 12 random base64url characters: sortable by eye, unguessable, within ^[A-Za-z0-9_-]{1,64}$. */
export function mintClientOid(now = Date.now()): string {
  return `bd${now.toString(36)}${randomBytes(9).toString("base64url")}`;
}

const field = (name: string, message: string) => new HttpError(422, "invalid_input", "Some fields are not valid", { [name]: [message] });

/**
 * Saves a request in state "requested" with a fresh clientOid, before anything is sent. Refuses a sub-account
 * Brokerdesk does not know and an amount above the sub-account's available balance (E2, read now).
 */
export async function requestWithdrawal(db: Db, client: PlatformClient, session: StaffSession, input: WithdrawalFormValues): Promise<WithdrawalView> {
  const sub = await getRegistryEntry(db, input.subUid);
  if (!sub) throw field("subUid", `Sub-account ${input.subUid} is not in Brokerdesk's registry`);
  if (sub.status !== "normal") throw field("subUid", `Sub-account ${input.subUid} is ${sub.status}: it cannot withdraw`);

  const clientOid = mintClientOid();
  // What will be sent on approval, checked against the platform operation's own schema now, so a request
  // that E5 would refuse for its shape never reaches a lead's queue.
  const body = e5Body({ sub_uid: input.subUid, coin: input.coin, dest: input.dest, chain: input.chain ?? null, address: input.address, tag: input.tag ?? null, amount: input.amount, client_oid: clientOid });
  const shape = withdrawalRequestSchema.safeParse(body);
  if (!shape.success) {
    const issue = shape.error.issues[0];
    throw field(String(issue?.path[0] ?? "_"), issue?.message ?? "not valid for the platform");
  }

  const { data } = await client.call("subaccounts.assets", { subUid: input.subUid, coin: input.coin });
  const available = data.assetsList.find((a) => a.coin === input.coin)?.available ?? "0";
  // Decimal comparison (big.js): a float would round "0.30000001" against "0.3".
  if (new Big(input.amount).gt(available || "0")) {
    throw field("amount", `amount is above the available balance of ${sub.subaccountName ?? input.subUid}: ${available} ${input.coin}`);
  }

  const { rows } = await db.query<Row>(
    `INSERT INTO withdrawal_requests (client_oid, sub_uid, coin, dest, chain, address, tag, amount, reason, requested_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING *`,
    [clientOid, input.subUid, input.coin, input.dest, input.chain ?? null, input.address, input.tag ?? null, input.amount, input.reason, session.email],
  );
  return toView(rows[0]!);
}

/** The E5 body of a stored request: exactly the stored fields, every time (the platform compares a repeat). */
function e5Body(r: Pick<Row, "sub_uid" | "coin" | "dest" | "chain" | "address" | "tag" | "amount" | "client_oid">): z.input<typeof withdrawalRequestSchema> {
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
    throw new HttpError(403, "own_request", `You requested this withdrawal, so another lead must ${what} it`);
  }
}

function refuseDecided(row: Row): never {
  throw new HttpError(409, "already_decided", `This withdrawal was already decided: it is ${row.state}`);
}

/**
 * The approver retyped the amount and address; both must equal the stored ones character for character.
 * Then requested → approved (guarded), and the stored request is sent.
 */
export async function approveWithdrawal(
  db: Db, client: PlatformClient, session: StaffSession, id: string, confirm: ApproveWithdrawalInput, ctx: AuditContext = {},
): Promise<WithdrawalView> {
  const row = await loadRow(db, id);
  refuseOwn(row, session, "approve");
  if (row.state !== "requested") refuseDecided(row);
  const mismatch: Record<string, string[]> = {};
  if (confirm.confirmAmount !== row.amount) mismatch.confirmAmount = [`The amount typed is not the requested amount (${row.amount})`];
  if (confirm.confirmAddress !== row.address) mismatch.confirmAddress = ["The address typed is not the requested address"];
  if (Object.keys(mismatch).length) throw new HttpError(422, "confirmation_mismatch", "The values typed do not match the request", mismatch);

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
export async function rejectWithdrawal(db: Db, session: StaffSession, id: string, reason: string): Promise<WithdrawalView> {
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

/**
 * Settles a withdrawal whose outcome is not known by sending the SAME request again (same clientOid, same
 * fields). The platform answers a repeat with the original orderId and moves nothing, or, if the first
 * never arrived, carries it out now: either way one withdrawal. Also takes an "approved" left behind (its
 * send was never recorded, so it never left) and a "submitted" whose caller died (see the STALE_* times).
 */
export async function reconcileWithdrawal(db: Db, client: PlatformClient, session: StaffSession, id: string, ctx: AuditContext = {}): Promise<WithdrawalView> {
  const row = await loadRow(db, id);
  if (!isReconcilable(toView(row), Date.now())) {
    throw new HttpError(409, "not_reconcilable", `Only a withdrawal whose outcome is unknown can be reconciled; this one is ${row.state}`);
  }
  return submit(db, client, session, row, ctx);
}

/**
 * One send of a stored request. The claim (state → submitted, guarded by the state and version read) and
 * the "withdrawals.submit" audit intent commit together or not at all: no intent, no send (fail-closed),
 * and no two senders, because only one claim of a given version can match.
 */
async function submit(db: Db, client: PlatformClient, session: StaffSession, row: Row, ctx: AuditContext): Promise<WithdrawalView> {
  const body = e5Body(row);
  const auditBase = { actor: session.email, actorRole: session.role, action: "withdrawals.submit" as const, target: `withdrawal:${row.id}`, requestId: ctx.requestId ?? null, ip: ctx.ip ?? null };
  const claim = await db.transaction(async (tx) => {
    const { rows } = await tx.query<Row>(
      `UPDATE withdrawal_requests SET state = 'submitted', submitted_at = now(), version = version + 1
       WHERE id = $1 AND state = $2 AND version = $3 RETURNING *`,
      [row.id, row.state, row.version],
    );
    if (!rows[0]) return null;
    const intent = await appendAuditInTransaction(tx, { ...auditBase, outcome: "intent", params: { ...body, fromState: row.state } });
    return { row: rows[0], intentId: intent.id };
  });
  if (!claim) {
    const now = await loadRow(db, row.id);
    throw new HttpError(409, "already_in_progress", `This withdrawal changed meanwhile (it is ${now.state}); nothing was sent`);
  }

  let outcome: { state: "confirmed"; orderId: string } | { state: "failed" | "unknown"; code: string; msg: string };
  try {
    const { data } = await client.call("withdrawals.submit", body);
    outcome = { state: "confirmed", orderId: data.orderId };
  } catch (e) {
    outcome = classify(e);
  }

  const settled = await settle(db, claim.row, outcome);
  const detail = outcome.state === "confirmed" ? { state: "confirmed", orderId: outcome.orderId, clientOid: row.client_oid } : { state: outcome.state, code: outcome.code, msg: outcome.msg, clientOid: row.client_oid };
  // unknown is neither success nor failure: the money may have moved. "info" keeps the audit honest.
  const auditOutcome = outcome.state === "confirmed" ? "success" : outcome.state === "failed" ? "failure" : "info";
  await appendAudit(db, { ...auditBase, outcome: auditOutcome, intentId: claim.intentId, detail }).catch((e: unknown) =>
    // The platform call happened; refusing now would hide its result. The row holds the outcome.
    logger.error({ err: String(e), withdrawal: row.id }, "withdrawal submit outcome could not be audited"),
  );
  return settled;
}

/**
 * Failed only when the platform itself refused (it answered with its envelope and a 4xx: nothing moved).
 * A 5xx or 429, a timeout, a lost connection, an unreadable reply or anything local: the withdrawal may or
 * may not have happened, so it is unknown and settled by reconcile, which is safe in every case.
 */
function classify(e: unknown): { state: "failed" | "unknown"; code: string; msg: string } {
  if (e instanceof PlatformError && e.httpStatus < 500 && e.httpStatus !== 429) return { state: "failed", code: e.code, msg: e.msg };
  if (e instanceof PlatformError) return { state: "unknown", code: e.code, msg: e.msg };
  const err = e as { kind?: string; message?: string };
  return { state: "unknown", code: err?.kind ?? "error", msg: err?.message ?? String(e) };
}

async function settle(db: Db, claimed: Row, o: { state: "confirmed"; orderId: string } | { state: "failed" | "unknown"; code: string; msg: string }): Promise<WithdrawalView> {
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

// --- the ledger ---------------------------------------------------------------------------------

export type WithdrawalFilters = Omit<z.output<typeof withdrawalFiltersSchema>, "limit" | "cursor"> & { limit?: number; cursor?: string };

export const WITHDRAWAL_PAGE_MAX = 500;
const EXACT_AT = `to_char(requested_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** The form EXACT_AT writes. JavaScript reads far more ("2024", "Jan 1", Feb 30) than the database, which fails on them. */
const CURSOR_AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const isCursorAt = (at: string) => {
  const t = Date.parse(at);
  return CURSOR_AT.test(at) && !Number.isNaN(t) && new Date(t).toISOString().slice(0, 19) === at.slice(0, 19);
};

function decodeCursor(cursor: string): { at: string; id: string } {
  const [at, id] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  if (!at || !id || !UUID.test(id) || !isCursorAt(at)) throw field("cursor", "cursor is not one this ledger gave out");
  return { at, id };
}

/** Newest first, keyset-paged on (requested_at, id); `nextCursor` is null on the last page. */
export async function listWithdrawals(db: Queryable, f: WithdrawalFilters = {}): Promise<{ items: WithdrawalView[]; nextCursor: string | null }> {
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (clause: (p: string) => string, value: unknown) => {
    params.push(value);
    where.push(clause(`$${params.length}`));
  };
  if (f.subUid) add((p) => `sub_uid = ${p}`, f.subUid);
  if (f.coin) add((p) => `coin = ${p}`, f.coin);
  if (f.state) add((p) => `state = ${p}`, f.state);
  if (f.requestedBy) add((p) => `lower(requested_by) = lower(${p})`, f.requestedBy);
  if (f.from) add((p) => `requested_at >= ${p}::timestamptz`, f.from.toISOString());
  if (f.to) add((p) => `requested_at < ${p}::timestamptz`, f.to.toISOString());
  if (f.cursor) {
    const c = decodeCursor(f.cursor);
    params.push(c.at, c.id);
    where.push(`(requested_at, id) < ($${params.length - 1}::timestamptz, $${params.length}::uuid)`);
  }
  const limit = Math.min(Math.max(Math.trunc(f.limit ?? 100), 1), WITHDRAWAL_PAGE_MAX);
  const { rows } = await db.query<Row & { exact_at: string }>(
    `SELECT *, ${EXACT_AT} AS exact_at FROM withdrawal_requests ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
     ORDER BY requested_at DESC, id DESC LIMIT ${limit + 1}`,
    params,
  );
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  const nextCursor = rows.length > limit && last ? Buffer.from(`${last.exact_at}|${last.id}`, "utf8").toString("base64url") : null;
  return { items: page.map(toView), nextCursor };
}

const CSV_COLUMNS = [
  "id", "clientOid", "state", "subUid", "coin", "dest", "chain", "address", "tag", "amount", "reason", "requestedBy", "requestedAt",
  "approvedBy", "approvedAt", "rejectedBy", "rejectedAt", "rejectReason", "submittedAt", "settledAt", "platformOrderId", "errorCode", "errorMsg",
] as const satisfies readonly (keyof WithdrawalView)[];
const EXPORT_MAX_ROWS = 100_000;

/** The filtered ledger as CSV (RFC 4180, formula-guarded). The export is audited before a row is read (fail-closed). */
export async function exportWithdrawalsCsv(db: Db, f: WithdrawalFilters, session: StaffSession, ctx: AuditContext = {}): Promise<Response> {
  // The whole filtered ledger: paging parameters of the page the export was started from do not apply.
  const filters: WithdrawalFilters = { subUid: f.subUid, coin: f.coin, state: f.state, requestedBy: f.requestedBy, from: f.from, to: f.to };
  await appendAudit(db, {
    actor: session.email, actorRole: session.role, action: "export.run", outcome: "info", target: "withdrawals",
    params: { resource: "withdrawals", ...filters, from: filters.from?.toISOString(), to: filters.to?.toISOString() },
    requestId: ctx.requestId ?? null, ip: ctx.ip ?? null,
  });
  let csv = CSV_COLUMNS.map(csvCell).join(",") + CSV_EOL;
  let cursor: string | undefined;
  for (let total = 0; total < EXPORT_MAX_ROWS; ) {
    const page = await listWithdrawals(db, { ...filters, limit: WITHDRAWAL_PAGE_MAX, cursor });
    for (const w of page.items) csv += CSV_COLUMNS.map((c) => csvCell(w[c] === null ? "" : String(w[c]))).join(",") + CSV_EOL;
    total += page.items.length;
    if (!page.nextCursor) break;
    cursor = page.nextCursor;
  }
  const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, "-");
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="withdrawals-${stamp}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
