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
 * Intent and outcome rows for a change to one staff user. Done here rather than through apiRoute's
 * `audit` option because the target is the user id from the path, which that option cannot see, and
 * because disabling is its own action.
 */
async function audited<I, T>(ctx: Ctx<I>, action: AuditAction, work: () => Promise<T>): Promise<T> {
  const base = { actor: ctx.session.email, actorRole: ctx.session.role, target: ctx.params.id ?? null, requestId: ctx.requestId, ip: ctx.ip };
  // Fail-closed: no intent row, no change.
  const intent = await appendAudit(ctx.db, { ...base, action, outcome: "intent", params: ctx.input });
  try {
    const result = await asHttp(work);
    await appendAudit(ctx.db, { ...base, action, outcome: "success", intentId: intent.id });
    return result;
  } catch (e) {
    const detail = e instanceof HttpError ? { status: e.status, code: e.code, message: e.message } : { error: e instanceof Error ? e.name : String(e) };
    await appendAudit(ctx.db, { ...base, action, outcome: "failure", intentId: intent.id, detail }).catch((ae: unknown) =>
      logger.error({ err: String(ae), requestId: ctx.requestId }, "audit outcome write failed"),
    );
    throw e;
  }
}

export const listStaff = ({ db }: { db: Db }): Promise<{ users: StaffUser[] }> => asHttp(async () => ({ users: await listUsers(db) }));

export const createStaff = ({ db, input }: { db: Db; input: CreateUserInput }): Promise<{ user: StaffUser }> =>
  asHttp(async () => ({ user: await createUser(db, input) }));

export const updateStaff = (ctx: Ctx<UpdateUserInput>): Promise<{ user: StaffUser }> =>
  audited(ctx, ctx.input.disabled === true ? "users.disable" : "users.update", async () => ({
    user: await updateUser(ctx.db, ctx.params.id ?? "", ctx.input, { actorId: ctx.session.userId }),
  }));

export const resetStaffPassword = (ctx: Ctx<{ password: string }>): Promise<{ user: StaffUser }> =>
  audited(ctx, "users.reset-password", async () => ({ user: await resetPassword(ctx.db, ctx.params.id ?? "", ctx.input.password) }));
