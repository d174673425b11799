import "server-only";
import { hkdfSync } from "node:crypto";
import { jwtDecrypt } from "jose";
import type { JWT, JWTDecodeParams } from "next-auth/jwt";

/**
 * next-auth 4's session-token decoding with the encryption key derived once per secret instead of on
 * every call. next-auth's own `decode` runs HKDF (an async crypto call through the libuv thread pool)
 * each time; the derived key never changes for a given secret, so it is computed once here with the
 * very same parameters (SHA-256, the secret as input key material, the salt, next-auth's info string,
 * 32 bytes) and the token is then checked exactly as next-auth checks it: jose's `jwtDecrypt` (alg
 * "dir", A256GCM, integrity tag, exp/nbf with 15 s clock tolerance).
 */
const keys = new Map<string, Uint8Array>();

function encryptionKey(secret: string | Buffer, salt: string): Uint8Array {
  const id = `${salt}\u0000${typeof secret === "string" ? secret : secret.toString("base64")}`;
  let key = keys.get(id);
  if (!key) {
    const info = `NextAuth.js Generated Encryption Key${salt ? ` (${salt})` : ""}`;
    key = new Uint8Array(hkdfSync("sha256", secret, salt, info, 32));
    keys.set(id, key);
  }
  return key;
}

/** Drop-in for next-auth's `jwt.decode` (same params, same result, same refusals). */
export async function decodeSessionJwt({ token, secret, salt = "" }: JWTDecodeParams): Promise<JWT | null> {
  if (!token) return null;
  const { payload } = await jwtDecrypt(token, encryptionKey(secret, salt), { clockTolerance: 15 });
  return payload as JWT;
}

/** next-auth's session cookie name (`__Secure-` prefix when cookies are Secure). */
export function sessionCookieName(secure: boolean): string {
  return `${secure ? "__Secure-" : ""}next-auth.session-token`;
}

/**
 * The session token from the request's cookies: the cookie of exactly that name, or else the chunks
 * next-auth writes for a token too large for one cookie (`<name>.0`, `<name>.1`, …, consecutive from 0).
 * Any other cookie whose name merely starts with the name (`<name>-x`, `<name>.7` alone) is ignored, so
 * a stray cookie cannot spoil a valid session.
 */
export function sessionTokenFrom(cookies: Iterable<{ name: string; value: string }>, name: string): string | null {
  const chunks = new Map<number, string>();
  for (const c of cookies) {
    if (c.name === name) return c.value || null;
    const m = c.name.startsWith(`${name}.`) ? /^(0|[1-9]\d{0,2})$/.exec(c.name.slice(name.length + 1)) : null;
    if (m) chunks.set(Number(m[1]), c.value);
  }
  let token = "";
  for (let i = 0; chunks.has(i); i++) token += chunks.get(i);
  return token || null;
}
