import "server-only";
import { randomBytes } from "node:crypto";
import bcrypt from "bcryptjs";

/** bcrypt work factor: ~0.3 s per hash on this class of machine, slow enough to make guessing expensive. */
export const BCRYPT_COST = 12;

/** bcrypt reads only the first 72 bytes; longer passwords are refused rather than silently truncated. */
export const PASSWORD_MAX_BYTES = 72;
export const PASSWORD_MIN_LENGTH = 12;

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, BCRYPT_COST);
}

export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  try {
    return await bcrypt.compare(password, hash);
  } catch {
    // A malformed stored hash is a failed sign-in, not a crash of the sign-in endpoint.
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Runs one full bcrypt comparison against a throw-away hash and returns false, so a sign-in with an
 * unknown e-mail (or an SSO-only account) takes as long as one with a wrong password.
 */
export async function dummyVerify(password: string): Promise<false> {
  dummyHash ??= bcrypt.hash(randomBytes(18).toString("base64"), BCRYPT_COST);
  await verifyPassword(password, await dummyHash);
  return false;
}

/** A strong random password for the CLI (24 characters of base64url: 144 bits). */
export function generatePassword(): string {
  return randomBytes(18).toString("base64url");
}

export function passwordTooLong(password: string): boolean {
  return Buffer.byteLength(password, "utf8") > PASSWORD_MAX_BYTES;
}
