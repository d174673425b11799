// Second factors against a real database (PGlite, and PostgreSQL with TEST_DATABASE_URL):
// TOTP with a known secret and its time window, replay, one-time recovery codes, proofs, the admin's reset,
// the session token's factor claims through next-auth's jwt callback, and the fresh-factor rule.
import type { JWT } from "next-auth/jwt";
import { beforeAll, describe, expect, it } from "vitest";
import { DomainError } from "@/lib/api/errors";
import { approverStanding } from "@/server/auth/approver-standing";
import { createAuthOptions, idpDidMfa } from "@/server/auth/options";
import { buildSignInThrottle } from "@/server/auth/throttle";
import { createUser, findSessionUser, findUserById, type StaffUser } from "@/server/auth/users";
import type { Db } from "@/server/db";
import { databaseTestBed, testEngines } from "@/server/db/testing";
import { openTotpSecret, sealTotpSecret } from "./crypto";
import {
  confirmTotp,
  countFactors,
  removeFactor,
  resetFactors,
  startTotp,
  pendingResetNotice,
  markResetNoticeSeen,
  verifyTotpFactor,
} from "./factors";
import { authenticationOptions } from "./passkeys";
import { mfaStateOf, requireFreshFactor, stateAllows, type MfaSession } from "./policy";
import { normaliseRecoveryCode, recoveryCodesLeft, replaceRecoveryCodes, spendRecoveryCode } from "./recovery";
import { issueProof, redeemProof } from "./tickets";
import { normaliseCode, totpCode, verifyTotp } from "./totp";
import { verifyFactor } from "./verify";

// RFC 6238's SHA-1 test secret ("12345678901234567890" in base32) and its published vectors (8 digits there;
// the last 6 here): at 59 s the code is 287082, at 1111111109 s it is 081804.
const RFC_SECRET = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";
const ENGINES = testEngines(process.env.TEST_DATABASE_URL);
const SECRET = "test-session-secret-for-mfa-0123456789abcdef";

describe("[mfa][totp] a known secret and the time window", () => {
  it("computes RFC 6238's codes", async () => {
    expect(await totpCode(RFC_SECRET, 59_000)).toBe("287082");
    expect(await totpCode(RFC_SECRET, 1_111_111_109_000)).toBe("081804");
  });

  it("accepts the code of this step and one step either side, not two", async () => {
    const t = 1_700_000_000_000;
    const code = await totpCode(RFC_SECRET, t);
    const step = Math.floor(t / 30_000);
    expect(await verifyTotp(RFC_SECRET, code, { now: t })).toBe(step);
    expect(await verifyTotp(RFC_SECRET, code, { now: t + 30_000 })).toBe(step);
    expect(await verifyTotp(RFC_SECRET, code, { now: t - 30_000 })).toBe(step);
    expect(await verifyTotp(RFC_SECRET, code, { now: t + 60_000 })).toBeNull();
    expect(await verifyTotp(RFC_SECRET, code, { now: t - 60_000 })).toBeNull();
  });

  it("refuses a code whose step is not after the last one accepted (replay), and malformed codes", async () => {
    const t = 1_700_000_000_000;
    const code = await totpCode(RFC_SECRET, t);
    const step = Math.floor(t / 30_000);
    expect(await verifyTotp(RFC_SECRET, code, { now: t, afterStep: step })).toBeNull();
    expect(await verifyTotp(RFC_SECRET, code, { now: t, afterStep: step - 1 })).toBe(step);
    expect(await verifyTotp(RFC_SECRET, "12345", { now: t })).toBeNull();
    expect(await verifyTotp(RFC_SECRET, "abcdef", { now: t })).toBeNull();
    expect(normaliseCode(" 123 456 ")).toBe("123456");
  });
});

describe("[mfa][crypto] the TOTP secret at rest", () => {
  it("opens only for its own factor id and under the same session secret", () => {
    const sealed = sealTotpSecret(RFC_SECRET, "factor-a", SECRET);
    expect(sealed).not.toContain(RFC_SECRET);
    expect(openTotpSecret(sealed, "factor-a", SECRET)).toBe(RFC_SECRET);
    expect(() => openTotpSecret(sealed, "factor-b", SECRET)).toThrow();
    expect(() => openTotpSecret(sealed, "factor-a", `${SECRET}x`)).toThrow();
    // A fresh IV each time.
    expect(sealTotpSecret(RFC_SECRET, "factor-a", SECRET)).not.toBe(sealed);
  });
});

describe("[mfa][policy] factor state and the fresh-factor rule", () => {
  const mfa = (over: Partial<MfaSession>): { mfa: MfaSession } => ({
    mfa: { state: "ok", at: null, method: null, enrolled: false, required: false, ...over },
  });
  const MIN = 60_000;
  const now = 1_000 * MIN;
  const code = (f: () => void) => {
    try {
      f();
      return "passed";
    } catch (e) {
      return e instanceof DomainError ? e.code : String(e);
    }
  };

  it("a session is factor pending while its account has factors and none was verified in it", () => {
    expect(mfaStateOf({ mfaAt: null, enrolled: true, required: false })).toBe("verify");
    expect(mfaStateOf({ mfaAt: null, enrolled: false, required: true })).toBe("enrol");
    expect(mfaStateOf({ mfaAt: null, enrolled: false, required: false })).toBe("ok");
    expect(mfaStateOf({ mfaAt: 5, enrolled: true, required: true })).toBe("ok");
    expect(stateAllows("verify", undefined)).toBe(false);
    expect(stateAllows("verify", "verify")).toBe(true);
    expect(stateAllows("verify", "enrol")).toBe(false); // a password alone never adds a factor
    expect(stateAllows("enrol", "enrol")).toBe(true);
    expect(stateAllows("enrol", undefined)).toBe(false);
  });

  it("an account with a factor needs one verified within the limit; older, or ahead of the clock, is stale", () => {
    expect(code(() => requireFreshFactor(mfa({ at: now - 5 * MIN, enrolled: true }), 5 * MIN, now))).toBe("passed");
    expect(code(() => requireFreshFactor(mfa({ at: now - 5 * MIN - 1, enrolled: true }), 5 * MIN, now))).toBe(
      "mfa_stale",
    );
    expect(code(() => requireFreshFactor(mfa({ at: now + MIN, enrolled: true }), 5 * MIN, now))).toBe("mfa_stale");
    expect(code(() => requireFreshFactor(mfa({ at: null, enrolled: true }), 5 * MIN, now))).toBe("mfa_stale");
  });

  it("an account without factors is let through, unless its role must have one; no MFA information is refused", () => {
    expect(code(() => requireFreshFactor(mfa({}), 5 * MIN, now))).toBe("passed");
    expect(code(() => requireFreshFactor(mfa({ required: true }), 5 * MIN, now))).toBe("mfa_required");
    expect(code(() => requireFreshFactor(mfa({ state: "enrol", required: true }), 5 * MIN, now))).toBe("mfa_required");
    expect(
      code(() => requireFreshFactor(mfa({ state: "enrol", required: true }), 5 * MIN, now, { enrolling: true })),
    ).toBe("passed");
    expect(code(() => requireFreshFactor(mfa({ state: "verify", enrolled: true }), 5 * MIN, now))).toBe("mfa_required");
    expect(code(() => requireFreshFactor({}, 5 * MIN, now))).toBe("mfa_stale");
  });
});

describe("[mfa][recovery] codes", () => {
  it("reads a code however it is typed", () => {
    expect(normaliseRecoveryCode(" ABCD efgh-JKMN ")).toBe("abcd-efgh-jkmn");
    expect(normaliseRecoveryCode("abcd-efgh")).toBeNull();
  });
});

describe.each(ENGINES)("[mfa] $engine", (engine) => {
  const bed = databaseTestBed(engine);
  let db: Db;
  beforeAll(() => void ({ db } = bed));
  let n = 0;
  const fresh = (role: StaffUser["role"] = "lead") =>
    createUser(
      db,
      { email: `mfa${++n}@example.com`, name: `MFA ${n}`, role, password: "a-long-password-1" },
      { mode: "simulator" },
    );

  /** Enrols a TOTP app with a known clock; returns its secret and the recovery codes. */
  async function enrolTotp(user: StaffUser, t: number) {
    const started = await startTotp(db, user, "Phone");
    const done = await confirmTotp(db, user.id, started.factorId, await totpCode(started.secret, t), t);
    return { ...started, ...done };
  }

  it("[totp] enrolment: the secret is sealed in the row, a wrong code does not confirm, the right one does and gives ten recovery codes", async () => {
    const u = await fresh();
    const t = Date.parse("2026-03-01T08:00:10Z");
    const started = await startTotp(db, u, "Phone");
    expect(started.secretUri).toContain(`secret=${started.secret}`);
    expect(started.secretQr).toMatch(/^data:image\/svg\+xml;base64,/);
    const { rows } = await db.query<{ totp_secret_enc: string }>(
      "SELECT totp_secret_enc FROM staff_factors WHERE id = $1",
      [started.factorId],
    );
    expect(rows[0]!.totp_secret_enc).not.toContain(started.secret);
    expect(await countFactors(db, u.id)).toBe(0);

    const wrong = await confirmTotp(db, u.id, started.factorId, "000000", t).catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(DomainError);
    expect((wrong as DomainError).fieldErrors?.otp).toBeDefined();
    const done = await confirmTotp(db, u.id, started.factorId, await totpCode(started.secret, t), t);
    expect(done.recoverySecrets).toHaveLength(10);
    expect(new Set(done.recoverySecrets).size).toBe(10);
    expect(await countFactors(db, u.id)).toBe(1);
    expect((await findSessionUser(db, u.id))?.hasFactors).toBe(true);
    // A second factor does not hand out codes again.
    const second = await enrolTotp(u, t + 60_000);
    expect(second.recoverySecrets).toBeNull();
  });

  it("[totp] sign-in codes: each code once (the enrolment's too), the next step's code works, a wrong one not", async () => {
    const u = await fresh();
    const t = Date.parse("2026-03-01T09:00:05Z");
    const { secret } = await enrolTotp(u, t);
    expect(await verifyTotpFactor(db, u.id, await totpCode(secret, t), t)).toBe(false); // used to confirm
    expect(await verifyTotpFactor(db, u.id, await totpCode(secret, t + 30_000), t + 30_000)).toBe(true);
    expect(await verifyTotpFactor(db, u.id, await totpCode(secret, t + 30_000), t + 40_000)).toBe(false);
    expect(await verifyTotpFactor(db, u.id, "123456", t + 60_000)).toBe(false);
    // Two requests with one fresh code at once: exactly one passes.
    const code = await totpCode(secret, t + 90_000);
    const both = await Promise.all([
      verifyTotpFactor(db, u.id, code, t + 90_000),
      verifyTotpFactor(db, u.id, code, t + 90_000),
    ]);
    expect(both.filter(Boolean)).toHaveLength(1);
  });

  it("[recovery] a code works once; the second use, a wrong code and another user's code are refused", async () => {
    const u = await fresh();
    const other = await fresh();
    const codes = await db.transaction((tx) => replaceRecoveryCodes(tx, u.id));
    const { rows } = await db.query<{ code_hash: string }>(
      "SELECT code_hash FROM staff_recovery_codes WHERE user_id = $1",
      [u.id],
    );
    expect(rows).toHaveLength(10);
    expect(rows.map((r) => r.code_hash)).not.toContain(codes[0]);
    expect(await spendRecoveryCode(db, other.id, codes[0]!)).toBe(false);
    expect(await spendRecoveryCode(db, u.id, codes[0]!.toUpperCase())).toBe(true);
    expect(await spendRecoveryCode(db, u.id, codes[0]!)).toBe(false);
    expect(await spendRecoveryCode(db, u.id, "zzzz-zzzz-zzzz")).toBe(false);
    expect(await recoveryCodesLeft(db, u.id)).toBe(9);
    const again = await Promise.all([spendRecoveryCode(db, u.id, codes[1]!), spendRecoveryCode(db, u.id, codes[1]!)]);
    expect(again.filter(Boolean)).toHaveLength(1);
    // New codes replace the old ones.
    await db.transaction((tx) => replaceRecoveryCodes(tx, u.id));
    expect(await spendRecoveryCode(db, u.id, codes[2]!)).toBe(false);
    expect(await recoveryCodesLeft(db, u.id)).toBe(10);
  });

  it("[verify] the factor step: throttled after five wrong factors, a proof redeems once and for its own user only", async () => {
    const u = await fresh();
    const other = await fresh();
    const t = Date.now();
    const { secret, recoverySecrets } = await enrolTotp(u, t - 60_000);
    const throttle = buildSignInThrottle(
      { accountFailures: 5, ipFailures: 100, windowSeconds: 60 },
      undefined,
      "test-factor",
    );
    const ctx = { ip: "203.0.113.9", site: { origin: "http://localhost:3000", rpID: "localhost" } };

    const ok = await verifyFactor(db, u.id, { method: "totp", otp: await totpCode(secret, t) }, ctx, {
      throttle,
      now: t,
    });
    expect(ok.method).toBe("totp");
    expect(await redeemProof(db, other.id, ok.proofToken)).toBeNull();
    expect(await redeemProof(db, u.id, ok.proofToken)).toBe("totp");
    expect(await redeemProof(db, u.id, ok.proofToken)).toBeNull();
    expect(await redeemProof(db, u.id, "not a proof")).toBeNull();

    const viaCode = await verifyFactor(db, u.id, { method: "recovery", otp: recoverySecrets![0]! }, ctx, { throttle });
    expect(viaCode.recoveryCodesLeft).toBe(9);
    const reused = await verifyFactor(db, u.id, { method: "recovery", otp: recoverySecrets![0]! }, ctx, {
      throttle,
    }).catch((e: unknown) => e);
    expect((reused as DomainError).fieldErrors?.otp?.[0]).toMatch(/already used/);

    for (let i = 0; i < 4; i++)
      await verifyFactor(db, u.id, { method: "totp", otp: "000000" }, ctx, { throttle, now: t }).catch(() => undefined);
    const blocked = await verifyFactor(db, u.id, { method: "totp", otp: await totpCode(secret, t + 30_000) }, ctx, {
      throttle,
      now: t + 30_000,
    }).catch((e: unknown) => e);
    expect((blocked as DomainError).code).toBe("too_many_attempts");
  });

  it("[proof] expires", async () => {
    const u = await fresh();
    const proof = await issueProof(db, u.id, "totp");
    await db.query("UPDATE staff_mfa_tickets SET expires_at = now() - interval '1 second' WHERE user_id = $1", [u.id]);
    expect(await redeemProof(db, u.id, proof)).toBeNull();
  });

  it("[factors] the last factor of a role that must have one stays; removing the last one otherwise drops the recovery codes", async () => {
    const u = await fresh();
    const { factorId } = await enrolTotp(u, Date.now());
    const refused = await removeFactor(db, u.id, factorId, { required: true }).catch((e: unknown) => e);
    expect((refused as DomainError).code).toBe("last_factor");
    const other = await fresh();
    expect(
      ((await removeFactor(db, other.id, factorId, { required: false }).catch((e: unknown) => e)) as DomainError).code,
    ).toBe("not_found");
    expect(await removeFactor(db, u.id, factorId, { required: false })).toEqual({ removed: factorId, factorsLeft: 0 });
    expect(await recoveryCodesLeft(db, u.id)).toBe(0);
    expect(
      (
        (await authenticationOptions(db, u.id, { origin: "http://localhost", rpID: "localhost" }).catch(
          (e: unknown) => e,
        )) as DomainError
      ).code,
    ).toBe("not_found");
  });

  it("[reset] an admin's reset removes every factor and code, ends the sessions, and is told once at the next sign-in", async () => {
    const u = await fresh();
    await enrolTotp(u, Date.now());
    const before = await findUserById(db, u.id);
    expect(before?.factors).toBe(1);
    expect(await resetFactors(db, u.id, "admin@example.com")).toEqual({ removed: 1 });
    const after = await findUserById(db, u.id);
    expect(after?.factors).toBe(0);
    expect(after?.sessionVersion).toBe(before!.sessionVersion + 1);
    expect(after?.mfaResetAt).not.toBeNull();
    expect(await recoveryCodesLeft(db, u.id)).toBe(0);
    const notice = await pendingResetNotice(db, u.id);
    expect(notice?.by).toBe("admin@example.com");
    expect(notice?.at).toBe(after?.mfaResetAt);
    expect(await markResetNoticeSeen(db, u.id, notice!.at)).toBe(true);
    expect(await pendingResetNotice(db, u.id)).toBeNull();
    expect(
      (
        (await resetFactors(db, "00000000-0000-4000-8000-000000000000", "a@b.c").catch(
          (e: unknown) => e,
        )) as DomainError
      ).code,
    ).toBe("not_found");
  });

  describe("[claims] the session token through next-auth's jwt callback", () => {
    let clock = Date.parse("2026-03-02T08:00:00Z");
    const options = (mfaRoles: StaffUser["role"][] = []) =>
      createAuthOptions({
        now: () => clock,
        getDb: async () => db,
        limits: { idleMs: 30 * 60_000, maxAgeMs: 12 * 3_600_000 },
        mode: "simulator",
        oidc: undefined,
        mfaRoles,
        throttle: buildSignInThrottle(),
        audit: async () => ({ id: 1, hash: "0".repeat(64) }),
      });
    type JwtParams = Parameters<NonNullable<ReturnType<typeof createAuthOptions>["callbacks"]>["jwt"] & object>[0];
    const jwt = (o: ReturnType<typeof options>, token: JWT, extra: Partial<JwtParams> = {}) =>
      o.callbacks!.jwt!({ token, user: undefined as never, account: null, ...extra });
    const state = async (o: ReturnType<typeof options>, token: JWT) =>
      ((await o.callbacks!.session!({ session: { expires: "" }, token } as never)) as unknown as { mfa: string }).mfa;
    const signIn = (o: ReturnType<typeof options>, u: StaffUser) =>
      jwt(o, {}, { trigger: "signIn", user: { id: u.id, email: u.email, name: u.name } });

    it("an account with a factor signs in factor pending; a redeemed proof sets mfaAt; a forged, reused or foreign one changes nothing", async () => {
      const o = options();
      const u = await fresh();
      const other = await fresh();
      await enrolTotp(u, Date.now());
      let t = await signIn(o, u);
      expect(t).toMatchObject({ mfaAt: null, mfaEnrolled: true });
      expect(await state(o, t)).toBe("verify");

      // The browser cannot set the claim itself: only a proof the server issued counts.
      t = await jwt(o, t, { trigger: "update", session: { mfaAt: clock, mfaProof: "x".repeat(43) } });
      expect(t.mfaAt).toBeNull();
      t = await jwt(o, t, { trigger: "update", session: { mfaProof: await issueProof(db, other.id, "totp") } });
      expect(t.mfaAt).toBeNull();

      const proof = await issueProof(db, u.id, "passkey");
      clock += 1_000;
      t = await jwt(o, t, { trigger: "update", session: { mfaProof: proof } });
      expect(t).toMatchObject({ mfaAt: clock, mfaMethod: "passkey" });
      expect(await state(o, t)).toBe("ok");
      const again = await jwt(o, { ...t, mfaAt: null }, { trigger: "update", session: { mfaProof: proof } });
      expect(again.mfaAt).toBeNull();
    });

    it("no factor: ok, or enrol when the role must have one; a factor enrolled elsewhere makes an unverified session pending", async () => {
      const u = await fresh("broker");
      let t = await signIn(options(), u);
      expect(await state(options(), t)).toBe("ok");
      expect(await state(options(["broker"]), t)).toBe("enrol");
      await enrolTotp(u, Date.now());
      clock += 1_000;
      t = await jwt(options(), t);
      expect(t.mfaEnrolled).toBe(true);
      expect(await state(options(), t)).toBe("verify");
    });

    it("single sign-on counts as the second factor only with OIDC_MFA=idp and an amr that says multi-factor", async () => {
      expect(idpDidMfa({ amr: ["pwd", "mfa"] })).toBe(true);
      expect(idpDidMfa({ amr: ["hwk"] })).toBe(true);
      expect(idpDidMfa({ amr: ["pwd"] })).toBe(false);
      expect(idpDidMfa({ amr: "mfa" })).toBe(false);
      expect(idpDidMfa(null)).toBe(false);
      const u = await fresh("admin");
      const sso = (mfa: "idp" | "brokerdesk") =>
        createAuthOptions({
          now: () => clock,
          getDb: async () => db,
          mode: "simulator",
          mfaRoles: ["admin"],
          audit: async () => ({ id: 1, hash: "0".repeat(64) }),
          oidc: { issuer: "https://id.example", clientId: "c", clientSecret: "s", mfa },
        });
      const viaSso = (o: ReturnType<typeof sso>, amr: string[]) =>
        jwt(
          o as never,
          {},
          {
            trigger: "signIn",
            user: { id: u.id, email: u.email, name: u.name },
            account: { provider: "oidc", type: "oauth", providerAccountId: "x" },
            profile: { amr } as never,
          },
        );
      const trusted = await viaSso(sso("idp"), ["pwd", "mfa"]);
      expect(trusted).toMatchObject({ mfaAt: clock, mfaMethod: "idp" });
      expect(await state(sso("idp") as never, trusted)).toBe("ok");
      expect((await viaSso(sso("idp"), ["pwd"])).mfaAt).toBeNull();
      const own = await viaSso(sso("brokerdesk"), ["pwd", "mfa"]);
      expect(own.mfaAt).toBeNull();
      expect(await state(sso("brokerdesk") as never, own)).toBe("enrol");
    });

    it("an admin's reset ends the session and is told in the next sign-in's token", async () => {
      const u = await fresh();
      await enrolTotp(u, Date.now());
      const t = await signIn(options(), u);
      await resetFactors(db, u.id, "admin@example.com");
      await expect(jwt(options(), t)).rejects.toMatchObject({ reason: "session-revoked" });
      const next = await signIn(options(), u);
      expect(next).toMatchObject({ mfaEnrolled: false, mfaResetAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/) });
    });

    it("[reset-notice] the reset notice is not used up by a sign-in: it stays until a page showed it to its holder", async () => {
      const u = await fresh();
      await resetFactors(db, u.id, "admin@example.com");
      // Whoever signs in first (a script holding the password) sees no page: the holder's own sign-in still carries it.
      const first = await signIn(options(), u);
      const second = await signIn(options(), u);
      expect(second.mfaResetAt).toBe(first.mfaResetAt);
      expect(second.mfaResetAt).toEqual(expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/));
      expect(await markResetNoticeSeen(db, u.id, String(second.mfaResetAt))).toBe(true);
      expect((await signIn(options(), u)).mfaResetAt).toBeNull();
      // A newer reset is not hidden by an older notice being seen.
      const older = String(second.mfaResetAt);
      await resetFactors(db, u.id, "admin@example.com");
      expect(await markResetNoticeSeen(db, u.id, new Date(Date.parse(older) - 60_000).toISOString())).toBe(false);
      expect((await signIn(options(), u)).mfaResetAt).not.toBeNull();
    });

    it("[separation-of-duties] an admin's factor reset puts the account on approver hold for the cool-off", async () => {
      const u = await fresh("lead");
      await db.query("UPDATE staff_users SET approver_hold = NULL, approver_hold_at = NULL WHERE id = $1", [u.id]);
      expect((await findUserById(db, u.id))?.approverHold).toBeNull();
      await resetFactors(db, u.id, "admin@example.com");
      const held = (await findUserById(db, u.id))!;
      expect(held.approverHold).toMatchObject({ reason: "factors-reset-by-admin", by: "admin@example.com" });
      const now = Date.now();
      const standing = approverStanding(held, now, 24 * 3_600_000);
      expect(standing.mayApprove).toBe(false);
      expect(standing.reason).toMatch(/had its second factors reset by admin@example\.com .+ 24 h after that reset/);
      expect(approverStanding(held, now + 25 * 3_600_000, 24 * 3_600_000).mayApprove).toBe(true);
    });

    it("[separation-of-duties] a factor reset keeps a password hold still waiting for its holder's own password", async () => {
      const u = await fresh("lead");
      expect((await findUserById(db, u.id))?.approverHold?.reason).toBe("created-by-admin");
      await resetFactors(db, u.id, "admin@example.com");
      const held = (await findUserById(db, u.id))!;
      expect(held.approverHold?.reason).toBe("created-by-admin");
      expect(approverStanding(held, Date.now() + 30 * 3_600_000, 24 * 3_600_000).mayApprove).toBe(false);
    });
  });
});
