import "server-only";
import { appendAudit, type AuditAction } from "@/server/audit";
import type { Db } from "@/server/db";
import { HttpError } from "@/server/http/errors";
import { logger } from "@/server/log";
import { StaffUserError } from "./errors";
import type { StaffSession } from "./session";
import { createUser, listUsers, resetPassword, updateUser, type CreateUserInput, type StaffUser, type UpdateUserInput } from "./users";

// Handlers behind app/api/admin/users/** (the route files stay one-liners over apiRoute). Domain errors
// become HttpError here, once, so the wrapper's single error mapping sends them.

type Ctx<I> = { db: Db; input: I; params: Record<string, string>; session: StaffSession; requestId: string; ip: string | null };

async function asHttp<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof StaffUserError) throw new HttpError(e.status, e.code, e.message, e.fieldErrors);
    throw e;
  }
}

/**
 * Intent and outcome rows for a change to staff users. Done here rather than through apiRoute's
 * `audit` option because the target of an update is the user id from the path, which that option cannot
 * see, and disabling is its own action; creation goes the same way so all of them read alike.
 */
async function audited<I, T>(ctx: Ctx<I>, action: AuditAction, target: string | null, work: () => Promise<T>): Promise<T> {
  const base = { actor: ctx.session.email, actorRole: ctx.session.role, target, requestId: ctx.requestId, ip: ctx.ip };
  // Fail-closed: no intent row, no change.
  const intent = await appendAudit(ctx.db, { ...base, action, outcome: "intent", params: ctx.input, detail: null });
  try {
    const result = await asHttp(work);
    await appendAudit(ctx.db, { ...base, action, outcome: "success", intentId: intent.id, params: null, detail: null });
    return result;
  } catch (e) {
    const detail = e instanceof HttpError ? { status: e.status, code: e.code, message: e.message } : { error: e instanceof Error ? e.name : String(e) };
    await appendAudit(ctx.db, { ...base, action, outcome: "failure", intentId: intent.id, params: null, detail }).catch((ae: unknown) =>
      logger.error({ err: String(ae), requestId: ctx.requestId }, "audit outcome write failed"),
    );
    throw e;
  }
}

export const listStaff = ({ db }: { db: Db }): Promise<{ users: StaffUser[] }> => asHttp(async () => ({ users: await listUsers(db) }));

export const createStaff = (ctx: Ctx<CreateUserInput>): Promise<{ user: StaffUser }> =>
  audited(ctx, "users.create", ctx.input.email, async () => ({ user: await createUser(ctx.db, ctx.input) }));

export const updateStaff = (ctx: Ctx<UpdateUserInput>): Promise<{ user: StaffUser }> =>
  audited(ctx, ctx.input.disabled === true ? "users.disable" : "users.update", ctx.params.id ?? null, async () => ({
    user: await updateUser(ctx.db, ctx.params.id ?? "", ctx.input, { actorId: ctx.session.userId }),
  }));

export const resetStaffPassword = (ctx: Ctx<{ password: string }>): Promise<{ user: StaffUser }> =>
  audited(ctx, "users.reset-password", ctx.params.id ?? null, async () => ({ user: await resetPassword(ctx.db, ctx.params.id ?? "", ctx.input.password) }));
