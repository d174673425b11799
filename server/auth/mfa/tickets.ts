import "server-only";
// Short-lived, single-use server state of the factor step, in the database so any instance can take it:
// - a WebAuthn challenge (registration or authentication), five minutes, one live per user and purpose;
// - a factor proof: what a verified factor hands the browser, redeemed once by next-auth's session update
//   (the jwt callback, trigger "update") within two minutes. Only its HMAC is stored.
import type { Queryable } from "@/server/db";
import { keyedHash, randomToken } from "./crypto";
import type { MfaMethod } from "./policy";

const CHALLENGE_TTL_S = 300;
const PROOF_TTL_S = 120;

export type ChallengePurpose = "passkey-register" | "passkey-verify";

export async function saveChallenge(
  db: Queryable,
  userId: string,
  purpose: ChallengePurpose,
  challenge: string,
): Promise<void> {
  await db.query("DELETE FROM staff_mfa_tickets WHERE user_id = $1 AND (purpose = $2 OR expires_at < now())", [
    userId,
    purpose,
  ]);
  await db.query(
    `INSERT INTO staff_mfa_tickets (user_id, purpose, secret, expires_at) VALUES ($1, $2, $3, now() + ` +
      `make_interval(secs => $4))`,
    [userId, purpose, challenge, CHALLENGE_TTL_S],
  );
}

/** The live challenge, taken (deleted) so it answers once; null when there is none or it expired. */
export async function takeChallenge(db: Queryable, userId: string, purpose: ChallengePurpose): Promise<string | null> {
  const { rows } = await db.query<{ secret: string; live: boolean }>(
    `DELETE FROM staff_mfa_tickets WHERE user_id = $1 AND purpose = $2 RETURNING secret, expires_at > now() AS live`,
    [userId, purpose],
  );
  return rows.find((r) => r.live)?.secret ?? null;
}

/** A proof that `method` was verified for this user just now; the browser carries it to the session update. */
export async function issueProof(db: Queryable, userId: string, method: Exclude<MfaMethod, "idp">): Promise<string> {
  const proof = randomToken();
  await db.query("DELETE FROM staff_mfa_tickets WHERE user_id = $1 AND expires_at < now()", [userId]);
  await db.query(
    `INSERT INTO staff_mfa_tickets (user_id, purpose, secret, method, expires_at) VALUES ($1, 'proof', $2, ` +
      `$3, now() + make_interval(secs => $4))`,
    [userId, keyedHash("factor-proof", proof), method, PROOF_TTL_S],
  );
  return proof;
}

/** Redeems a proof once, for its own user only: the method it proves, or null. */
export async function redeemProof(
  db: Queryable,
  userId: string,
  proof: unknown,
): Promise<Exclude<MfaMethod, "idp"> | null> {
  if (typeof proof !== "string" || !/^[A-Za-z0-9_-]{43}$/.test(proof)) return null;
  const { rows } = await db.query<{ method: Exclude<MfaMethod, "idp">; live: boolean }>(
    `DELETE FROM staff_mfa_tickets WHERE user_id = $1 AND purpose = 'proof' AND secret = $2 RETURNING ` +
      `method, expires_at > now() AS live`,
    [userId, keyedHash("factor-proof", proof)],
  );
  const row = rows[0];
  return row?.live ? row.method : null;
}
