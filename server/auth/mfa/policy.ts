import "server-only";
// The second factor's rules, pure (no database, no clock of their own), shared by the session check, the
// route wrapper and the pages:
// - a session whose account has factors is "verify" (factor pending) until one is verified in it;
// - a session whose role must have a factor and whose account has none is "enrol" until it enrols one;
// - otherwise it is "ok". Only "ok" sessions reach pages and routes (except the MFA step's own).
// - sensitive actions need a factor verified within the last MFA_FRESH_SECONDS, when the account has one.
import { DomainError } from "@/lib/api/errors";
import type { FactorStep } from "@/lib/api/define-resource";
import type { Role } from "@/lib/rbac";

export type MfaState = "ok" | "verify" | "enrol";
export type MfaMethod = "totp" | "passkey" | "recovery" | "idp";

/** What a request knows of the session's second factor. */
export type MfaSession = {
  state: MfaState;
  /** When a factor was last verified in this session (ms), or null. */
  at: number | null;
  method: MfaMethod | null;
  /** The account has at least one confirmed factor (read from the database on every request). */
  enrolled: boolean;
  /** The account's role must have a factor (MFA_REQUIRED_ROLES). */
  required: boolean;
};

export function mfaRequiredFor(role: Role, requiredRoles: readonly Role[]): boolean {
  return requiredRoles.includes(role);
}

/** The state of a session from its token's mfaAt and the account's factors now. */
export function mfaStateOf(t: { mfaAt: number | null; enrolled: boolean; required: boolean }): MfaState {
  if (t.mfaAt !== null) return "ok";
  if (t.enrolled) return "verify";
  if (t.required) return "enrol";
  return "ok";
}

export type { FactorStep };

/** Which states may call a route: every route takes "ok"; the factor step's routes also take theirs. */
export function stateAllows(state: MfaState, step: FactorStep | undefined): boolean {
  if (state === "ok") return true;
  if (step === "verify") return true;
  // Enrolment routes: a session waiting to enrol, never one waiting to verify (a password alone must not add a factor).
  return step === "enrol" && state === "enrol";
}

export const MFA_REQUIRED_MESSAGE = "Verify your second factor first";
export const MFA_ENROL_MESSAGE = "Your role must have a second factor: add one first";

/** The refusal of a session that has not passed the factor step. */
export function mfaRequiredError(state: Exclude<MfaState, "ok">): DomainError {
  return new DomainError("mfa_required", state === "enrol" ? MFA_ENROL_MESSAGE : MFA_REQUIRED_MESSAGE);
}

/**
 * Approving a withdrawal, changing a role or a password, changing one's factors: an account with a factor
 * must have verified one within `maxAgeMs`, or the answer is 401 mfa_stale (the browser asks for a factor
 * and retries). An account without factors is let through as before, unless its role must have one: then
 * it may not do this at all until it enrols. A session with no MFA information is refused (fail closed).
 */
export function requireFreshFactor(
  session: { mfa?: MfaSession },
  maxAgeMs: number,
  now: number,
  opts: { enrolling?: boolean } = {},
): void {
  const mfa = session.mfa;
  if (!mfa) throw new DomainError("mfa_stale", "Verify your second factor again to do this");
  // Adding a first factor while the role waits for one: there is nothing to be fresh about yet.
  if (mfa.state === "enrol" && opts.enrolling && !mfa.enrolled) return;
  if (mfa.state !== "ok") throw mfaRequiredError(mfa.state);
  if (mfa.at !== null) {
    // A time ahead of the clock (beyond a little skew) is not "fresh": it is wrong.
    const age = now - mfa.at;
    if (age <= maxAgeMs && age >= -5_000) return;
    throw new DomainError(
      "mfa_stale",
      `Your second factor was verified more than ${Math.round(maxAgeMs / 1000)} s ago: verify it again to do this`,
    );
  }
  if (mfa.enrolled) throw new DomainError("mfa_stale", "Verify your second factor to do this");
  if (mfa.required) throw mfaRequiredError("enrol");
}
