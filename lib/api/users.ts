// Brokerdesk's staff-user routes (admins only): the inputs, shared by the admin page's forms and the server,
// the user as the API shows it (never a password hash), and one entry per route. Isomorphic.
import { z } from "zod";
import { ROLES } from "@/lib/rbac";
import { defineResource } from "./define-resource";

export const PASSWORD_MIN_LENGTH = 12;
/** bcrypt reads only the first 72 bytes; longer passwords are refused rather than silently truncated. */
export const PASSWORD_MAX_BYTES = 72;

export function passwordTooLong(password: string): boolean {
  return new TextEncoder().encode(password).length > PASSWORD_MAX_BYTES;
}

export const staffEmailSchema = z
  .string({ message: "E-mail is required" })
  .trim()
  .toLowerCase()
  .pipe(z.email({ message: "Enter an e-mail address such as name@example.com" }).max(254, { message: "E-mail is too long" }));

export const staffPasswordSchema = z
  .string({ message: "Password is required" })
  .min(PASSWORD_MIN_LENGTH, { message: `Password must be at least ${PASSWORD_MIN_LENGTH} characters` })
  .refine((p) => !passwordTooLong(p), { message: `Password must be at most ${PASSWORD_MAX_BYTES} bytes` });

const roleSchema = z.enum(ROLES, { message: `Role must be one of ${ROLES.join(", ")}` });

const nameSchema = z
  .string()
  .trim()
  .max(100, { message: "Name must be at most 100 characters" })
  .nullish()
  .transform((v) => (v ? v : null));

export const createUserInput = z.object({
  email: staffEmailSchema,
  name: nameSchema,
  role: roleSchema,
  password: staffPasswordSchema,
});
export type CreateUserInput = z.input<typeof createUserInput>;

export const updateUserInput = z
  .object({ role: roleSchema.optional(), disabled: z.boolean({ message: "Disabled must be true or false" }).optional(), name: nameSchema.optional() })
  .refine((p) => p.role !== undefined || p.disabled !== undefined || p.name !== undefined, {
    message: "Nothing to change: send role, disabled or name",
  });
export type UpdateUserInput = z.input<typeof updateUserInput>;

export const resetPasswordInput = z.object({ password: staffPasswordSchema });

/** What the admin page and the API show: never the password hash. */
export const staffUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  role: roleSchema,
  disabled: z.boolean(),
  hasPassword: z.boolean(),
  sessionVersion: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
  lastSignInAt: z.string().nullable(),
  /** Confirmed second factors (TOTP apps and passkeys). */
  factors: z.number(),
  /** When an admin last reset this user's factors (UTC). */
  mfaResetAt: z.string().nullable(),
});
export type StaffUser = z.output<typeof staffUserSchema>;

export const usersListSchema = z.object({ users: z.array(staffUserSchema) });
export const userReplySchema = z.object({ user: staffUserSchema });

const byId = (_input: unknown, p: { id: string }) => p.id;

export const userResources = {
  list: defineResource({
    id: "users.list", method: "GET", path: "/api/admin/users", summary: "Every staff user, by e-mail",
    permission: "users.read", output: usersListSchema, errors: [],
  }),
  create: defineResource({
    id: "users.create", method: "POST", path: "/api/admin/users", summary: "Create a staff user with a password (stored as a bcrypt hash)",
    permission: "users.write", input: createUserInput, output: userReplySchema, audit: { target: (i) => i.email }, errors: ["email_taken"],
  }),
  update: defineResource({
    id: "users.update", method: "PATCH", path: "/api/admin/users/{id}",
    summary: "Change a staff user's role, name or whether they are disabled (a role change or disabling ends their sessions)",
    permission: "users.write", input: updateUserInput, output: userReplySchema,
    audit: { action: (i) => (i.disabled === true ? "users.disable" : "users.update"), target: byId },
    // Changing a role asks the admin for a fresh second factor (issue 12 item 2).
    freshFactor: (i) => i.role !== undefined,
    errors: ["not_found", "cannot_disable_self", "last_admin", "mfa_stale"],
  }),
  resetPassword: defineResource({
    id: "users.reset-password", method: "POST", path: "/api/admin/users/{id}/password",
    summary: "Set a staff user's password (ends their sessions)",
    permission: "users.write", input: resetPasswordInput, output: userReplySchema, audit: { target: byId }, freshFactor: true,
    errors: ["not_found", "mfa_stale"],
  }),
  resetFactors: defineResource({
    id: "users.reset-factors", method: "POST", path: "/api/admin/users/{id}/factors/reset",
    summary: "Remove every second factor and recovery code of a staff user (ends their sessions; they are told at their next sign-in)",
    permission: "users.write", output: userReplySchema, audit: { target: byId }, freshFactor: true, errors: ["not_found", "mfa_stale"],
  }),
} as const;
