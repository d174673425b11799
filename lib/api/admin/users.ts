// Brokerdesk's staff-user routes (admins only): the inputs, shared by the admin page's forms and the server,
// the user as the API shows it (never a password hash), and one entry per route. Isomorphic.
import * as z from "zod/mini";
import "@/lib/zod-english";
import { ROLES } from "@/lib/rbac";
import { defineResource } from "../define-resource";
import { PASSWORD_MAX_BYTES, PASSWORD_MIN_LENGTH, passwordTooLong } from "./password-rule";

export {
  PASSWORD_GUESSABLE,
  PASSWORD_MAX_BYTES,
  PASSWORD_MIN_LENGTH,
  PASSWORD_RULE,
  passwordTooLong,
} from "./password-rule";

export const staffEmailSchema = z.pipe(
  z.string({ message: "E-mail is required" }).check(z.trim()).check(z.toLowerCase()),
  z
    .email({ message: "Enter an e-mail address such as name@example.com" })
    .check(z.maxLength(254, { message: "E-mail is too long" })),
);

export const staffPasswordSchema = z
  .string({ message: "Password is required" })
  .check(z.minLength(PASSWORD_MIN_LENGTH, { message: `Password must be at least ${PASSWORD_MIN_LENGTH} characters` }))
  .check(z.refine((p) => !passwordTooLong(p), { message: `Password must be at most ${PASSWORD_MAX_BYTES} bytes` }));

const roleSchema = z.enum(ROLES, { message: `Role must be one of ${ROLES.join(", ")}` });

const nameSchema = z.pipe(
  z.nullish(
    z
      .string()
      .check(z.trim())
      .check(z.maxLength(100, { message: "Name must be at most 100 characters" })),
  ),
  z.transform((v) => (v ? v : null)),
);

export const createUserInput = z.object({
  email: staffEmailSchema,
  name: nameSchema,
  role: roleSchema,
  password: staffPasswordSchema,
});
export type CreateUserInput = z.input<typeof createUserInput>;

export const updateUserInput = z
  .object({
    role: z.optional(roleSchema),
    disabled: z.optional(z.boolean({ message: "Disabled must be true or false" })),
    name: z.optional(nameSchema),
  })
  .check(
    z.refine((p) => p.role !== undefined || p.disabled !== undefined || p.name !== undefined, {
      message: "Nothing to change: send role, disabled or name",
    }),
  );
export type UpdateUserInput = z.input<typeof updateUserInput>;

export const resetPasswordInput = z.object({ password: staffPasswordSchema });

/** What the admin page and the API show: never the password hash. */
export const staffUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.nullable(z.string()),
  role: roleSchema,
  disabled: z.boolean(),
  hasPassword: z.boolean(),
  sessionVersion: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
  lastSignInAt: z.nullable(z.string()),
  /**
   * Separation of duties: set when an admin created this account, promoted it to an
   * approving role or set its password. It may not approve until its holder has changed their own
   * password (passwordChangedAt after `at`) and the cool-off has passed since. An admin's reset of the
   * account's second factors holds it for the cool-off from the reset (the password was not the admin's).
   */
  approverHold: z.nullable(
    z.object({
      reason: z.enum(["created-by-admin", "promoted-by-admin", "password-set-by-admin", "factors-reset-by-admin"]),
      at: z.string(),
      by: z.nullable(z.string()),
    }),
  ),
  /** The holder's own last password change (not an admin's reset). */
  passwordChangedAt: z.nullable(z.string()),
  /** Confirmed second factors (TOTP apps and passkeys). */
  factors: z.number(),
  /** When an admin last reset this user's factors (UTC). */
  mfaResetAt: z.nullable(z.string()),
});
export type StaffUser = z.output<typeof staffUserSchema>;
export type ApproverHold = NonNullable<StaffUser["approverHold"]>;

/** A staff member changing their own password: the current one, then the new one (the same policy as any). */
export const changeOwnPasswordInput = z.object({
  currentPassword: z
    .string()
    .check(z.minLength(1, "Type your current password"))
    .check(z.maxLength(PASSWORD_MAX_BYTES * 4)),
  newPassword: staffPasswordSchema,
});
export type ChangeOwnPasswordInput = z.output<typeof changeOwnPasswordInput>;

/** Whether an approving account may approve now, and when it may if not (server/auth/approver-standing.ts). */
export const approverStandingSchema = z.object({
  email: z.string(),
  name: z.nullable(z.string()),
  role: roleSchema,
  mayApprove: z.boolean(),
  /** Why not, in words that name the rule. */
  reason: z.nullable(z.string()),
  /** When the cool-off ends; null when a password change is still needed first, or nothing is pending. */
  eligibleFrom: z.nullable(z.string()),
  hold: staffUserSchema.shape.approverHold,
});
export type ApproverStanding = z.output<typeof approverStandingSchema>;

export const usersListSchema = z.object({ users: z.array(staffUserSchema) });
export const userReplySchema = z.object({ user: staffUserSchema });

export const oneTimePasswordReplySchema = z.extend(userReplySchema, {
  oneTimePassword: z.string().check(z.minLength(12)),
});

const byId = (_input: unknown, p: { id: string }) => p.id;

export const userResources = {
  list: defineResource({
    id: "users.list",
    method: "GET",
    path: "/api/admin/users",
    summary: "Every staff user, by e-mail",
    permission: "users.read",
    output: usersListSchema,
    errors: [],
  }),
  create: defineResource({
    id: "users.create",
    method: "POST",
    path: "/api/admin/users",
    summary: "Create a staff user with a password (stored as a bcrypt hash)",
    permission: "users.write",
    input: createUserInput,
    output: userReplySchema,
    audit: { target: (i) => i.email },
    errors: ["email_taken"],
  }),
  update: defineResource({
    id: "users.update",
    method: "PATCH",
    path: "/api/admin/users/{id}",
    summary:
      "Change a staff user's role, name or whether they are disabled (a role change or disabling ends their sessions)",
    permission: "users.write",
    input: updateUserInput,
    output: userReplySchema,
    audit: { action: (i) => (i.disabled === true ? "users.disable" : "users.update"), target: byId },
    // Changing a role asks the admin for a fresh second factor.
    freshFactor: (i) => i.role !== undefined,
    errors: ["not_found", "cannot_disable_self", "last_admin", "mfa_stale"],
  }),
  changeOwnPassword: defineResource({
    id: "account.change-password",
    method: "POST",
    path: "/api/account/password",
    summary: "Change your own password (the current one is asked); every session of yours ends, this one too",
    permission: "signed-in",
    input: changeOwnPasswordInput,
    output: z.object({ ok: z.literal(true) }),
    audit: { action: "account.change-password" },
    errors: ["wrong_password", "not_found"],
  }),
  approvers: defineResource({
    id: "users.approvers",
    method: "GET",
    path: "/api/withdrawals/approvers",
    summary: "Every account that may approve withdrawals, with whether it may now (separation of duties)",
    permission: "withdrawals.read",
    output: z.object({ approvers: z.array(approverStandingSchema), coolOff: z.string() }),
    errors: [],
  }),
  resetPassword: defineResource({
    id: "users.reset-password",
    method: "POST",
    path: "/api/admin/users/{id}/password",
    summary: "Set a staff user's password (ends their sessions)",
    permission: "users.write",
    input: resetPasswordInput,
    output: userReplySchema,
    audit: { target: byId },
    freshFactor: true,
    errors: ["not_found", "mfa_stale"],
  }),
  oneTimePassword: defineResource({
    id: "users.one-time-password",
    method: "POST",
    path: "/api/admin/users/{id}/one-time-password",
    summary:
      "Reset a staff user's password to a one-time password made up by Brokerdesk, answered once; it must " +
      "be changed at their next sign-in (ends their sessions)",
    permission: "users.write",
    output: oneTimePasswordReplySchema,
    // The password is answered once and never kept: the outcome row records whose it was, not what.
    audit: { action: "users.reset-password", target: byId, outcome: (r) => ({ user: (r as { user: unknown }).user }) },
    freshFactor: true,
    errors: ["not_found", "mfa_stale"],
  }),
  resetFactors: defineResource({
    id: "users.reset-factors",
    method: "POST",
    path: "/api/admin/users/{id}/factors/reset",
    summary:
      "Remove every second factor and recovery code of a staff user (ends their sessions; they are told at " +
      "their next sign-in)",
    permission: "users.write",
    output: userReplySchema,
    audit: { target: byId },
    freshFactor: true,
    errors: ["not_found", "mfa_stale"],
  }),
} as const;
