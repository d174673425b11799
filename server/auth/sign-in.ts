import "server-only";
import { env } from "@/lib/env";
import { appendAudit } from "@/server/audit";
import type { Db } from "@/server/db";
import { dummyVerify, verifyPassword } from "./passwords";
import { SIGN_IN_FAILED_MESSAGE, getSignInThrottle, type SignInThrottle } from "./throttle";
import { findUserByEmail, isDemoEmail, recordSignIn, seedDemoUsers, type StaffUserRecord } from "./users";

/** Recorded in the audit log's detail only; the person signing in always sees SIGN_IN_FAILED_MESSAGE. */
export type SignInFailureReason =
  | "missing-fields"
  | "throttled"
  | "unknown-email"
  | "no-password"
  | "wrong-password"
  | "disabled"
  | "demo-in-live"
  | "email-unverified";

export type SignInResult =
  | { ok: true; user: StaffUserRecord }
  | { ok: false; reason: SignInFailureReason; message: typeof SIGN_IN_FAILED_MESSAGE };

export type SignInDeps = {
  throttle?: SignInThrottle;
  mode?: "simulator" | "live";
  audit?: typeof appendAudit;
};

const MAX_TYPED = 254;

/**
 * Checks an e-mail and password against staff_users, with throttling, constant-shape failures and an
 * audit row for every outcome. Written fail-closed: if the audit row cannot be written, this throws and
 * the sign-in does not happen.
 */
export async function verifyCredentials(
  db: Db,
  attempt: { email: unknown; password: unknown; ip: string | null },
  deps: SignInDeps = {},
): Promise<SignInResult> {
  const throttle = deps.throttle ?? getSignInThrottle();
  const mode = deps.mode ?? env.mode;
  const audit = deps.audit ?? appendAudit;
  const email = typeof attempt.email === "string" ? attempt.email.trim().toLowerCase().slice(0, MAX_TYPED) : "";
  const password = typeof attempt.password === "string" ? attempt.password : "";
  const { ip } = attempt;

  const fail = async (reason: SignInFailureReason, user?: StaffUserRecord | null): Promise<SignInResult> => {
    if (reason !== "throttled") await throttle.recordFailure(email, ip);
    return refuse(db, reason, user, { email, ip, provider: "credentials", audit });
  };

  if (!email || !password) return fail("missing-fields");
  if (await throttle.isBlocked(email, ip)) return fail("throttled");

  const user = await findUserByEmail(db, email);
  if (!user) {
    await dummyVerify(password);
    return fail("unknown-email");
  }
  if (!user.passwordHash) {
    await dummyVerify(password);
    return fail("no-password", user);
  }
  if (!(await verifyPassword(password, user.passwordHash))) return fail("wrong-password", user);
  // Checked only after a correct password, so these answers cost the same time as a wrong one.
  if (user.disabled) return fail("disabled", user);
  if (mode === "live" && isDemoEmail(user.email)) return fail("demo-in-live", user);

  await throttle.recordSuccess(email);
  return succeed(db, user, { ip, provider: "credentials", audit });
}

/** Single sign-on: the identity provider vouched for the e-mail; only an existing, enabled staff user gets in. */
export async function verifyOidcUser(
  db: Db,
  claims: { email: unknown; emailVerified: unknown },
  deps: Pick<SignInDeps, "mode" | "audit"> = {},
): Promise<SignInResult> {
  const mode = deps.mode ?? env.mode;
  const audit = deps.audit ?? appendAudit;
  const email = typeof claims.email === "string" ? claims.email.trim().toLowerCase().slice(0, MAX_TYPED) : "";
  const fail = (reason: SignInFailureReason, user?: StaffUserRecord | null) =>
    refuse(db, reason, user, { email, ip: null, provider: "oidc", audit });
  if (!email) return fail("missing-fields");
  // An unverified address could be anyone's: refuse rather than match it to a staff row.
  if (claims.emailVerified === false) return fail("email-unverified");
  const user = await findUserByEmail(db, email);
  if (!user) return fail("unknown-email");
  if (user.disabled) return fail("disabled", user);
  if (mode === "live" && isDemoEmail(user.email)) return fail("demo-in-live", user);
  return succeed(db, user, { ip: null, provider: "oidc", audit });
}

type AttemptContext = { ip: string | null; provider: "credentials" | "oidc"; audit: typeof appendAudit };

/** Every failed sign-in gets the same answer; why it failed is written to the audit log only (fail-closed). */
async function refuse(
  db: Db,
  reason: SignInFailureReason,
  user: StaffUserRecord | null | undefined,
  ctx: AttemptContext & { email: string },
): Promise<SignInResult> {
  await ctx.audit(db, {
    actor: ctx.email || "anonymous",
    actorRole: user?.role ?? null,
    action: "auth.sign-in-failed",
    outcome: "failure",
    target: user?.id ?? null,
    params: null,
    detail: { reason, provider: ctx.provider },
    ip: ctx.ip,
  });
  return { ok: false, reason, message: SIGN_IN_FAILED_MESSAGE };
}

async function succeed(db: Db, user: StaffUserRecord, ctx: AttemptContext): Promise<SignInResult> {
  await ctx.audit(db, {
    actor: user.email,
    actorRole: user.role,
    action: "auth.sign-in",
    outcome: "success",
    target: user.id,
    params: null,
    detail: { provider: ctx.provider },
    ip: ctx.ip,
  });
  await recordSignIn(db, user.id);
  return { ok: true, user };
}

// Demo staff are created (simulator) or disabled (live) once per database, before the first sign-in.
const prepared = new WeakMap<Db, Promise<unknown>>();

export function prepareStaffUsers(db: Db, mode: "simulator" | "live" = env.mode): Promise<unknown> {
  let pending = prepared.get(db);
  if (!pending) {
    pending = seedDemoUsers(db, mode);
    prepared.set(db, pending);
    pending.catch(() => prepared.delete(db));
  }
  return pending;
}
