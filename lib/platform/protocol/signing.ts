// The parts of the platform's request signing that both the client and the simulator need: the exact
// string that is signed and the query string as sent. The signature itself (HMAC or RSA over this string)
// is node:crypto's, made in server/platform/sign.ts and checked in server/simulator/auth.ts. Isomorphic.

/** The exact string the platform signs: timestamp + METHOD + path + ("?" + query when non-empty) + body. */
export function prehash(timestamp: string, method: string, path: string, query: string, body: string): string {
  return `${timestamp}${method.toUpperCase()}${path}${query ? `?${query}` : ""}${body}`;
}

/** A secret holding a PEM private key signs with RSA-SHA256 instead of HMAC-SHA256. */
export function isPemPrivateKey(secret: string): boolean {
  return secret.includes("PRIVATE KEY");
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
