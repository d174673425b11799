import "server-only";
// Keys for the second factor, derived from NEXTAUTH_SECRET with HKDF (SHA-256), each for one purpose (its
// own `info`), so the session secret is never used directly and one derived key says nothing of another.
// TOTP secrets are sealed with AES-256-GCM, bound to their factor's id (additional data), so a ciphertext
// copied to another row does not open. Recovery codes and factor proofs are high-entropy random strings:
// an HMAC is enough to store them (a slow hash would add nothing an attacker must pay).
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";
import { env } from "@/lib/env";

type Purpose = "totp-secret" | "recovery-code" | "factor-proof";

const keys = new Map<string, Buffer>();

function keyFor(purpose: Purpose, secret: string): Buffer {
  const id = `${purpose}\u0000${secret}`;
  let key = keys.get(id);
  if (!key) {
    key = Buffer.from(hkdfSync("sha256", secret, "brokerdesk-mfa", `Brokerdesk MFA ${purpose} v1`, 32));
    keys.set(id, key);
  }
  return key;
}

/** "v1.<iv>.<ciphertext>.<tag>", base64url parts. */
export function sealTotpSecret(plain: string, factorId: string, secret = env.nextAuthSecret): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyFor("totp-secret", secret), iv);
  cipher.setAAD(Buffer.from(factorId));
  const ct = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return ["v1", iv, ct, cipher.getAuthTag()]
    .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
    .join(".");
}

/** The base32 secret, or throws when the value was not sealed for this factor under this key. */
export function openTotpSecret(sealed: string, factorId: string, secret = env.nextAuthSecret): string {
  const [v, iv, ct, tag] = sealed.split(".");
  if (v !== "v1" || !iv || !ct || !tag) throw new Error("sealed TOTP secret: unknown format");
  const decipher = createDecipheriv("aes-256-gcm", keyFor("totp-secret", secret), Buffer.from(iv, "base64url"));
  decipher.setAAD(Buffer.from(factorId));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(ct, "base64url")), decipher.final()]).toString("utf8");
}

/** HMAC-SHA256 (hex) of a recovery code or a proof under its purpose's key. */
export function keyedHash(
  purpose: "recovery-code" | "factor-proof",
  value: string,
  secret = env.nextAuthSecret,
): string {
  return createHmac("sha256", keyFor(purpose, secret)).update(value).digest("hex");
}

export function sameHex(a: string, b: string): boolean {
  const x = Buffer.from(a, "hex");
  const y = Buffer.from(b, "hex");
  return x.length === y.length && timingSafeEqual(x, y);
}

/** A random token for the browser to carry once (a proof): 32 bytes, base64url. */
export function randomToken(): string {
  return randomBytes(32).toString("base64url");
}
