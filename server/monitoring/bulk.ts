import "server-only";
// Bulk assign and bulk close: each case in turn through the same workflow as one case's own route, each between
// its own intent and outcome in the audit log (target case:<id>), so every case's trail shows what was done to
// it. A case that refuses (closed meanwhile, not found) is reported and recorded as a failure; the others go
// on. An audit log that cannot be written stops the run at once (fail-closed): nothing more is changed.
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
  params: Record<string, unknown>,
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
        { ...params, bulk: caseIds.length },
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
  eachCase(db, session, ctx, "monitoring.case-update", input.caseIds, { assignee: input.assignee }, (id) =>
    updateCase(db, id, { assignee: input.assignee }),
  );

export const bulkClose = async (
  db: Db,
  session: StaffSession,
  ctx: Ctx,
  input: { caseIds: readonly string[]; outcome: NonNullable<CaseView["outcome"]>; reason: string },
) =>
  (await refuseOnHold(db, session)) ??
  eachCase(
    db,
    session,
    ctx,
    "monitoring.case-close",
    input.caseIds,
    { outcome: input.outcome, reason: input.reason },
    (id) => closeCase(db, session, id, input),
  );
