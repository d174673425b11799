import "server-only";
import { createHash } from "node:crypto";

/** What the first row chains to (also the head's initial value in 0001_core.sql). */
export const AUDIT_GENESIS_HASH = "0".repeat(64);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

// PostgreSQL's jsonb refuses \u0000 and lone surrogates; an audit write must not fail because a caller
// (or an attacker's input being refused) carried one.
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * The value exactly as jsonb will give it back: JSON semantics (undefined dropped, Date as ISO string,
 * NaN as null), bigint as a string, unstorable characters replaced. undefined/null both become null.
 */
export function toStorableJson(value: unknown): Json {
  if (value === undefined) return null;
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v === "bigint") return v.toString();
    if (typeof v === "string") return v.replace(UNSTORABLE, "\ufffd");
    return v;
  });
  return text === undefined ? null : (JSON.parse(text) as Json);
}

// What a text column must not hold: PostgreSQL's text refuses \u0000, a lone surrogate would be stored as
// U+FFFD (and the row's hash would no longer match), and the other control characters would let a caller
// forge line breaks or terminal escapes into a log that people read.
const UNSAFE_TEXT =
  /[\u0000-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * A text field as the audit log stores it: control characters and lone surrogates replaced with U+FFFD,
 * and at most `max` characters, a longer value cut with a marker that says how long it was. Whatever a
 * caller sends (a 5,000-character path, a %00 in a path segment), the row can be written.
 */
export function toStorableText(value: string, max: number): string {
  const clean = value.replace(UNSAFE_TEXT, "\ufffd");
  if (clean.length <= max) return clean;
  const marker = `…[cut from ${clean.length} characters]`;
  let head = clean.slice(0, Math.max(0, max - marker.length));
  // Never end on the first half of a surrogate pair.
  if (/[\ud800-\udbff]$/.test(head)) head = head.slice(0, -1);
  return `${head}${marker}`;
}

/**
 * Canonical JSON: object keys sorted (jsonb reorders keys, so insertion order cannot be hashed), no
 * whitespace, numbers and strings as JSON.stringify writes them.
 */
export function canonicalJson(value: Json): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k]!)}`).join(",")}}`;
}

/** Everything a row says, as hashed. `at` is the ISO string at millisecond precision. */
export type HashedAuditFields = {
  id: number;
  at: string;
  actor: string;
  actorRole: string | null;
  action: string;
  outcome: string;
  target: string | null;
  params: Json;
  detail: Json;
  requestId: string | null;
  ip: string | null;
  intentId: number | null;
  prevHash: string;
};

export function hashAuditRow(f: HashedAuditFields): string {
  // Fields picked one by one: a caller passing a whole row (with its own hash) must not change the result.
  // "v" versions the serialisation, so a future change can be told apart from tampering.
  const canonical = canonicalJson({
    v: 1,
    id: f.id,
    at: f.at,
    actor: f.actor,
    actorRole: f.actorRole,
    action: f.action,
    outcome: f.outcome,
    target: f.target,
    params: f.params,
    detail: f.detail,
    requestId: f.requestId,
    ip: f.ip,
    intentId: f.intentId,
    prevHash: f.prevHash,
  });
  return createHash("sha256").update(canonical, "utf8").digest("hex");
}

export type { Json };
