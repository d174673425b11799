import "server-only";
// Bulk assign and bulk close: each case in turn through the same workflow as one case's own route, each between
// its own intent and outcome in the audit log (target case:<id>), so every case's trail shows what was done to
// it. A case that refuses (closed meanwhile, not found, an alert joined since the list was read) is reported
// and recorded as a failure; the others go on. An audit log that cannot be written stops the run at once
// (fail-closed): nothing more is changed.
import type { BulkResult } from "@/lib/api/monitoring/bulk";
import type { CaseView } from "@/lib/api/monitoring";
import { DomainError } from "@/lib/api/errors";
import { withAudit, type AuditSubject } from "@/server/audit";
import type { StaffSession } from "@/server/auth/session";
import type { Db } from "@/server/db";
import { closeCase, updateCase } from "./case";
import { refuseOnHold } from "@/server/workflows/approval-gate";

type Ctx = { requestId?: string | null; ip?: string | null };

async function eachCase(
  db: Db,
  session: StaffSession,
  ctx: Ctx,
  action: AuditSubject["action"],
  caseIds: readonly string[],
  paramsOf: (id: string) => Record<string, unknown>,
  work: (id: string) => Promise<CaseView>,
): Promise<BulkResult> {
  const results: BulkResult["results"] = [];
  for (const caseId of caseIds) {
    const subject = {
      actor: session.email,
      actorRole: session.role,
      action,
      target: `case:${caseId}`,
      requestId: ctx.requestId ?? null,
      ip: ctx.ip ?? null,
    };
    try {
      await withAudit(
        db,
        subject,
        { ...paramsOf(caseId), bulk: caseIds.length },
        () => work(caseId),
        (c) => ({
          status: c.status,
          assignee: c.assignee,
          outcome: c.outcome,
        }),
      );
      results.push({ caseId, ok: true });
    } catch (e) {
      if (!(e instanceof DomainError)) throw e;
      results.push({ caseId, ok: false, code: e.code, message: e.message });
    }
  }
  return { results };
}

export const bulkAssign = (
  db: Db,
  session: StaffSession,
  ctx: Ctx,
  input: { caseIds: readonly string[]; assignee: string | null },
) =>
  eachCase(
    db,
    session,
    ctx,
    "monitoring.case-update",
    input.caseIds,
    () => ({ assignee: input.assignee }),
    (id) => updateCase(db, id, { assignee: input.assignee }),
  );

/**
 * Each case closed as of the version the list showed it at (its intent records that version): a case that has
 * gathered an alert since is refused (`case_changed`, naming the alert) and left open, the others are closed.
 */
export async function bulkClose(
  db: Db,
  session: StaffSession,
  ctx: Ctx,
  input: {
    cases: readonly { caseId: string; version: number }[];
    outcome: NonNullable<CaseView["outcome"]>;
    reason: string;
  },
): Promise<BulkResult> {
  // The decider's standing once for the run (each case's closeCase checks it again, under its own audit entry).
  await refuseOnHold(db, session);
  const seen = new Map(input.cases.map((c) => [c.caseId, c.version]));
  return eachCase(
    db,
    session,
    ctx,
    "monitoring.case-close",
    [...seen.keys()],
    (id) => ({ outcome: input.outcome, reason: input.reason, version: seen.get(id) }),
    (id) => closeCase(db, session, id, { outcome: input.outcome, reason: input.reason, version: seen.get(id)! }),
  );
}
