import "server-only";
// Standard Webhooks (standardwebhooks.com): each endpoint's secret is "whsec_" + base64 of 32 random bytes; a message
// is signed as v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>"> under the secret's bytes (by the
// specification's own library, `standardwebhooks`), one signature per secret in force (space separated), so a
// receiver keeps verifying through a rotation. The secret is
// kept sealed (AES-256-GCM under a key derived from KEY_SEALING_SECRET, the master secret that seals sub-account
// keys, with its own HKDF salt and info; bound to the endpoint's id), shown once. Never under NEXTAUTH_SECRET: a
// leaked session secret must not open what signs for Brokerdesk.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { env } from "@/lib/env";
import { DomainError } from "@/lib/api/errors";

const PREFIX = "whsec_";

/** A new endpoint secret: whsec_ + base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return PREFIX + randomBytes(32).toString("base64");
}

/** "v1,<base64 signature>" of one message under one secret ("whsec_…"); `timestamp` in seconds. */
export function signatureOf(secret: string, id: string, timestamp: number, body: string): string {
  return new Webhook(secret).sign(id, new Date(timestamp * 1000), body);
}

/** The three Standard Webhooks headers of a message, signed by every secret given (the current first). */
export function webhookHeaders(secrets: readonly string[], id: string, timestamp: number, body: string) {
  return {
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": secrets.map((s) => signatureOf(s, id, timestamp, body)).join(" "),
  };
}

let sealKey: { secret: string; key: Buffer } | null = null;
function keyOf(secret: string): Buffer {
  if (sealKey?.secret !== secret) {
    const key = Buffer.from(hkdfSync("sha256", secret, "brokerdesk-webhooks", "Brokerdesk webhook secret v1", 32));
    sealKey = { secret, key };
  }
  return sealKey.key;
}

/** "v1.<iv>.<ciphertext>.<tag>" (base64url), bound to the endpoint's id. */
/** The master secret, or a refusal naming the setting (live mode without KEY_SEALING_SECRET holds no secrets). */
function masterSecret(): string {
  if (!env.keySealingSecret)
    throw new DomainError(
      "forbidden",
      "Webhook secrets cannot be held: KEY_SEALING_SECRET is not set (docs/configuration.md)",
    );
  return env.keySealingSecret;
}

export function sealWebhookSecret(plain: string, endpointId: string, secret = masterSecret()): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyOf(secret), iv);
  cipher.setAAD(Buffer.from(`webhook:${endpointId}`));
  const ct = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return ["v1", iv.toString("base64url"), ct.toString("base64url"), cipher.getAuthTag().toString("base64url")].join(
    ".",
  );
}

export function openWebhookSecret(sealed: string, endpointId: string, secret = masterSecret()): string {
  const [v, iv, ct, tag] = sealed.split(".");
  if (v !== "v1" || !iv || !ct || !tag) throw new Error("sealed webhook secret: unknown format");
  const decipher = createDecipheriv("aes-256-gcm", keyOf(secret), Buffer.from(iv, "base64url"));
  decipher.setAAD(Buffer.from(`webhook:${endpointId}`));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(ct, "base64url")), decipher.final()]).toString("utf8");
}
