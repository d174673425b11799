import "server-only";
import { randomBytes } from "node:crypto";
import bcrypt from "bcryptjs";
import { env } from "@/lib/env";

/**
 * bcrypt work factor of new hashes: 12 (~0.3 s per hash on this class of machine, slow enough to make guessing
 * expensive) unless PASSWORD_HASH_COST says; lib/env.js allows less only in simulator mode, for the test suites,
 * which sign in hundreds of times (each cost-12 comparison is a third of a second of CPU in pure JavaScript).
 */
export const BCRYPT_COST: number = env.passwordHashCost;

// The length rules are the API's (lib/api/users.ts), so the admin page's form refuses what the server would.
export { PASSWORD_MAX_BYTES, PASSWORD_MIN_LENGTH, passwordTooLong } from "@/lib/api/users";

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
