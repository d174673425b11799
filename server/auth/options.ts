import "server-only";
import { randomUUID } from "node:crypto";
import type { NextAuthOptions } from "next-auth";
import type { JWT } from "next-auth/jwt";
import CredentialsProvider from "next-auth/providers/credentials";
import type { OAuthConfig } from "next-auth/providers/oauth";
import { env } from "@/lib/env";
import type { Role } from "@/lib/rbac";
import { appendAudit } from "@/server/audit";
import { getDb, type Db } from "@/server/db";
import { logger } from "@/server/log";
import { redirectOnThisSite } from "./callback-path";
import { SessionRefusedError, type SessionRefusal } from "./errors";
import { countFactors, pendingResetNotice, redeemProof } from "./mfa";
import { prepareStaffUsers, verifyCredentials, verifyOidcUser } from "./sign-in";
import {
  checkSessionUser,
  mfaSessionOf,
  parseStaffClaims,
  tokenExpiry,
  type SessionLimits,
  type StaffClaims,
} from "./session-rules";
import type { SignInThrottle } from "./throttle";
import { decodeSessionJwt } from "./session-token";
import { findSessionUser, findUserByEmail, revokeSession } from "./users";

export type AuthDeps = {
  /** The clock, injectable so tests can walk past the idle and absolute limits. */
  now?: () => number;
  getDb?: () => Promise<Db>;
  limits?: SessionLimits;
  mode?: "simulator" | "live";
  throttle?: SignInThrottle;
  audit?: typeof appendAudit;
  oidc?: { issuer: string; clientId: string; clientSecret: string; mfa?: "brokerdesk" | "idp" };
  /** Roles that must have a second factor (MFA_REQUIRED_ROLES). */
  mfaRoles?: readonly Role[];
};

type OidcProfile = { sub: string; email?: string; email_verified?: boolean; name?: string; amr?: unknown };

/** RFC 8176 values an identity provider uses when more than one factor was used. */
const MULTI_FACTOR_AMR = new Set(["mfa", "otp", "hwk", "swk", "fpt", "face", "iris", "retina", "vbm", "sms", "sc"]);

/** With OIDC_MFA=idp: the provider's ID token says the person used more than one factor. */
export function idpDidMfa(profile: unknown): boolean {
  const amr = (profile as OidcProfile | null)?.amr;
  return Array.isArray(amr) && amr.some((m) => typeof m === "string" && MULTI_FACTOR_AMR.has(m.toLowerCase()));
}

/** Whose session an audit row of it is about: the token's staff member, or "anonymous" when it cannot be read. */
const sessionParty = (claims: StaffClaims | null) => ({
  actor: claims?.email ?? "anonymous",
  actorRole: claims?.role ?? null,
  target: claims?.uid ?? null,
});

/**
 * Every request after sign-in: the token's claims, its idle and absolute limits, and the staff row
 * (missing, disabled or a changed session_version end the session here). Returns the token to keep, with
 * seenAt moved to now and e-mail, name and role as the row has them; throws SessionRefusedError (audited)
 * otherwise. Shared by next-auth's jwt callback and getStaffSession (server/auth/session.ts).
 */
export function createSessionCheck(
  deps: Pick<AuthDeps, "now" | "getDb" | "limits" | "audit"> = {},
): (token: JWT) => Promise<JWT> {
  const now = deps.now ?? Date.now;
  const db = deps.getDb ?? getDb;
  const limits = deps.limits ?? env.session;
  const audit = deps.audit ?? appendAudit;

  const refuse = async (reason: SessionRefusal, claims: StaffClaims | null): Promise<never> => {
    // Best effort: the session is refused whether or not the refusal can be recorded.
    await audit(await db(), {
      ...sessionParty(claims),
      action: "auth.session-refused",
      outcome: "refused",
      params: null,
      detail: { reason },
    }).catch((e: unknown) => logger.error({ err: String(e) }, "audit write of a session refusal failed"));
    throw new SessionRefusedError(reason);
  };

  return async (token) => {
    const t = now();
    const claims = parseStaffClaims(token);
    if (!claims) return refuse("malformed", null);
    const expired = tokenExpiry(claims, t, limits);
    if (expired) return refuse(expired, claims);
    const row = await findSessionUser(await db(), claims.uid, claims.jti);
    const revoked = checkSessionUser(row, claims.sv);
    if (revoked || !row) return refuse(revoked ?? "user-missing", claims);
    // Role and name follow the row (a role change also bumps sv, so this only refreshes the name); so does
    // whether the account has a second factor (a factor added elsewhere makes an unverified session pending).
    return {
      ...token,
      email: row.email,
      name: row.name,
      role: row.role,
      seenAt: t,
      mfaEnrolled: row.hasFactors,
      mustChangePassword: row.mustChangePassword,
    };
  };
}

export function createAuthOptions(deps: AuthDeps = {}): NextAuthOptions {
  const now = deps.now ?? Date.now;
  const db = deps.getDb ?? getDb;
  const limits = deps.limits ?? env.session;
  const mode = deps.mode ?? env.mode;
  const audit = deps.audit ?? appendAudit;
  const oidc = "oidc" in deps ? deps.oidc : env.oidc;
  const mfaRoles = deps.mfaRoles ?? env.mfa.requiredRoles;

  const readyDb = async () => {
    const d = await db();
    await prepareStaffUsers(d, mode);
    return d;
  };

  const checkToken = createSessionCheck(deps);

  /**
   * next-auth's update() (POST /api/auth/session with { data: { mfaProof } }) after the factor step: the proof
   * that server/auth/mfa/verify.ts issued for this user, redeemed once, sets mfaAt. Anything else the browser
   * sends is ignored, and a proof that does not redeem leaves the token as it was (never an error: next-auth
   * would clear the cookie).
   */
  const redeemFactorProof = async (token: JWT, data: unknown): Promise<JWT> => {
    const proof = (data as { mfaProof?: unknown } | null)?.mfaProof;
    const claims = parseStaffClaims(token);
    if (proof === undefined || !claims) return token;
    const method = await redeemProof(await db(), claims.uid, proof);
    if (!method) {
      logger.info({ uid: claims.uid }, "a factor proof did not redeem");
      return token;
    }
    return { ...token, mfaAt: now(), mfaMethod: method, mfaEnrolled: true };
  };

  const providers: NextAuthOptions["providers"] = [
    CredentialsProvider({
      id: "credentials",
      name: "E-mail and password",
      credentials: {
        email: { label: "E-mail", type: "email" },
        password: { label: "Password", type: "password" },
      },
      async authorize(credentials, req) {
        const d = await readyDb();
        const result = await verifyCredentials(
          d,
          { email: credentials?.email, password: credentials?.password, ip: ipFromHeaders(req?.headers) },
          { mode, audit, throttle: deps.throttle },
        );
        // null makes next-auth answer "CredentialsSignin"; the form shows the one generic message.
        return result.ok ? { id: result.user.id, email: result.user.email, name: result.user.name } : null;
      },
    }),
  ];
  if (oidc) {
    const sso: OAuthConfig<OidcProfile> = {
      id: "oidc",
      name: "Single sign-on",
      type: "oauth",
      wellKnown: `${oidc.issuer.replace(/\/$/, "")}/.well-known/openid-configuration`,
      clientId: oidc.clientId,
      clientSecret: oidc.clientSecret,
      authorization: { params: { scope: "openid email profile" } },
      idToken: true,
      checks: ["pkce", "state"],
      profile: (p) => ({ id: p.sub, email: p.email ?? null, name: p.name ?? null }),
    };
    providers.push(sso);
  }

  return {
    providers,
    secret: env.nextAuthSecret,
    // The cookie and the token live as long as the absolute limit; the jwt callback enforces both limits.
    session: { strategy: "jwt", maxAge: Math.floor(limits.maxAgeMs / 1000) },
    // next-auth's decode with the HKDF-derived key cached (server/auth/session-token.ts); encode stays its own.
    jwt: { decode: decodeSessionJwt },
    pages: { signIn: "/login", error: "/login" },
    // HttpOnly and SameSite=lax are next-auth's defaults; Secure (and __Secure- names) over https.
    useSecureCookies: env.nextAuthUrl.startsWith("https://"),
    callbacks: {
      // next-auth's default keeps any URL that starts with "/" (so "/\t/host" too): resolve it as a browser would.
      redirect: redirectOnThisSite,
      async signIn({ account, profile, user }) {
        // Credentials were checked (and audited) in authorize(); single sign-on is checked here.
        if (account?.provider !== "oidc") return true;
        const p = (profile ?? {}) as Partial<OidcProfile>;
        const result = await verifyOidcUser(
          await readyDb(),
          { email: p.email ?? user.email, emailVerified: p.email_verified },
          { mode, audit },
        );
        return result.ok;
      },
      async jwt({ token, user, trigger, account, profile, session }) {
        const t = now();
        if (trigger === "signIn" && user?.email) {
          const d = await db();
          const row = await findUserByEmail(d, user.email);
          if (!row || row.disabled) throw new SessionRefusedError(row ? "user-disabled" : "user-missing");
          // Second factor: a session starts "factor pending" when the account has one. Single sign-on may
          // count as the second factor when configured so and the provider says it did multi-factor.
          const viaIdp = account?.provider === "oidc" && oidc?.mfa === "idp" && idpDidMfa(profile);
          const reset = await pendingResetNotice(d, row.id);
          const claims: StaffClaims = {
            uid: row.id,
            email: row.email,
            name: row.name,
            role: row.role,
            sv: row.sessionVersion,
            authAt: t,
            seenAt: t,
            jti: randomUUID(),
            mfaAt: viaIdp ? t : null,
            mfaMethod: viaIdp ? "idp" : null,
            mfaEnrolled: (await countFactors(d, row.id)) > 0,
            mfaResetAt: reset?.at ?? null,
            // Read again from the row on every request (checkToken); set here for the first one.
            mustChangePassword:
              row.approverHold?.reason === "password-set-by-admin" &&
              (!row.passwordChangedAt || row.passwordChangedAt < row.approverHold.at),
          };
          return { sub: row.id, ...claims };
        }
        const checked = await checkToken(token);
        if (trigger === "update") return redeemFactorProof(checked, session);
        return checked;
      },
      session({ session, token }) {
        const claims = parseStaffClaims(token);
        if (!claims) throw new SessionRefusedError("malformed");
        // Only these reach the browser; uid/sv/times stay inside the encrypted token. `mfa` is the factor
        // step's state ("verify" and "enrol" reach nothing but that step).
        const user = { id: claims.uid, email: claims.email, name: claims.name, role: claims.role };
        return { expires: session.expires, user, mfa: mfaSessionOf(claims, mfaRoles).state };
      },
    },
    events: {
      async signOut({ token }) {
        const claims = token ? parseStaffClaims(token) : null;
        if (claims) {
          // Every instance refuses this token from now on (not only this browser, whose cookie is cleared).
          await revokeSession(await db(), {
            jti: claims.jti,
            userId: claims.uid,
            expiresAt: claims.authAt + limits.maxAgeMs,
          }).catch((e: unknown) => logger.error({ err: String(e) }, "revoking a signed-out session failed"));
        }
        await audit(await db(), {
          ...sessionParty(claims),
          action: "auth.sign-out",
          outcome: "success",
          params: null,
          detail: null,
        }).catch((e: unknown) => logger.error({ err: String(e) }, "audit write of a sign-out failed"));
      },
    },
    logger: {
      error(code, metadata) {
        const err = metadata instanceof Error ? metadata : metadata.error;
        // An expired or revoked session is routine (already audited), not a server error.
        if (err instanceof SessionRefusedError || err?.name === "SessionRefusedError") {
          logger.info({ code, reason: err.message }, "session refused");
          return;
        }
        logger.error({ code, err: err ? { name: err.name, message: err.message } : metadata }, "next-auth error");
      },
      warn(code) {
        logger.warn({ code }, "next-auth warning");
      },
      debug() {},
    },
  };
}

export const authOptions: NextAuthOptions = createAuthOptions();

/** As clientIp (server/http/request.ts): the one address server/front-door.mjs resolved. */
function ipFromHeaders(headers: Record<string, unknown> | undefined): string | null {
  const fwd = headers?.["x-forwarded-for"];
  return typeof fwd === "string" ? fwd.split(",")[0]!.trim() || null : null;
}
