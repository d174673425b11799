// The second factor's routes: the signed-in person's own factors (TOTP, passkeys, recovery
// codes), the factor step after the password, and the admin's reset. Isomorphic: the security page, the factor
// step and the re-verify prompt call these entries; the server's routes answer them.
import * as z from "zod/mini";
import "@/lib/zod-english";
import { defineResource } from "../define-resource";

export const FACTOR_KINDS = ["totp", "passkey"] as const;
export const MFA_STATES = ["ok", "verify", "enrol"] as const;
export const MFA_METHODS = ["totp", "passkey", "recovery", "idp"] as const;

export const factorViewSchema = z.object({
  id: z.string(),
  kind: z.enum(FACTOR_KINDS),
  label: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.nullable(z.string()),
});
export type FactorView = z.output<typeof factorViewSchema>;

/** What the security page and the factor step show of the session and the account. */
export const mfaStatusSchema = z.object({
  state: z.enum(MFA_STATES),
  /** The role must have a factor (MFA_REQUIRED_ROLES). */
  required: z.boolean(),
  verifiedAt: z.nullable(z.string()),
  method: z.nullable(z.enum(MFA_METHODS)),
  /** How recent a factor must be for approvals and role or password changes, in seconds. */
  freshSeconds: z.number(),
  factors: z.array(factorViewSchema),
  recoveryCodesLeft: z.number(),
  /** When an admin last removed this account's factors (UTC), and who. */
  resetAt: z.nullable(z.string()),
  resetBy: z.nullable(z.string()),
});
export type MfaStatus = z.output<typeof mfaStatusSchema>;

const labelSchema = z
  .string({ error: "label must be text" })
  .check(z.trim())
  .check(z.minLength(1, { error: "Give it a name, such as “Work phone”" }))
  .check(z.maxLength(64, { error: "label must be at most 64 characters" }));

/** Six digits from an authenticator app; spaces allowed. Named otp so the audit log redacts it. */
const otpSchema = z.pipe(
  z.pipe(
    z.string({ error: "Type the 6-digit code" }),
    z.transform((v) => v.replace(/\s+/g, "")),
  ),
  z.string().check(z.regex(/^\d{6}$/, { error: "The code is 6 digits" })),
);

const recoveryCodeSchema = z
  .string({ error: "Type a recovery code" })
  .check(z.trim())
  .check(z.minLength(12, { error: "A recovery code looks like abcd-efgh-jkmn" }))
  .check(z.maxLength(20, { error: "A recovery code looks like abcd-efgh-jkmn" }));

/**
 * A WebAuthn response as @simplewebauthn/browser hands it over; its checks are the server's. Named credential (redacted
 * in the audit log).
 */
const webauthnJsonSchema = z.looseObject(
  {
    id: z.string().check(z.minLength(1)).check(z.maxLength(1024)),
    rawId: z.string().check(z.minLength(1)).check(z.maxLength(1024)),
    type: z.literal("public-key"),
    response: z.looseObject({ clientDataJSON: z.string().check(z.maxLength(10_000)) }),
  },
  { error: "credential must be the browser's WebAuthn answer" },
);

export const totpStartInput = z.object({ label: z._default(labelSchema, "Authenticator app") });
/** The secret three ways: for the app's QR scan, as a link, and to type. Field names the audit log redacts. */
export const totpStartSchema = z.object({
  factorId: z.string(),
  secret: z.string(),
  secretUri: z.string(),
  secretQr: z.string(),
});

export const totpConfirmInput = z.object({ factorId: z.uuid({ error: "factorId is not valid" }), otp: otpSchema });

/** After a first factor: the ten recovery codes, shown once. And the proof that the session redeems. */
export const enrolledSchema = z.object({
  factor: factorViewSchema,
  recoverySecrets: z.nullable(z.array(z.string())),
  proofToken: z.string(),
});

export const passkeyOptionsSchema = z.object({ options: z.looseObject({ challenge: z.string() }) });
export const passkeyAddInput = z.object({ label: z._default(labelSchema, "Passkey"), credential: webauthnJsonSchema });

export const verifyInput = z.discriminatedUnion(
  "method",
  [
    z.object({ method: z.literal("totp"), otp: otpSchema }),
    z.object({ method: z.literal("recovery"), otp: recoveryCodeSchema }),
    z.object({ method: z.literal("passkey"), credential: webauthnJsonSchema }),
  ],
  { error: "method must be totp, recovery or passkey" },
);
export type VerifyInput = z.input<typeof verifyInput>;
export const verifiedSchema = z.object({
  method: z.enum(["totp", "passkey", "recovery"]),
  proofToken: z.string(),
  recoveryCodesLeft: z.number(),
});

export const recoveryCodesSchema = z.object({ recoverySecrets: z.array(z.string()) });
export const factorRemovedSchema = z.object({ removed: z.string(), factorsLeft: z.number() });
export const factorsResetSchema = z.object({ userId: z.string(), removed: z.number(), resetAt: z.string() });

const own = { target: (_i: unknown, p: { id?: string }) => (p.id ? `factor:${p.id}` : null) };

export const mfaResources = {
  status: defineResource({
    id: "mfa.status",
    method: "GET",
    path: "/api/account/mfa",
    summary: "Your second factors, recovery codes left and this session's factor state",
    permission: "signed-in",
    factorStep: "verify",
    output: mfaStatusSchema,
    errors: [],
  }),
  totpStart: defineResource({
    id: "mfa.totp-start",
    method: "POST",
    path: "/api/account/mfa/totp",
    summary:
      "Start adding an authenticator app: a new TOTP secret (QR code and text), not a factor until " +
      "confirmed with a code",
    permission: "signed-in",
    factorStep: "enrol",
    freshFactor: true,
    input: totpStartInput,
    output: totpStartSchema,
    audit: { outcome: (r) => ({ factorId: (r as { factorId?: string }).factorId }) },
    errors: ["mfa_stale", "too_many_factors"],
  }),
  totpConfirm: defineResource({
    id: "mfa.totp-confirm",
    method: "POST",
    path: "/api/account/mfa/totp/confirm",
    summary:
      "Confirm an authenticator app with its current code; a first factor also gets ten recovery codes (shown once)",
    permission: "signed-in",
    factorStep: "enrol",
    freshFactor: true,
    input: totpConfirmInput,
    output: enrolledSchema,
    audit: { target: (i) => `factor:${i.factorId}`, outcome: enrolledOutcome },
    errors: ["mfa_stale", "not_found", "too_many_attempts"],
  }),
  passkeyOptions: defineResource({
    id: "mfa.passkey-options",
    method: "POST",
    path: "/api/account/mfa/passkeys/options",
    summary: "WebAuthn registration options (a fresh challenge) for adding a passkey",
    permission: "signed-in",
    factorStep: "enrol",
    freshFactor: true,
    output: passkeyOptionsSchema,
    errors: ["mfa_stale", "too_many_factors"],
  }),
  passkeyAdd: defineResource({
    id: "mfa.passkey-add",
    method: "POST",
    path: "/api/account/mfa/passkeys",
    summary:
      "Add a passkey from the browser's WebAuthn registration response; a first factor also gets ten " +
      "recovery codes (shown once)",
    permission: "signed-in",
    factorStep: "enrol",
    freshFactor: true,
    input: passkeyAddInput,
    output: enrolledSchema,
    audit: { outcome: enrolledOutcome },
    errors: ["mfa_stale", "too_many_factors"],
  }),
  factorRemove: defineResource({
    id: "mfa.factor-remove",
    method: "DELETE",
    path: "/api/account/mfa/factors/{id}",
    summary: "Remove one of your factors (not the last one when your role must have a factor)",
    permission: "signed-in",
    freshFactor: true,
    output: factorRemovedSchema,
    audit: own,
    errors: ["mfa_stale", "not_found", "last_factor"],
  }),
  recoveryRegenerate: defineResource({
    id: "mfa.recovery-regenerate",
    method: "POST",
    path: "/api/account/mfa/recovery-codes",
    summary: "Replace your recovery codes with ten new ones (shown once; the old ones stop working)",
    permission: "signed-in",
    freshFactor: true,
    output: recoveryCodesSchema,
    audit: { outcome: (r) => ({ codes: (r as { recoverySecrets?: unknown[] }).recoverySecrets?.length ?? 0 }) },
    errors: ["mfa_stale", "not_found"],
  }),
  challenge: defineResource({
    id: "mfa.challenge",
    method: "POST",
    path: "/api/account/mfa/challenge",
    summary: "WebAuthn authentication options (a fresh challenge) for verifying with one of your passkeys",
    permission: "signed-in",
    factorStep: "verify",
    output: passkeyOptionsSchema,
    errors: ["not_found"],
  }),
  verify: defineResource({
    id: "mfa.verify",
    method: "POST",
    path: "/api/account/mfa/verify",
    summary:
      "Verify a second factor (TOTP code, passkey or one recovery code); answers a proof the session update " +
      "redeems once",
    permission: "signed-in",
    factorStep: "verify",
    input: verifyInput,
    output: verifiedSchema,
    audit: {
      action: (i) => (i.method === "recovery" ? "mfa.recovery-use" : "mfa.verify"),
      outcome: (r) => ({ method: (r as { method?: string }).method }),
    },
    errors: ["too_many_attempts"],
  }),
} as const;

function enrolledOutcome(r: unknown) {
  const e = r as { factor?: { id: string; kind: string }; recoverySecrets?: unknown[] | null };
  return { factorId: e.factor?.id, kind: e.factor?.kind, recoveryCodes: e.recoverySecrets?.length ?? 0 };
}
