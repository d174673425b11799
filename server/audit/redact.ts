import "server-only";

export const REDACTED = "[redacted]";

// Key names are compared lower-cased with separators removed, so apiKey, api_key, API-KEY and x-api-key
// are one name. Matching is by key, never by value: addresses, amounts and UIDs stay (compliance needs them).
const SECRET_KEYS = new Set([
  "sign",
  "signature",
  "authorization",
  "proxyauthorization",
  "cookie",
  "setcookie",
  "token",
  "otp",
  "totp",
  "accesskey",
  "accesssign",
  "accesspassphrase",
  "accesstimestamp",
]);
const SECRET_PARTS = [
  "password",
  "passphrase",
  "secret",
  "apikey",
  "privatekey",
  "mnemonic",
  "seedphrase",
  "cookie",
  "authorization",
  "credential",
];
// Suffix only: accessToken, refreshToken, csrfToken are secrets; tokenAddress or tokenSymbol are not.
const SECRET_SUFFIXES = ["token", "signature"];

export function isSecretKey(key: string): boolean {
  // The platform's signing headers: ACCESS-KEY, ACCESS-SIGN, ACCESS-PASSPHRASE, ACCESS-TIMESTAMP...
  if (/^access[-_]/i.test(key)) return true;
  const k = key.toLowerCase().replace(/[^a-z0-9]/g, "");
  return SECRET_KEYS.has(k) || SECRET_PARTS.some((p) => k.includes(p)) || SECRET_SUFFIXES.some((s) => k.endsWith(s));
}

const MAX_DEPTH = 16;
const MAX_STRING = 10_000;

/**
 * Copy of `value` with secrets replaced by "[redacted]" (by key name, case-insensitive, at any depth).
 * Also makes it safe to store as jsonb: cycles, excessive depth and very long strings are cut, marked.
 */
export function redact(value: unknown): unknown {
  return walk(value, 0, new WeakSet());
}

function walk(value: unknown, depth: number, seen: WeakSet<object>): unknown {
  if (typeof value === "string") {
    return value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}…[truncated]` : value;
  }
  if (typeof value !== "object" || value === null) return value;
  if (value instanceof Date) return value;
  if (seen.has(value)) return "[circular]";
  if (depth >= MAX_DEPTH) return "[too deep]";
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map((v) => walk(v, depth + 1, seen));
    if (value instanceof Headers) return walk(Object.fromEntries(value.entries()), depth, seen);
    if (value instanceof URLSearchParams) return walk(Object.fromEntries(value.entries()), depth, seen);
    if (value instanceof Map) return walk(Object.fromEntries(value.entries()), depth, seen);
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = isSecretKey(k) ? REDACTED : walk(v, depth + 1, seen);
    return out;
  } finally {
    // Shared (non-cyclic) references are fine; only an ancestor seen again is a cycle.
    seen.delete(value);
  }
}
