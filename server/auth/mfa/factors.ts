import "server-only";
// A staff member's second factors in the database: TOTP apps (secret sealed, crypto.ts) and passkeys
// (passkeys.ts verifies them), what the security page shows, removal, and the admin's reset.
import { randomUUID } from "node:crypto";
import { DomainError, invalidField } from "@/lib/api/errors";
import type { FactorView, MfaStatus } from "@/lib/api/account/mfa";
import { getDb, type Db, type Queryable } from "@/server/db";
import { openTotpSecret, sealTotpSecret } from "./crypto";
import type { MfaSession } from "./policy";
import { recoveryCodesLeft, replaceRecoveryCodes } from "./recovery";
import { newTotpSecret, totpQrDataUrl, totpUri, verifyTotp } from "./totp";
import { isUuid } from "@/lib/uuid";

/** Enough for an app or two and a few keys; more is a sign of something else. */
export const MAX_FACTORS = 10;

type FactorRow = {
  id: string;
  kind: "totp" | "passkey";
  label: string;
  created_at: Date | string;
  last_used_at: Date | string | null;
};
const iso = (v: Date | string) => new Date(v).toISOString();

export function toFactorView(r: FactorRow): FactorView {
  return {
    id: r.id,
    kind: r.kind,
    label: r.label,
    createdAt: iso(r.created_at),
    lastUsedAt: r.last_used_at === null ? null : iso(r.last_used_at),
  };
}

export async function listFactors(db: Queryable, userId: string): Promise<FactorView[]> {
  const { rows } = await db.query<FactorRow>(
    `SELECT id, kind, label, created_at,
       last_used_at FROM staff_factors WHERE user_id = $1 AND confirmed_at IS NOT NULL ORDER BY created_at, id`,
    [userId],
  );
  return rows.map(toFactorView);
}

/** Which kinds of factor a staff member has confirmed: what the sign-in's factor step offers them. */
export async function factorKindsOf(userId: string): Promise<{ totp: boolean; passkey: boolean }> {
  const factors = await listFactors(await getDb(), userId);
  return { totp: factors.some((f) => f.kind === "totp"), passkey: factors.some((f) => f.kind === "passkey") };
}

export async function countFactors(db: Queryable, userId: string): Promise<number> {
  const { rows } = await db.query<{ n: number | string }>(
    "SELECT count(*) AS n FROM staff_factors WHERE user_id = $1 AND confirmed_at IS NOT NULL",
    [userId],
  );
  return Number(rows[0]?.n ?? 0);
}

export async function assertRoomForFactor(db: Queryable, userId: string): Promise<void> {
  if ((await countFactors(db, userId)) >= MAX_FACTORS) {
    throw new DomainError("too_many_factors", `You have ${MAX_FACTORS} factors already: remove one first`);
  }
}

export async function mfaStatus(db: Queryable, userId: string, mfa: MfaSession, freshMs: number): Promise<MfaStatus> {
  const [factors, left, user] = await Promise.all([
    listFactors(db, userId),
    recoveryCodesLeft(db, userId),
    db.query<{ mfa_reset_at: Date | string | null; mfa_reset_by: string | null }>(
      "SELECT mfa_reset_at, mfa_reset_by FROM staff_users WHERE id = $1",
      [userId],
    ),
  ]);
  const reset = user.rows[0];
  return {
    state: mfa.state,
    required: mfa.required,
    verifiedAt: mfa.at === null ? null : new Date(mfa.at).toISOString(),
    method: mfa.method,
    freshSeconds: Math.round(freshMs / 1000),
    factors,
    recoveryCodesLeft: left,
    resetAt: reset?.mfa_reset_at ? iso(reset.mfa_reset_at) : null,
    resetBy: reset?.mfa_reset_by ?? null,
  };
}

// ---- TOTP ----

/** A new, unconfirmed TOTP factor (any earlier unconfirmed one of this user is dropped). */
export async function startTotp(db: Queryable, user: { id: string; email: string }, label: string) {
  await assertRoomForFactor(db, user.id);
  const secret = newTotpSecret();
  const id = randomUUID();
  await db.query("DELETE FROM staff_factors WHERE user_id = $1 AND kind = 'totp' AND confirmed_at IS NULL", [user.id]);
  await db.query(
    `INSERT INTO staff_factors (id, user_id, kind, label, totp_secret_enc) VALUES ($1, $2, 'totp', $3, $4)`,
    [id, user.id, label, sealTotpSecret(secret, id)],
  );
  const uri = totpUri(secret, user.email);
  return { factorId: id, secret, secretUri: uri, secretQr: await totpQrDataUrl(uri) };
}

type TotpRow = { id: string; totp_secret_enc: string; totp_last_step: string | number | null };

/** Accepts the code for this TOTP factor's step once: records the step, so the same code is refused after. */
async function acceptCode(db: Queryable, row: TotpRow, otp: string, now: number): Promise<boolean> {
  const last = row.totp_last_step === null ? null : Number(row.totp_last_step);
  const step = await verifyTotp(openTotpSecret(row.totp_secret_enc, row.id), otp, { now, afterStep: last });
  if (step === null) return false;
  // Guarded: two requests with the same code at once both pass verify(), only one moves the step.
  const { rows } = await db.query(
    `UPDATE staff_factors SET totp_last_step = $2,
       last_used_at = now() WHERE id = $1 AND (totp_last_step IS NULL OR totp_last_step < $2) RETURNING id`,
    [row.id, step],
  );
  return rows.length === 1;
}

/**
 * Confirms a started TOTP factor with a code from the app. The first factor of an account also gets ten
 * recovery codes, returned here only.
 */
export async function confirmTotp(
  db: Db,
  userId: string,
  factorId: string,
  otp: string,
  now = Date.now(),
): Promise<{ factor: FactorView; recoverySecrets: string[] | null }> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<TotpRow>(
      `SELECT id, totp_secret_enc,
         totp_last_step FROM staff_factors WHERE id = $1 AND user_id = $2 AND kind = 'totp'
         AND confirmed_at IS NULL FOR UPDATE`,
      [factorId, userId],
    );
    const row = rows[0];
    if (!row) throw new DomainError("not_found", "No authenticator app is waiting to be confirmed: start again");
    if (!(await acceptCode(tx, row, otp, now)))
      throw invalidField("otp", "The code is not right: type the code your app shows now");
    const first = (await countFactors(tx, userId)) === 0;
    const { rows: done } = await tx.query<FactorRow>(
      `UPDATE staff_factors SET confirmed_at = now() WHERE id = $1 RETURNING id, kind, label, created_at, last_used_at`,
      [factorId],
    );
    return { factor: toFactorView(done[0]!), recoverySecrets: first ? await replaceRecoveryCodes(tx, userId) : null };
  });
}

/** A code of any of the user's TOTP apps, each code once. */
export async function verifyTotpFactor(db: Queryable, userId: string, otp: string, now = Date.now()): Promise<boolean> {
  const { rows } = await db.query<TotpRow>(
    `SELECT id, totp_secret_enc,
       totp_last_step FROM staff_factors WHERE user_id = $1 AND kind = 'totp' AND confirmed_at IS NOT NULL
       ORDER BY created_at`,
    [userId],
  );
  for (const row of rows) if (await acceptCode(db, row, otp, now)) return true;
  return false;
}

// ---- removal and reset ----

/**
 * Removes one factor; the last one goes with the recovery codes. Refused for the last one when the role must have one.
 */
export async function removeFactor(
  db: Db,
  userId: string,
  factorId: string,
  opts: { required: boolean },
): Promise<{ removed: string; factorsLeft: number }> {
  if (!isUuid(factorId)) throw new DomainError("not_found", "No such factor");
  return db.transaction(async (tx) => {
    // Lock the user's factors so two removals at once cannot both leave "one more".
    const { rows } = await tx.query<{ id: string }>(
      "SELECT id FROM staff_factors WHERE user_id = $1 AND confirmed_at IS NOT NULL FOR UPDATE",
      [userId],
    );
    if (!rows.some((r) => r.id === factorId)) throw new DomainError("not_found", "No such factor");
    if (rows.length === 1 && opts.required) {
      throw new DomainError("last_factor", "Your role must have a second factor: add another before removing this one");
    }
    await tx.query("DELETE FROM staff_factors WHERE id = $1 AND user_id = $2", [factorId, userId]);
    if (rows.length === 1) await tx.query("DELETE FROM staff_recovery_codes WHERE user_id = $1", [userId]);
    return { removed: factorId, factorsLeft: rows.length - 1 };
  });
}

/**
 * The admin's reset: every factor, recovery code and pending challenge of the user goes, their sessions end
 * (session_version), and the time and the admin are kept so the user is told at a page they open. The
 * account goes on approver hold (server/auth/approver-standing.ts), as after an admin-set password: with
 * the password alone, anyone could enrol a factor and approve at once. A password hold still waiting for
 * its holder's own password is kept (it is the stricter), its clock moved to now.
 */
export async function resetFactors(db: Db, userId: string, by: string): Promise<{ removed: number }> {
  if (!isUuid(userId)) throw new DomainError("not_found", "No staff user with this id");
  return db.transaction(async (tx) => {
    const { rows: user } = await tx.query(
      `UPDATE staff_users SET mfa_reset_at = now(), mfa_reset_by = $2, mfa_reset_seen_at = NULL,
        session_version = session_version + 1, updated_at = now(),
              approver_hold = CASE
                WHEN approver_hold IN ('created-by-admin', 'promoted-by-admin', 'password-set-by-admin')
                  AND password_hash IS NOT NULL
                     AND (password_changed_at IS NULL OR password_changed_at <= approver_hold_at) THEN approver_hold
                ELSE 'factors-reset-by-admin' END,
              approver_hold_at = now(), approver_hold_by = $2
       WHERE id = $1 RETURNING id`,
      [userId, by],
    );
    if (!user[0]) throw new DomainError("not_found", "No staff user with this id");
    const { rows } = await tx.query("DELETE FROM staff_factors WHERE user_id = $1 RETURNING confirmed_at", [userId]);
    await tx.query("DELETE FROM staff_recovery_codes WHERE user_id = $1", [userId]);
    await tx.query("DELETE FROM staff_mfa_tickets WHERE user_id = $1", [userId]);
    return { removed: rows.filter((r) => (r as { confirmed_at: unknown }).confirmed_at !== null).length };
  });
}

/**
 * At sign-in: an admin's reset this user has not seen yet, or null. Only read: signing in (a script, or
 * someone holding the password) does not use it up; it stays until a page showing it reaches its holder
 * (markResetNoticeSeen).
 */
export async function pendingResetNotice(
  db: Queryable,
  userId: string,
): Promise<{ at: string; by: string | null } | null> {
  const { rows } = await db.query<{ mfa_reset_at: Date | string; mfa_reset_by: string | null }>(
    `SELECT mfa_reset_at, mfa_reset_by FROM staff_users
     WHERE id = $1 AND mfa_reset_at IS NOT NULL AND (mfa_reset_seen_at IS NULL OR mfa_reset_seen_at < mfa_reset_at)`,
    [userId],
  );
  const r = rows[0];
  return r ? { at: iso(r.mfa_reset_at), by: r.mfa_reset_by } : null;
}

/**
 * A page that shows the reset notice to its holder marks that reset seen. Guarded by the reset's time, so
 * seeing an older notice never hides a newer reset (the time shown is to the millisecond, the stored one finer).
 * True when this call marked it.
 */
export async function markResetNoticeSeen(db: Queryable, userId: string, at: string): Promise<boolean> {
  if (!isUuid(userId)) return false;
  const { rows } = await db.query(
    `UPDATE staff_users SET mfa_reset_seen_at = mfa_reset_at
     WHERE id = $1 AND mfa_reset_at < $2::timestamptz + interval '1 millisecond'
       AND (mfa_reset_seen_at IS NULL OR mfa_reset_seen_at < mfa_reset_at)
     RETURNING id`,
    [userId, at],
  );
  return rows.length === 1;
}

/**
 * The page frame showed its holder the reset notice of `at`: the same as markResetNoticeSeen, on the app's database.
 */
export async function resetNoticeShown(userId: string, at: string): Promise<boolean> {
  return markResetNoticeSeen(await getDb(), userId, at);
}
