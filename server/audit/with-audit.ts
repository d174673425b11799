import "server-only";
// The one intent/outcome pair of an audited action (STYLE rule 7): the intent row is written before the
// action, and if it cannot be, the action does not happen (AuditWriteError, fail-closed); the outcome row
// points at the intent. An outcome that cannot be written is logged, never thrown: the action has happened,
// and hiding its result would be worse than a missing row.
import type { AuditAction } from "@/lib/api/audit/actions";
import type { Db, Queryable } from "@/server/db";
import { failureDetail } from "@/server/failures";
import { logger } from "@/server/log";
import { appendAudit, appendAuditInTransaction } from "./audit-log";

/** Who did what to what, and from where. */
export type AuditSubject = {
  actor: string;
  actorRole?: string | null;
  action: AuditAction;
  target?: string | null;
  requestId?: string | null;
  ip?: string | null;
};

export type AuditTrail = {
  intentId: number;
  /** Writes the outcome row; never throws. */
  close: (outcome: "success" | "failure" | "info", detail: unknown) => Promise<void>;
  /**
   * Writes the outcome row, and throws (AuditWriteError) when it cannot: for an outcome that must exist before
   * what it records may go on (an export's seal, before the file's last bytes leave).
   */
  closeOrThrow: (outcome: "success" | "failure" | "info", detail: unknown) => Promise<void>;
};

const g = globalThis as typeof globalThis & { __brokerdeskIntentsOpenHere?: Set<number> };
const openHere = (g.__brokerdeskIntentsOpenHere ??= new Set<number>());

/**
 * The intents this process opened and has not tried to close yet. One that is open in the database but not
 * here lost its outcome (the database was unreachable when it was written): the recovery closes it.
 */
export const intentsOpenHere = (): ReadonlySet<number> => openHere;

/**
 * Writes the intent row: in its own transaction, or in `tx` so that it commits together with the caller's
 * own write (a withdrawal's claim). Throws AuditWriteError when it cannot.
 */
export async function openAudit(db: Db, subject: AuditSubject, params: unknown, tx?: Queryable): Promise<AuditTrail> {
  const base = {
    ...subject,
    target: subject.target ?? null,
    requestId: subject.requestId ?? null,
    ip: subject.ip ?? null,
  };
  const intent = tx
    ? await appendAuditInTransaction(tx, { ...base, outcome: "intent", params })
    : await appendAudit(db, { ...base, outcome: "intent", params });
  openHere.add(intent.id);
  const write = (outcome: "success" | "failure" | "info", detail: unknown) =>
    appendAudit(db, { ...base, outcome, intentId: intent.id, detail });
  return {
    intentId: intent.id,
    // On a failure the intent stays open here: the caller then closes it as a failure (`close`).
    closeOrThrow: (outcome, detail) => write(outcome, detail).then(() => void openHere.delete(intent.id)),
    close: (outcome, detail) =>
      write(outcome, detail)
        .then(
          () => undefined,
          (e: unknown) =>
            logger.error(
              { err: String(e), action: subject.action, requestId: subject.requestId, intentId: intent.id },
              "audit outcome could not be written",
            ),
        )
        .finally(() => openHere.delete(intent.id)),
  };
}

/**
 * Runs `work` between an intent row and its outcome row: success with `detail(result)`, failure with what
 * went wrong (the error's kind and the platform's code and message), then the error is thrown on.
 */
export async function withAudit<T>(
  db: Db,
  subject: AuditSubject,
  params: unknown,
  work: (intentId: number) => Promise<T>,
  detail: (result: T) => unknown = (result) => result,
): Promise<T> {
  const trail = await openAudit(db, subject, params);
  let result: T;
  try {
    result = await work(trail.intentId);
  } catch (e) {
    await trail.close("failure", failureDetail(e));
    throw e;
  }
  await trail.close("success", detail(result));
  return result;
}
