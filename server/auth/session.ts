import "server-only";
import type { JWT } from "next-auth/jwt";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { env } from "@/lib/env";
import { can, isRole, type Permission, type Role } from "@/lib/rbac";
import { logger } from "@/server/log";
import { REQUEST_PATH_HEADER } from "@/lib/security-headers";
import { safeCallbackPath } from "./callback-path";
import { PermissionDeniedError, SessionRefusedError } from "./errors";
import { authOptions, createSessionCheck } from "./options";
import type { MfaSession } from "./mfa/policy";
import { mfaSessionOf, parseStaffClaims } from "./session-rules";
import { decodeSessionJwt, sessionCookieName, sessionTokenFrom } from "./session-token";

export type StaffSession = {
  userId: string;
  email: string;
  name: string | null;
  role: Role;
  /**
   * The second factor's state of this session (always set by getSessionState; absent = unknown, refused by the
   * fresh-factor rule).
   */
  mfa?: MfaSession;
  /** An admin's reset of this account's factors, told at this sign-in (ISO time). */
  mfaResetAt?: string | null;
  /** The password an admin reset is still the one in use: only /account (to change it) until it is changed. */
  mustChangePassword?: boolean;
};

/** Where a session that must change its password is sent, and the one route it may call. */
export const CHANGE_PASSWORD_PATH = "/account";

/**
 * The signed-in staff member, or null. What next-auth's getServerSession did for this, without the parts
 * whose result was thrown away: it decodes the session cookie (server/auth/session-token.ts: next-auth's
 * decode, key derived once), then runs the same check as the jwt callback (createSessionCheck in
 * server/auth/options.ts), which refuses an idle or too-old token and loads the staff row: missing,
 * disabled or a changed session_version (disable, role change, password reset) all end the session at
 * this request. getServerSession also re-encrypted the token on every call, but a server component or
 * route handler cannot set cookies through it, so that new token was never sent; the cookie's seenAt is
 * moved by /api/auth/session (components/auth/session-activity.tsx) as before.
 * cache(): a layout and its page asking in the same render cost one check.
 */
export const getSessionState = cache(async (): Promise<StaffSession | null> => {
  const token = sessionTokenFrom((await cookies()).getAll(), cookieName);
  if (!token) return null;
  let decoded: JWT | null;
  try {
    decoded = await decodeSessionJwt({ token, secret: env.nextAuthSecret });
  } catch (e) {
    // A token that does not decrypt or has expired: signed out, as next-auth answers (JWT_SESSION_ERROR).
    logger.info({ err: e instanceof Error ? e.name : String(e) }, "session token not accepted");
    return null;
  }
  if (!decoded) return null;
  try {
    // As the session callback maps it: e-mail, name and role as the staff row has them now.
    const claims = parseStaffClaims(await checkSession(decoded));
    const session =
      claims && toStaffSession({ user: { id: claims.uid, email: claims.email, name: claims.name, role: claims.role } });
    return session && claims
      ? {
          ...session,
          mfa: mfaSessionOf(claims, env.mfa.requiredRoles),
          mfaResetAt: claims.mfaResetAt,
          mustChangePassword: claims.mustChangePassword,
        }
      : null;
  } catch (e) {
    if (e instanceof SessionRefusedError) {
      logger.info({ reason: e.reason }, "session refused");
    } else {
      // As under getServerSession, a failing check (e.g. the database) leaves the request signed out.
      logger.error(
        { err: e instanceof Error ? { name: e.name, message: e.message } : String(e) },
        "session check failed",
      );
    }
    return null;
  }
});

/**
 * The signed-in staff member who has passed the second factor (or needs none), or null. A session still
 * waiting for its factor ("verify") or for its first enrolment ("enrol") is not signed in here: only the
 * factor step's own pages and routes read it, through getSessionState.
 */
export async function getStaffSession(): Promise<StaffSession | null> {
  const session = await getSessionState();
  return session?.mfa?.state === "ok" ? session : null;
}

const cookieName = sessionCookieName(authOptions.useSecureCookies ?? false);
const checkSession = createSessionCheck();

export function toStaffSession(session: unknown): StaffSession | null {
  if (!session || typeof session !== "object" || !("user" in session)) return null;
  const user = (session as { user: unknown }).user;
  if (!user || typeof user !== "object") return null;
  const { id, email, name, role } = user as Record<string, unknown>;
  if (typeof id !== "string" || typeof email !== "string" || !isRole(role)) return null;
  return { userId: id, email, name: typeof name === "string" ? name : null, role };
}

export function requirePermission(
  session: StaffSession | null,
  permission: Permission,
): asserts session is StaffSession {
  if (!session || !can(session.role, permission)) throw new PermissionDeniedError(session?.role ?? null, permission);
}

/**
 * For server pages: the session, or a redirect that comes back to the page asked for, path and query (a
 * deep link such as /deposits?uid=…&range=90d survives sign-in): to the sign-in page, or to the factor step
 * when the password was right but the second factor is still to come (or to be enrolled). proxy.ts writes
 * the page asked for into x-brokerdesk-path, overwriting anything a client sent under the name; `fallback`
 * is for a request that did not pass through it.
 */
export async function requireStaffSession(fallback = "/"): Promise<StaffSession> {
  const session = await getSessionState();
  const back = async () => encodeURIComponent(safeCallbackPath((await headers()).get(REQUEST_PATH_HEADER) ?? fallback));
  if (!session) redirect(`/login?callbackUrl=${await back()}`);
  if (session.mfa?.state === "verify") redirect(`/login/factor?callbackUrl=${await back()}`);
  if (session.mfa?.state === "enrol") redirect(`/login/enrol?callbackUrl=${await back()}`);
  if (
    session.mustChangePassword &&
    !((await headers()).get(REQUEST_PATH_HEADER) ?? fallback).startsWith(CHANGE_PASSWORD_PATH)
  ) {
    redirect(`${CHANGE_PASSWORD_PATH}?must-change-password=1`);
  }
  return session;
}
