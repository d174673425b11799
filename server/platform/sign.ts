import "server-only";
import { createHmac, createSign } from "node:crypto";

/** The exact string the platform signs: timestamp + METHOD + path + ("?" + query when non-empty) + body. */
export function prehash(timestamp: string, method: string, path: string, query: string, body: string): string {
  return `${timestamp}${method.toUpperCase()}${path}${query ? `?${query}` : ""}${body}`;
}

export function isPemPrivateKey(secret: string): boolean {
  return secret.includes("PRIVATE KEY");
}

/** base64 HMAC-SHA256, or RSA-SHA256 (PKCS#1 v1.5) when the secret is a PEM private key. */
export function sign(secret: string, payload: string): string {
  if (isPemPrivateKey(secret)) {
    return createSign("RSA-SHA256").update(payload, "utf8").sign(secret, "base64");
  }
  return createHmac("sha256", secret).update(payload, "utf8").digest("base64");
}

/**
 * The query string as sent and signed: keys in ascending order, values percent-encoded,
 * undefined and empty values left out. Byte for byte the one the request carries.
 */
export function buildQuery(params: Readonly<Record<string, unknown>>): string {
  return Object.keys(params)
    .filter((k) => params[k] !== undefined && params[k] !== null && params[k] !== "")
    .sort()
    .map((k) => `${encodeURIComponent(k)}=${encodeURIComponent(String(params[k]))}`)
    .join("&");
}
