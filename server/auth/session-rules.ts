import "server-only";
import { isRole, type Role } from "@/lib/rbac";
import type { SessionRefusal } from "./errors";
import { mfaRequiredFor, mfaStateOf, type MfaMethod, type MfaSession } from "./mfa/policy";

/** What Brokerdesk keeps in the signed, encrypted session token (next-auth JWT). Times in ms since epoch. */
export type StaffClaims = {
  uid: string;
  email: string;
  name: string | null;
  role: Role;
  /** staff_users.session_version when the token was issued. */
  sv: number;
  /** When the user signed in: the absolute lifetime counts from here. */
  authAt: number;
  /** The last request that carried this token: the idle timeout counts from here. */
  seenAt: number;
  /** The token's id: signing out records it in revoked_sessions, which every instance checks. */
  jti: string;
  /**
   * When a second factor was last verified in this session (only the server sets it), or null: "factor pending" while
   * the account has factors.
   */
  mfaAt: number | null;
  mfaMethod: MfaMethod | null;
  /** The account has a confirmed factor: read from the staff row on every request, never trusted from an old token. */
  mfaEnrolled: boolean;
  /** An admin's reset of this account's factors that the user was told of at this sign-in (ISO time), or null. */
  mfaResetAt: string | null;
  /** Read from the staff row on every request: the password an admin reset must be changed first. */
  mustChangePassword: boolean;
};

const MFA_METHODS: readonly MfaMethod[] = ["totp", "passkey", "recovery", "idp"];

/** How far ahead of this server's clock a token's times may be (another instance's clock): beyond it, refused. */
export const CLOCK_SKEW_MS = 60_000;

export type SessionLimits = { idleMs: number; maxAgeMs: number };

export function parseStaffClaims(token: Record<string, unknown>): StaffClaims | null {
  const {
    uid,
    email,
    name,
    role,
    sv,
    authAt,
    seenAt,
    jti,
    mfaAt,
    mfaMethod,
    mfaEnrolled,
    mfaResetAt,
    mustChangePassword,
  } = token;
  if (typeof uid !== "string" || typeof email !== "string" || !isRole(role)) return null;
  if (typeof jti !== "string" || jti.length < 16 || jti.length > 64) return null;
  if (!Number.isInteger(sv) || !Number.isFinite(authAt) || !Number.isFinite(seenAt)) return null;
  // A token from before second factors has none of these: it reads as "no factor verified yet".
  if (mfaAt !== undefined && mfaAt !== null && !Number.isFinite(mfaAt)) return null;
  return {
    uid,
    email,
    name: typeof name === "string" ? name : null,
    role,
    sv: sv as number,
    authAt: authAt as number,
    seenAt: seenAt as number,
    jti,
    mfaAt: typeof mfaAt === "number" ? mfaAt : null,
    mfaMethod: MFA_METHODS.includes(mfaMethod as MfaMethod) ? (mfaMethod as MfaMethod) : null,
    mfaEnrolled: mfaEnrolled === true,
    mfaResetAt: typeof mfaResetAt === "string" ? mfaResetAt : null,
    mustChangePassword: mustChangePassword === true,
  };
}

/** The session's second-factor state from its claims and the roles that must have a factor. */
export function mfaSessionOf(claims: StaffClaims, requiredRoles: readonly Role[]): MfaSession {
  const required = mfaRequiredFor(claims.role, requiredRoles);
  return {
    state: mfaStateOf({ mfaAt: claims.mfaAt, enrolled: claims.mfaEnrolled, required }),
    at: claims.mfaAt,
    method: claims.mfaMethod,
    enrolled: claims.mfaEnrolled,
    required,
  };
}

/** Idle and absolute expiry; null while the token is still good at `now`. */
export function tokenExpiry(
  claims: Pick<StaffClaims, "authAt" | "seenAt">,
  now: number,
  limits: SessionLimits,
): SessionRefusal | null {
  // A time ahead of the clock would stretch both limits (a token "seen" tomorrow never goes idle today).
  if (claims.authAt > now + CLOCK_SKEW_MS || claims.seenAt > now + CLOCK_SKEW_MS || claims.seenAt < claims.authAt)
    return "clock-skew";
  if (now - claims.authAt > limits.maxAgeMs) return "absolute-timeout";
  if (now - claims.seenAt > limits.idleMs) return "idle-timeout";
  return null;
}

/**
 * The user row behind a token must still exist, be enabled and carry the same session_version:
 * disabling, a role change or a password reset bumps the version, so older tokens stop at once.
 */
export function checkSessionUser(
  user: { disabled: boolean; sessionVersion: number; signedOut?: boolean } | null,
  tokenSv: number,
): SessionRefusal | null {
  if (!user) return "user-missing";
  if (user.signedOut) return "signed-out";
  if (user.disabled) return "user-disabled";
  if (user.sessionVersion !== tokenSv) return "session-revoked";
  return null;
}
