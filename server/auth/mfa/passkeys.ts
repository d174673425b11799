import "server-only";
// Passkeys (WebAuthn) with @simplewebauthn/server: registration and authentication options with a fresh
// challenge kept server-side (tickets.ts), and the browser's responses verified against that challenge, this
// site's origin and RP ID, and, for authentication, the stored public key and signature counter.
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { DomainError, invalidField } from "@/lib/api/errors";
import type { FactorView } from "@/lib/api/account/mfa";
import type { Db, Queryable } from "@/server/db";
import { logger } from "@/server/log";
import { assertRoomForFactor, countFactors, toFactorView } from "./factors";
import { replaceRecoveryCodes } from "./recovery";
import { saveChallenge, takeChallenge } from "./tickets";

export const RP_NAME = "Brokerdesk";

/** The site a ceremony runs for: the page's origin (checked by the caller to be this site) and its host name. */
export type Site = { origin: string; rpID: string };

type PasskeyRow = {
  id: string;
  credential_id: string;
  public_key: string;
  counter: string | number;
  transports: string | null;
};

/** WebAuthn options as JSON for the browser (@simplewebauthn/browser's optionsJSON). */
export type CeremonyOptions = { challenge: string } & Record<string, unknown>;

const transportsOf = (t: string | null) => (t ? (t.split(",").filter(Boolean) as AuthenticatorTransport[]) : undefined);

export async function registrationOptions(
  db: Queryable,
  user: { id: string; email: string; name: string | null },
  site: Site,
): Promise<CeremonyOptions> {
  await assertRoomForFactor(db, user.id);
  const { rows } = await db.query<Pick<PasskeyRow, "credential_id" | "transports">>(
    "SELECT credential_id, transports FROM staff_factors WHERE user_id = $1 AND kind = 'passkey'",
    [user.id],
  );
  const options = await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: site.rpID,
    userName: user.email,
    userDisplayName: user.name ?? user.email,
    // The staff row's id, not the e-mail: the authenticator keeps it.
    userID: new TextEncoder().encode(user.id),
    attestationType: "none",
    excludeCredentials: rows.map((r) => ({ id: r.credential_id, transports: transportsOf(r.transports) })),
    authenticatorSelection: { residentKey: "preferred", userVerification: "required" },
  });
  await saveChallenge(db, user.id, "passkey-register", options.challenge);
  return { ...options };
}

export async function addPasskey(
  db: Db,
  userId: string,
  label: string,
  response: unknown,
  site: Site,
): Promise<{ factor: FactorView; recoverySecrets: string[] | null }> {
  const expectedChallenge = await takeChallenge(db, userId, "passkey-register");
  if (!expectedChallenge)
    throw new DomainError("not_found", "No passkey registration is under way (or it took over 5 minutes): start again");
  let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verified = await verifyRegistrationResponse({
      response: response as RegistrationResponseJSON,
      expectedChallenge,
      expectedOrigin: site.origin,
      expectedRPID: site.rpID,
      requireUserVerification: true,
    });
  } catch (e) {
    logger.info({ err: e instanceof Error ? e.message : String(e) }, "passkey registration not verified");
    throw invalidField("credential", "The passkey could not be verified: try again");
  }
  if (!verified.verified) throw invalidField("credential", "The passkey could not be verified: try again");
  const { credential } = verified.registrationInfo;
  return db.transaction(async (tx) => {
    await assertRoomForFactor(tx, userId);
    const first = (await countFactors(tx, userId)) === 0;
    const { rows } = await tx.query<Parameters<typeof toFactorView>[0]>(
      `INSERT INTO staff_factors (user_id, kind, label, credential_id, public_key, counter, transports, confirmed_at)
       VALUES ($1, 'passkey', $2, $3, $4, $5, $6, now())
       ON CONFLICT (credential_id) DO NOTHING
       RETURNING id, kind, label, created_at, last_used_at`,
      [
        userId,
        label,
        credential.id,
        Buffer.from(credential.publicKey).toString("base64url"),
        credential.counter,
        credential.transports?.join(",") ?? null,
      ],
    );
    if (!rows[0]) throw invalidField("credential", "This passkey is already registered");
    return { factor: toFactorView(rows[0]), recoverySecrets: first ? await replaceRecoveryCodes(tx, userId) : null };
  });
}

/** Options to verify with one of this user's passkeys; not_found when they have none. */
export async function authenticationOptions(db: Queryable, userId: string, site: Site): Promise<CeremonyOptions> {
  const { rows } = await db.query<Pick<PasskeyRow, "credential_id" | "transports">>(
    "SELECT credential_id, transports FROM staff_factors WHERE user_id = $1 AND kind = 'passkey'",
    [userId],
  );
  if (!rows.length)
    throw new DomainError("not_found", "You have no passkey: use your authenticator app or a recovery code");
  const options = await generateAuthenticationOptions({
    rpID: site.rpID,
    allowCredentials: rows.map((r) => ({ id: r.credential_id, transports: transportsOf(r.transports) })),
    userVerification: "required",
  });
  await saveChallenge(db, userId, "passkey-verify", options.challenge);
  return { ...options };
}

/**
 * Verifies an assertion by one of this user's passkeys (never another user's: the credential is looked up
 * under the user) against the stored challenge; moves the signature counter. True when it verified.
 */
export async function verifyPasskey(db: Queryable, userId: string, response: unknown, site: Site): Promise<boolean> {
  const expectedChallenge = await takeChallenge(db, userId, "passkey-verify");
  const id = (response as { id?: unknown } | null)?.id;
  if (!expectedChallenge || typeof id !== "string") return false;
  const { rows } = await db.query<PasskeyRow>(
    "SELECT id, credential_id, public_key, counter, transports FROM staff_factors WHERE user_id = $1 AND " +
      "kind = 'passkey' AND credential_id = $2",
    [userId, id],
  );
  const row = rows[0];
  if (!row) return false;
  try {
    const result = await verifyAuthenticationResponse({
      response: response as AuthenticationResponseJSON,
      expectedChallenge,
      expectedOrigin: site.origin,
      expectedRPID: site.rpID,
      credential: {
        id: row.credential_id,
        publicKey: Buffer.from(row.public_key, "base64url"),
        counter: Number(row.counter),
        transports: transportsOf(row.transports),
      },
      requireUserVerification: true,
    });
    if (!result.verified) return false;
    // Guarded on the counter read, so a cloned authenticator racing the real one cannot both pass.
    const { rows: moved } = await db.query(
      "UPDATE staff_factors SET counter = $3, last_used_at = now() WHERE id = $1 AND counter = $2 RETURNING id",
      [row.id, row.counter, result.authenticationInfo.newCounter],
    );
    return moved.length === 1;
  } catch (e) {
    logger.info({ err: e instanceof Error ? e.message : String(e) }, "passkey assertion not verified");
    return false;
  }
}
