import "server-only";
import { z } from "zod";
import type { Db, Queryable } from "@/server/db";
import { thisInstance } from "@/server/db/instance-lease";
import { logger } from "@/server/log";
import { AUDIT_ACTIONS, AUDIT_OUTCOMES, type AuditAction, type AuditOutcome } from "@/lib/api/audit/actions";
import {
  AUDIT_GENESIS_HASH,
  hashAuditRow,
  toStorableJson,
  toStorableText,
  type HashedAuditFields,
  type Json,
} from "./hash";
import { redact } from "./redact";

export type AuditInput = {
  actor: string;
  actorRole?: string | null;
  action: AuditAction;
  outcome: AuditOutcome;
  target?: string | null;
  params?: unknown;
  detail?: unknown;
  requestId?: string | null;
  ip?: string | null;
  intentId?: number | null;
};

/** A stored row: the fields its hash covers (./hash), its time as a Date, and the hash. */
export type AuditRow = Omit<HashedAuditFields, "at" | "outcome"> & { at: Date; outcome: AuditOutcome; hash: string };

/**
 * The audit row could not be written. Fail-closed: a caller that gets this must not go on to call the
 * platform (or complete the action it was about to record).
 */
export class AuditWriteError extends Error {
  readonly code = "AUDIT_WRITE_FAILED";
  constructor(message: string, cause?: unknown) {
    super(message, { cause });
    this.name = "AuditWriteError";
  }
}

/** The longest value each text column keeps; a longer one is cut with a marker (toStorableText). */
export const AUDIT_TEXT_MAX = { actor: 320, actorRole: 64, target: 512, requestId: 128, ip: 128 } as const;

/** A text field made storable; anything else is left for the schema to refuse. */
const storable = (max: number) => (v: unknown) => (typeof v === "string" ? toStorableText(v, max) : v);

const inputSchema = z.object({
  actor: z.preprocess(storable(AUDIT_TEXT_MAX.actor), z.string().min(1)),
  actorRole: z.preprocess(storable(AUDIT_TEXT_MAX.actorRole), z.string().nullish()),
  action: AUDIT_ACTIONS,
  outcome: AUDIT_OUTCOMES,
  // What callers put here comes from the request (a path, a path parameter): bounded and cleaned, never
  // refused, so a refusal of a hostile request is still recorded.
  target: z.preprocess(storable(AUDIT_TEXT_MAX.target), z.string().nullish()),
  params: z.unknown().optional(),
  detail: z.unknown().optional(),
  requestId: z.preprocess(storable(AUDIT_TEXT_MAX.requestId), z.string().nullish()),
  ip: z.preprocess(storable(AUDIT_TEXT_MAX.ip), z.string().nullish()),
  intentId: z.number().int().positive().nullish(),
});

type Prepared = Omit<HashedAuditFields, "id" | "at" | "prevHash">;

function prepare(entry: AuditInput): Prepared {
  const parsed = inputSchema.safeParse(entry);
  if (!parsed.success) {
    const where = parsed.error.issues.map((i) => `${i.path.join(".") || "entry"}: ${i.message}`).join("; ");
    throw new AuditWriteError(`invalid audit entry (${where})`, parsed.error);
  }
  const e = parsed.data;
  try {
    return {
      actor: e.actor,
      actorRole: e.actorRole ?? null,
      action: e.action,
      outcome: e.outcome,
      target: e.target ?? null,
      params: toStorableJson(redact(e.params)),
      detail: toStorableJson(redact(e.detail)),
      requestId: e.requestId ?? null,
      ip: e.ip ?? null,
      intentId: e.intentId ?? null,
    };
  } catch (err) {
    throw new AuditWriteError("audit entry could not be serialised", err);
  }
}

const jsonParam = (v: Json) => (v === null ? null : JSON.stringify(v));

async function insertLinked(tx: Queryable, row: Prepared): Promise<{ id: number; hash: string }> {
  // The head row lock serialises every append in the database itself: across pool connections and across
  // app instances sharing one PostgreSQL, each append sees the previous one's id and hash. The timestamp
  // comes from the database clock, so instances with skewed clocks still write a time-ordered chain.
  const head = await tx.query<{ last_id: number; last_hash: string; now: Date }>(
    `SELECT last_id, last_hash, date_trunc('milliseconds', clock_timestamp()) AS now
       FROM audit_head WHERE id = 1 FOR UPDATE`,
  );
  const h = head.rows[0];
  if (!h) throw new AuditWriteError("audit_head row is missing");
  const id = Number(h.last_id) + 1;
  const fields: HashedAuditFields = { ...row, id, at: new Date(h.now).toISOString(), prevHash: h.last_hash };
  const hash = hashAuditRow(fields);
  await tx.query(
    `INSERT INTO audit_log (id, at, actor, actor_role, action, outcome, target, params, detail, request_id, ip,
       intent_id, prev_hash, hash)
     VALUES ($1, $2::timestamptz, $3, $4, $5, $6, $7, $8::text::jsonb, $9::text::jsonb, $10, $11, $12, $13, $14)`,
    [
      id,
      fields.at,
      row.actor,
      row.actorRole,
      row.action,
      row.outcome,
      row.target,
      jsonParam(row.params),
      jsonParam(row.detail),
      row.requestId,
      row.ip,
      row.intentId,
      fields.prevHash,
      hash,
    ],
  );
  await tx.query("UPDATE audit_head SET last_id = $1, last_hash = $2 WHERE id = 1", [id, hash]);
  // Which process holds each intent until its outcome is written: if it dies first, the recovery closes the
  // intent (server/workflows/instance-recovery.ts).
  if (row.outcome === "intent")
    await tx.query("INSERT INTO audit_open_intents (intent_id, instance_id) VALUES ($1, $2)", [id, thisInstance().id]);
  else if (row.intentId !== null) await tx.query("DELETE FROM audit_open_intents WHERE intent_id = $1", [row.intentId]);
  return { id, hash };
}

function fail(entry: AuditInput, e: unknown): never {
  if (e instanceof AuditWriteError) throw e;
  logger.error({ err: e, action: entry.action, outcome: entry.outcome }, "audit write failed");
  throw new AuditWriteError(`audit write failed: ${e instanceof Error ? e.message : String(e)}`, e);
}

/**
 * Appends one row in its own transaction. Throws AuditWriteError on any failure (fail-closed). params and
 * detail are redacted before they are stored.
 */
export async function appendAudit(db: Db, entry: AuditInput): Promise<{ id: number; hash: string }> {
  try {
    const row = prepare(entry);
    return await db.transaction((tx) => insertLinked(tx, row));
  } catch (e) {
    fail(entry, e);
  }
}

/**
 * Appends inside a transaction the caller already holds (db.transaction's tx), so a business write and
 * its audit row commit or roll back together. Same checks and errors as appendAudit.
 */
export async function appendAuditInTransaction(
  tx: Queryable,
  entry: AuditInput,
): Promise<{ id: number; hash: string }> {
  try {
    return await insertLinked(tx, prepare(entry));
  } catch (e) {
    fail(entry, e);
  }
}

/**
 * Appends several rows in order inside the caller's transaction, as appendAuditInTransaction would one by one: the
 * head is locked once, each row hashed on the one before, and the open intents kept in one statement (a rollout's
 * workers' intents or outcomes, written together). Same checks and errors.
 */
export async function appendAuditBatchInTransaction(
  tx: Queryable,
  entries: readonly AuditInput[],
): Promise<{ id: number; hash: string }[]> {
  if (!entries.length) return [];
  let rows: Prepared[];
  try {
    rows = entries.map(prepare);
  } catch (e) {
    fail(entries[0]!, e);
  }
  try {
    const head = await tx.query<{ last_id: number; last_hash: string; now: Date }>(
      `SELECT last_id, last_hash, date_trunc('milliseconds', clock_timestamp()) AS now
         FROM audit_head WHERE id = 1 FOR UPDATE`,
    );
    const h = head.rows[0];
    if (!h) throw new AuditWriteError("audit_head row is missing");
    const at = new Date(h.now).toISOString();
    let id = Number(h.last_id);
    let prevHash = h.last_hash;
    const out = rows.map((row) => {
      id++;
      const hash = hashAuditRow({ ...row, id, at, prevHash });
      const linked = { row, id, prevHash, hash };
      prevHash = hash;
      return linked;
    });
    // The chain's triggers hold the head to one row at a time: each row, then the head moved onto it.
    for (const l of out) {
      await tx.query(
        `INSERT INTO audit_log (id, at, actor, actor_role, action, outcome, target, params, detail, request_id, ip,
           intent_id, prev_hash, hash)
         VALUES ($1, $2::timestamptz, $3, $4, $5, $6, $7, $8::text::jsonb, $9::text::jsonb, $10, $11, $12, $13, $14)`,
        [
          l.id,
          at,
          l.row.actor,
          l.row.actorRole,
          l.row.action,
          l.row.outcome,
          l.row.target,
          jsonParam(l.row.params),
          jsonParam(l.row.detail),
          l.row.requestId,
          l.row.ip,
          l.row.intentId,
          l.prevHash,
          l.hash,
        ],
      );
      await tx.query("UPDATE audit_head SET last_id = $1, last_hash = $2 WHERE id = 1", [l.id, l.hash]);
    }
    const opened = out.filter((l) => l.row.outcome === "intent").map((l) => l.id);
    const closed = out.flatMap((l) => (l.row.outcome !== "intent" && l.row.intentId !== null ? [l.row.intentId] : []));
    if (opened.length)
      await tx.query(
        "INSERT INTO audit_open_intents (intent_id, instance_id) SELECT i, $2 FROM unnest($1::bigint[]) AS i",
        [opened, thisInstance().id],
      );
    if (closed.length) await tx.query("DELETE FROM audit_open_intents WHERE intent_id = ANY($1::bigint[])", [closed]);
    return out.map((l) => ({ id: l.id, hash: l.hash }));
  } catch (e) {
    fail(entries[0]!, e);
  }
}

export type DbAuditRow = {
  id: number;
  at: Date;
  actor: string;
  actor_role: string | null;
  action: string;
  outcome: AuditOutcome;
  target: string | null;
  params: Json;
  detail: Json;
  request_id: string | null;
  ip: string | null;
  intent_id: number | null;
  prev_hash: string;
  hash: string;
};

/** The columns of a DbAuditRow, in order (the readers' select: audit-query.ts). */
export const AUDIT_COLUMNS =
  "id, at, actor, actor_role, action, outcome, target, params, detail, request_id, ip, intent_id, prev_hash, hash";

/** A stored row as the log's readers and checkers use it. */
export function toRow(r: DbAuditRow): AuditRow {
  return {
    id: Number(r.id),
    at: new Date(r.at),
    actor: r.actor,
    actorRole: r.actor_role,
    action: r.action,
    outcome: r.outcome,
    target: r.target,
    params: r.params ?? null,
    detail: r.detail ?? null,
    requestId: r.request_id,
    ip: r.ip,
    intentId: r.intent_id === null ? null : Number(r.intent_id),
    prevHash: r.prev_hash,
    hash: r.hash,
  };
}

export type AuditChainResult =
  { ok: true; rows: number } | { ok: false; rows: number; brokenAt: number; reason: string };

const VERIFY_BATCH = 1000;

/**
 * Walks the chain by id from the first row and reports the first broken link: a missing id (deleted row),
 * a prev_hash that is not the previous row's hash, or content that no longer matches its own hash (edited
 * row). `rows` counts the rows verified before the break. Rows appended while this runs are not checked.
 */
export async function verifyAuditChain(db: Db): Promise<AuditChainResult> {
  // The head is read first: every row up to head.last_id was committed with it, so the walk below sees a
  // complete chain however many appends happen meanwhile, without holding a long transaction.
  const head = (
    await db.query<{ last_id: number; last_hash: string }>("SELECT last_id, last_hash FROM audit_head WHERE id = 1")
  ).rows[0];
  if (!head) return { ok: false, rows: 0, brokenAt: 0, reason: "audit_head row is missing" };
  const lastId = Number(head.last_id);

  let expected = 1;
  let prevHash = AUDIT_GENESIS_HASH;
  let verified = 0;
  for (;;) {
    const batch = await db.query<DbAuditRow>(
      `SELECT ${AUDIT_COLUMNS} FROM audit_log WHERE id >= $1 AND id <= $2 ORDER BY id LIMIT ${VERIFY_BATCH}`,
      [expected, lastId],
    );
    for (const raw of batch.rows) {
      const row = toRow(raw);
      if (row.id !== expected) {
        const missing =
          row.id - expected === 1 ? `row ${expected} is missing` : `rows ${expected}..${row.id - 1} are missing`;
        return {
          ok: false,
          rows: verified,
          brokenAt: expected,
          reason: `${missing} (deleted): the next row is ${row.id}`,
        };
      }
      if (row.prevHash !== prevHash) {
        const before = expected === 1 ? "the genesis value" : `row ${expected - 1}'s hash`;
        return {
          ok: false,
          rows: verified,
          brokenAt: row.id,
          reason: `prev_hash is not ${before} (a row before it was changed or replaced)`,
        };
      }
      const recomputed = hashAuditRow({ ...row, at: row.at.toISOString() });
      if (recomputed !== row.hash) {
        return { ok: false, rows: verified, brokenAt: row.id, reason: "content does not match its hash (row edited)" };
      }
      prevHash = row.hash;
      expected++;
      verified++;
    }
    if (batch.rows.length < VERIFY_BATCH) break;
  }
  if (expected - 1 !== lastId) {
    const missing = expected === lastId ? `row ${expected} is missing` : `rows ${expected}..${lastId} are missing`;
    return {
      ok: false,
      rows: verified,
      brokenAt: expected,
      reason: `${missing} (deleted): the chain head records ${lastId} rows`,
    };
  }
  if (prevHash !== head.last_hash) {
    return { ok: false, rows: verified, brokenAt: lastId, reason: "the last row's hash differs from the chain head's" };
  }
  return { ok: true, rows: verified };
}
