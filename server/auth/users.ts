import "server-only";
import { randomBytes } from "node:crypto";
import type * as z from "zod/mini";
import { DomainError, fieldErrorsOf, invalidFields } from "@/lib/api/errors";
import {
  changeOwnPasswordInput,
  createUserInput,
  resetPasswordInput,
  updateUserInput,
  type ApproverHold,
  type CreateUserInput,
  type StaffUser,
  type UpdateUserInput,
} from "@/lib/api/admin/users";
import { env } from "@/lib/env";
import { can, DECISION_PERMISSIONS, ROLES, type Role } from "@/lib/rbac";
import type { Db, Queryable } from "@/server/db";
import { hashPassword, refuseGuessable, verifyPassword } from "./passwords";

export type { CreateUserInput, StaffUser, UpdateUserInput };

const staffUserNotFound = () => new DomainError("not_found", "No staff user with this id");

// The demo staff and their seeding live in ./demo-users; imported from here as before.
export { DEMO_DOMAIN, DEMO_PASSWORD, DEMO_USERS, isDemoEmail, seedDemoUsers } from "./demo-users";
import { DEMO_DOMAIN, isDemoEmail } from "./demo-users";
import { isUuid } from "@/lib/uuid";

type Mode = "simulator" | "live";

// ---- rows ----

/** Server-side only: the row with its hash, for sign-in. */
export type StaffUserRecord = StaffUser & { passwordHash: string | null };

type Row = {
  id: string;
  email: string;
  name: string | null;
  role: string;
  password_hash: string | null;
  disabled: boolean;
  session_version: number;
  created_at: Date | string;
  updated_at: Date | string;
  last_sign_in_at: Date | string | null;
  approver_hold: string | null;
  approver_hold_at: Date | string | null;
  approver_hold_by: string | null;
  password_changed_at: Date | string | null;
  factors: number | string;
  mfa_reset_at: Date | string | null;
};

const COLUMNS =
  "id, email, name, role, password_hash, disabled, session_version, created_at, updated_at, last_sign_in_at, " +
  "approver_hold, approver_hold_at, approver_hold_by, password_changed_at, mfa_reset_at, " +
  "(SELECT count(*) FROM staff_factors f WHERE f.user_id = staff_users.id AND f.confirmed_at IS NOT NULL) AS factors";
const iso = (v: Date | string) => new Date(v).toISOString();

function toRecord(r: Row): StaffUserRecord {
  return {
    id: r.id,
    email: r.email,
    name: r.name,
    role: r.role as Role, // the table's CHECK constraint admits ROLES only
    disabled: r.disabled,
    hasPassword: r.password_hash !== null,
    sessionVersion: Number(r.session_version),
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
    lastSignInAt: r.last_sign_in_at === null ? null : iso(r.last_sign_in_at),
    approverHold:
      r.approver_hold && r.approver_hold_at
        ? { reason: r.approver_hold as ApproverHold["reason"], at: iso(r.approver_hold_at), by: r.approver_hold_by }
        : null,
    passwordChangedAt: r.password_changed_at === null ? null : iso(r.password_changed_at),
    factors: Number(r.factors),
    mfaResetAt: r.mfa_reset_at === null ? null : iso(r.mfa_reset_at),
    passwordHash: r.password_hash,
  };
}

export function toPublicUser(r: StaffUserRecord): StaffUser {
  const { passwordHash: _omit, ...user } = r;
  void _omit;
  return user;
}

function parseOrThrow<S extends z.ZodMiniType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw invalidFields(fieldErrorsOf(parsed.error));
}

// ---- queries ----

export async function listUsers(db: Queryable): Promise<StaffUser[]> {
  const { rows } = await db.query<Row>(`SELECT ${COLUMNS} FROM staff_users ORDER BY email`);
  return rows.map((r) => toPublicUser(toRecord(r)));
}

export async function findUserByEmail(db: Queryable, email: string): Promise<StaffUserRecord | null> {
  const { rows } = await db.query<Row>(`SELECT ${COLUMNS} FROM staff_users WHERE email = $1`, [
    email.trim().toLowerCase(),
  ]);
  return rows[0] ? toRecord(rows[0]) : null;
}

export async function findUserById(db: Queryable, id: string): Promise<StaffUserRecord | null> {
  // A malformed id is simply not found (PostgreSQL would otherwise raise on the uuid cast).
  if (!isUuid(id)) return null;
  const { rows } = await db.query<Row>(`SELECT ${COLUMNS} FROM staff_users WHERE id = $1`, [id]);
  return rows[0] ? toRecord(rows[0]) : null;
}

/** The e-mails of these staff ids (what the audit log shows beside an id); ids that are no UUID are left out. */
export async function staffEmailsById(db: Queryable, ids: readonly string[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter(isUuid).map((id) => id.toLowerCase()))];
  if (!wanted.length) return new Map();
  const { rows } = await db.query<{ id: string; email: string }>(
    "SELECT id::text AS id, email FROM staff_users WHERE id = ANY($1::uuid[])",
    [wanted],
  );
  return new Map(rows.map((u) => [u.id, u.email]));
}

/**
 * What the per-request session check needs of the staff row, nothing more (it runs on every request),
 * whether the token `jti` was signed out, and whether the account has a second factor (one query).
 */
export type SessionUser = Pick<StaffUserRecord, "id" | "email" | "name" | "role" | "disabled" | "sessionVersion"> & {
  signedOut: boolean;
  hasFactors: boolean;
  /** An admin set the password (a reset) and its holder has not changed it since: nothing else until they do. */
  mustChangePassword: boolean;
};

export async function findSessionUser(db: Queryable, id: string, jti = ""): Promise<SessionUser | null> {
  if (!isUuid(id)) return null;
  // Whether the account has a factor is read here too (one indexed EXISTS), so a factor added or reset
  // elsewhere changes what this session may do at its next request.
  const { rows } = await db.query<
    Pick<Row, "id" | "email" | "name" | "role" | "disabled" | "session_version"> & {
      signed_out: boolean;
      has_factors: boolean;
      must_change: boolean;
    }
  >(
    `SELECT id, email, name, role, disabled, session_version,
            (approver_hold = 'password-set-by-admin' AND (password_changed_at IS NULL
              OR password_changed_at < approver_hold_at)) IS TRUE AS must_change,
            EXISTS (SELECT 1 FROM revoked_sessions WHERE jti = $2) AS signed_out,
            EXISTS (SELECT 1 FROM staff_factors f WHERE f.user_id = staff_users.id
              AND f.confirmed_at IS NOT NULL) AS has_factors
       FROM staff_users WHERE id = $1`,
    [id, jti],
  );
  const r = rows[0];
  return r
    ? {
        id: r.id,
        email: r.email,
        name: r.name,
        role: r.role as Role,
        disabled: r.disabled,
        sessionVersion: Number(r.session_version),
        signedOut: r.signed_out,
        hasFactors: r.has_factors,
        mustChangePassword: r.must_change,
      }
    : null;
}

/**
 * Sign-out: the token's id is refused by every instance until the token would have expired anyway.
 * Expired entries are swept on the way.
 */
export async function revokeSession(
  db: Queryable,
  session: { jti: string; userId: string | null; expiresAt: number },
): Promise<void> {
  await db.query(`DELETE FROM revoked_sessions WHERE expires_at < now()`);
  await db.query(
    `INSERT INTO revoked_sessions (jti, user_id, expires_at) VALUES ($1, $2, $3) ON CONFLICT (jti) DO NOTHING`,
    [
      session.jti,
      session.userId && isUuid(session.userId) ? session.userId : null,
      new Date(session.expiresAt).toISOString(),
    ],
  );
}

/**
 * A new staff account, made by an admin (the admin page) or an operator (`npm run user:add`): whoever
 * made it chose its password, so it is on approver hold until its holder changes that password
 * (separation of duties). `actor` is who made it, kept on the hold and shown to the leads.
 */
export async function createUser(
  db: Queryable,
  input: CreateUserInput,
  opts: { mode?: Mode; actor?: string } = {},
): Promise<StaffUser> {
  const data = parseOrThrow(createUserInput, input);
  if ((opts.mode ?? env.mode) === "live" && isDemoEmail(data.email)) {
    throw invalidFields({
      email: [`The ${DEMO_DOMAIN} domain is reserved for the simulator's demo staff`],
    });
  }
  await refuseGuessable("password", data.password, [data.email, data.name]);
  const hash = await hashPassword(data.password);
  const { rows } = await db.query<Row>(
    `INSERT INTO staff_users (email, name, role, password_hash, approver_hold, approver_hold_at, approver_hold_by)
     VALUES ($1, $2, $3, $4, 'created-by-admin', now(), $5)
     ON CONFLICT (email) DO NOTHING RETURNING ${COLUMNS}`,
    [data.email, data.name, data.role, hash, opts.actor ?? null],
  );
  if (!rows[0]) {
    throw new DomainError("email_taken", "A staff user with this e-mail already exists", {
      email: ["A staff user with this e-mail already exists"],
    });
  }
  return toPublicUser(toRecord(rows[0]));
}

/**
 * Changes role, disabled or name. A change of role or of disabled bumps session_version, so the
 * user's existing sessions end at their next request. Refuses (409) an admin disabling themself and
 * any change that would leave no enabled admin.
 */
export async function updateUser(
  db: Db,
  id: string,
  patch: UpdateUserInput,
  opts: { actorId?: string; actor?: string } = {},
): Promise<StaffUser> {
  const data = parseOrThrow(updateUserInput, patch);
  return db.transaction(async (tx) => {
    const current = await lockUser(tx, id);
    if (opts.actorId === id && data.disabled === true && !current.disabled) {
      throw new DomainError("cannot_disable_self", "You cannot disable your own account: ask another admin");
    }
    const role = data.role ?? current.role;
    const disabled = data.disabled ?? current.disabled;
    const name = data.name === undefined ? current.name : data.name;
    const wasActiveAdmin = current.role === "admin" && !current.disabled;
    if (wasActiveAdmin && (role !== "admin" || disabled)) await assertAnotherAdmin(tx, id);
    const bump = role !== current.role || disabled !== current.disabled ? 1 : 0;
    // Promoted into a role that decides something it could not (approves withdrawals, publishes the policy,
    // activates or retires rules, clears holds; an admin too): on hold, as a new account is (separation of duties).
    const promoted = role !== current.role && DECISION_PERMISSIONS.some((p) => can(role, p) && !can(current.role, p));
    const { rows } = await tx.query<Row>(
      `UPDATE staff_users SET role = $2, disabled = $3, name = $4, session_version = session_version + $5,
         updated_at = now(),
              approver_hold = CASE WHEN $6 THEN 'promoted-by-admin' ELSE approver_hold END,
              approver_hold_at = CASE WHEN $6 THEN now() ELSE approver_hold_at END,
              approver_hold_by = CASE WHEN $6 THEN $7 ELSE approver_hold_by END
       WHERE id = $1 RETURNING ${COLUMNS}`,
      [id, role, disabled, name, bump, promoted, opts.actor ?? null],
    );
    return toPublicUser(toRecord(rows[0]!));
  });
}

/**
 * An admin resets someone's password to a one-time password Brokerdesk makes up (shown to the admin once,
 * never stored in clear or audited): the holder must change it at their next sign-in.
 */
export async function resetToOneTimePassword(
  db: Queryable,
  id: string,
  opts: { actor?: string } = {},
): Promise<{ user: StaffUser; oneTimePassword: string }> {
  const oneTimePassword = randomBytes(15).toString("base64url");
  return { user: await setPasswordByAdmin(db, id, oneTimePassword, opts.actor), oneTimePassword };
}

/**
 * An admin sets someone's password (refused when easy to guess, the holder's e-mail and name among the guesses):
 * their sessions end, and the account is on approver hold until its holder sets one of their own.
 */
export async function resetPassword(
  db: Queryable,
  id: string,
  newPassword: string,
  opts: { actor?: string } = {},
): Promise<StaffUser> {
  const { password } = parseOrThrow(resetPasswordInput, { password: newPassword });
  const holder = await findUserById(db, id);
  if (!holder) throw staffUserNotFound();
  await refuseGuessable("password", password, [holder.email, holder.name]);
  return setPasswordByAdmin(db, id, password, opts.actor);
}

async function setPasswordByAdmin(
  db: Queryable,
  id: string,
  password: string,
  actor: string | undefined,
): Promise<StaffUser> {
  if (!isUuid(id)) throw staffUserNotFound();
  const { rows } = await db.query<Row>(
    `UPDATE staff_users SET password_hash = $2, session_version = session_version + 1, updated_at = now(),
            approver_hold = 'password-set-by-admin', approver_hold_at = now(), approver_hold_by = $3
     WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, await hashPassword(password), actor ?? null],
  );
  if (!rows[0]) throw staffUserNotFound();
  return toPublicUser(toRecord(rows[0]));
}

/**
 * A staff member changes their own password, the current one being right. Every session of theirs ends (this one
 * too), and the change lifts an approver hold once the cool-off has passed (server/auth/approver-standing.ts).
 */
export async function changeOwnPassword(db: Db, id: string, input: unknown): Promise<void> {
  const data = parseOrThrow(changeOwnPasswordInput, input);
  await db.transaction(async (tx) => {
    const current = await lockUser(tx, id);
    if (!current.passwordHash || !(await verifyPassword(data.currentPassword, current.passwordHash))) {
      throw new DomainError("wrong_password", "The current password is not right", {
        currentPassword: ["The current password is not right"],
      });
    }
    if (await verifyPassword(data.newPassword, current.passwordHash)) {
      throw invalidFields({ newPassword: ["Choose a password different from the current one"] });
    }
    await refuseGuessable("newPassword", data.newPassword, [current.email, current.name]);
    await tx.query(
      `UPDATE staff_users SET password_hash = $2, password_changed_at = now(), session_version = session_version + 1,
         updated_at = now()
       WHERE id = $1`,
      [id, await hashPassword(data.newPassword)],
    );
  });
}

/** Every enabled account whose role approves withdrawals, for the leads' view of who may approve. */
export async function listApprovers(db: Queryable): Promise<StaffUser[]> {
  const roles = ROLES.filter((r) => can(r, "withdrawals.approve"));
  const { rows } = await db.query<Row>(
    `SELECT ${COLUMNS} FROM staff_users WHERE NOT disabled AND role = ANY($1) ORDER BY email`,
    [roles],
  );
  return rows.map((r) => toPublicUser(toRecord(r)));
}

export async function recordSignIn(db: Queryable, id: string): Promise<void> {
  await db.query(`UPDATE staff_users SET last_sign_in_at = now() WHERE id = $1`, [id]);
}

async function lockUser(tx: Queryable, id: string): Promise<StaffUserRecord> {
  if (!isUuid(id)) throw staffUserNotFound();
  const { rows } = await tx.query<Row>(`SELECT ${COLUMNS} FROM staff_users WHERE id = $1 FOR UPDATE`, [id]);
  if (!rows[0]) throw staffUserNotFound();
  return toRecord(rows[0]);
}

async function assertAnotherAdmin(tx: Queryable, id: string): Promise<void> {
  // Locking every enabled admin row serialises two admins demoting each other at the same moment.
  const { rows } = await tx.query<{ id: string }>(
    `SELECT id FROM staff_users WHERE role = 'admin' AND NOT disabled FOR UPDATE`,
  );
  if (!rows.some((r) => r.id !== id)) {
    throw new DomainError("last_admin", "This is the last enabled admin: make another admin first");
  }
}
