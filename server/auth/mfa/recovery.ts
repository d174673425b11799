import "server-only";
// One-time recovery codes: ten per user, shown once, stored as HMACs (crypto.ts). A code is spent by one
// guarded UPDATE (… AND used_at IS NULL), so of two uses of the same code, even at the same moment, one wins.
import { randomBytes } from "node:crypto";
import type { Queryable } from "@/server/db";
import { keyedHash } from "./crypto";

export const RECOVERY_CODE_COUNT = 10;
// Crockford-style base32 without look-alikes (no i, l, o, u): 12 characters = 60 bits per code.
const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

/** "xxxx-xxxx-xxxx". */
export function newRecoveryCode(): string {
  const bytes = randomBytes(12);
  let s = "";
  for (const b of bytes) s += ALPHABET[b & 31];
  return `${s.slice(0, 4)}-${s.slice(4, 8)}-${s.slice(8, 12)}`;
}

/** As typed: case, spaces and dashes do not matter; null when it cannot be a code. */
export function normaliseRecoveryCode(code: string): string | null {
  const c = code.toLowerCase().replace(/[\s-]+/g, "");
  if (!/^[0-9a-z]{12}$/.test(c)) return null;
  return `${c.slice(0, 4)}-${c.slice(4, 8)}-${c.slice(8, 12)}`;
}

/** Replaces the user's codes with ten new ones and returns them (the only time they are readable). */
export async function replaceRecoveryCodes(db: Queryable, userId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await db.query("DELETE FROM staff_recovery_codes WHERE user_id = $1", [userId]);
  for (const code of codes) {
    await db.query("INSERT INTO staff_recovery_codes (user_id, code_hash) VALUES ($1, $2)", [
      userId,
      keyedHash("recovery-code", code),
    ]);
  }
  return codes;
}

/** Spends a code: true once, false for a wrong or already used code. */
export async function spendRecoveryCode(db: Queryable, userId: string, typed: string): Promise<boolean> {
  const code = normaliseRecoveryCode(typed);
  if (!code) return false;
  const { rows } = await db.query<{ id: string }>(
    "UPDATE staff_recovery_codes SET used_at = now() WHERE user_id = $1 AND code_hash = $2 AND used_at IS " +
      "NULL RETURNING id",
    [userId, keyedHash("recovery-code", code)],
  );
  return rows.length === 1;
}

export async function recoveryCodesLeft(db: Queryable, userId: string): Promise<number> {
  const { rows } = await db.query<{ n: number | string }>(
    "SELECT count(*) AS n FROM staff_recovery_codes WHERE user_id = $1 AND used_at IS NULL",
    [userId],
  );
  return Number(rows[0]?.n ?? 0);
}
