// How lib/env.js reads its variables: the field builders of its schema, proxy and address lists, and the
// role lists of named keys and of the second factor. The environment itself is read in lib/env.js alone.
import { z } from "zod";

/**
 * TRUST_PROXY: which peers' X-Forwarded-For Brokerdesk believes. Off (the default): the client is the
 * socket's address and forwarding headers are dropped. A whole number N: N proxies stand in front (the
 * client is the address N hops back). Otherwise a comma list of addresses or CIDR blocks: walking back
 * from the socket, every listed address is a proxy and the first one not listed is the client.
 * @param {string | undefined} raw
 * @returns {{ kind: "off" } | { kind: "hops", hops: number } | { kind: "cidrs", cidrs: string[] } | string}
 *   the rule, or a message naming what is wrong
 */
export function parseTrustProxy(raw) {
  const v = (raw ?? "").trim();
  if (v === "" || v === "false" || v === "0") return { kind: "off" };
  if (/^\d+$/.test(v))
    return Number(v) <= 32 ? { kind: "hops", hops: Number(v) } : "TRUST_PROXY: a hop count must be 1-32";
  const cidrs = parseCidrList(v);
  if (typeof cidrs === "string")
    return (
      `TRUST_PROXY: '${cidrs}' is not an IP address or CIDR block (e.g. 10.0.0.0/8); use a hop count, a comma ` +
      `list of addresses/CIDRs, or leave it unset`
    );
  return { kind: "cidrs", cidrs };
}

/**
 * A comma list of IP addresses and CIDR blocks.
 * @param {string} v
 * @returns {string[] | string} the entries, or the first one that is neither
 */
function parseCidrList(v) {
  const cidrs = v
    .split(",")
    .map((c) => c.trim())
    .filter(Boolean);
  for (const c of cidrs) {
    const [addr, bits, extra] = c.split("/");
    const family = z.ipv4().safeParse(addr).success ? 4 : z.ipv6().safeParse(addr).success ? 6 : 0;
    const max = family === 6 ? 128 : 32;
    if (!family || extra !== undefined || (bits !== undefined && !(/^\d+$/.test(bits) && Number(bits) <= max)))
      return c;
  }
  return cidrs;
}

const optionalUrl = (name) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => (v === "" ? undefined : v))
    .pipe(z.url({ protocol: /^https?$/, message: `${name} must be an http(s) URL` }).optional());

const serviceUrl = (name, protocol) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => (v === "" ? undefined : v))
    .pipe(z.url({ protocol, message: `${name} must be a ${String(protocol)} URL` }).optional());

const port = (name, fallback) =>
  z
    .string()
    .optional()
    .transform((v) => (v === undefined || v === "" ? String(fallback) : v))
    .pipe(
      z
        .string()
        .regex(/^\d+$/, { message: `${name} must be a port number` })
        .transform(Number)
        .pipe(
          z
            .number()
            .int()
            .min(0, { message: `${name} must be 0-65535` })
            .max(65535, { message: `${name} must be 0-65535` }),
        ),
    );

/** An optional bearer token (empty = unset): at least 16 characters, no spaces. */
const bearerToken = (name) =>
  z
    .string()
    .optional()
    .transform((v) => (v === "" ? undefined : v))
    .pipe(
      z
        .string()
        .regex(/^\S{16,}$/, { message: `${name} must be at least 16 characters with no spaces` })
        .optional(),
    );

/** A comma-separated list, trimmed, without blanks or repeats. */
const listOf = (value) => [
  ...new Set(
    value
      .split(",")
      .map((v) => v.trim())
      .filter(Boolean),
  ),
];

/**
 * A decimal number (digits, then a fraction if any) with a default; `message` says what it must be. With
 * `positive`, 0 is refused too.
 * @param {string} name @param {string} fallback @param {string} message @param {{ positive?: boolean }} [opts]
 */
const decimalNumber = (name, fallback, message, { positive = false } = {}) => {
  const n = z
    .string()
    .default(fallback)
    .pipe(z.string().regex(/^\d+(\.\d+)?$/, { message }))
    .transform(Number);
  return positive ? n.pipe(z.number().positive({ message: `${name} must be greater than 0` })) : n;
};

/** @param {string} name @param {string} fallback @param {string} unit */
const positiveNumber = (name, fallback, unit) =>
  decimalNumber(name, fallback, `${name} must be a number of ${unit}, e.g. 30 or 0.5`, { positive: true });

/**
 * A whole number with a default. `what` finishes the message ("of milliseconds"); with `min` and `max` the
 * message says the range, and a number outside it gets the same message.
 * @param {string} name @param {string} fallback @param {{ what?: string, min?: number, max?: number }} [range]
 */
const wholeNumber = (name, fallback, { what = "", min, max } = {}) => {
  const bounds = min !== undefined && max !== undefined ? ` from ${min} to ${max}` : "";
  const message = `${name} must be a whole number${what ? ` ${what}` : ""}${bounds}`;
  const digits = z.string().default(fallback).pipe(z.string().regex(/^\d+$/, { message })).transform(Number);
  return bounds
    ? digits.pipe(
        z
          .number()
          .int()
          .min(/** @type {number} */ (min), { message })
          .max(/** @type {number} */ (max), { message }),
      )
    : digits;
};

const STAFF_ROLES = ["compliance", "broker", "lead", "admin"];
const ROLES_VAR = /^PLATFORM_KEY_([A-Z0-9]+)_ROLES$/;

/**
 * PLATFORM_KEY_<NAME>_ROLES: which staff roles may choose a named key (server/platform/key-access.ts): a
 * comma-separated list of roles, or "none" for nobody. Problems are named by variable.
 * @param {Readonly<Record<string, string | undefined>>} source
 * @returns {{ keyRoles: Record<string, ("compliance" | "broker" | "lead" | "admin")[]>, problems: string[] }}
 */
export function parseKeyRoles(source) {
  /** @type {Record<string, any[]>} */
  const keyRoles = {};
  const problems = [];
  for (const [name, value] of Object.entries(source)) {
    const m = ROLES_VAR.exec(name);
    if (!m || value === undefined) continue;
    const key = m[1].toLowerCase();
    if (key === "main") {
      problems.push(`  ${name}: the main key goes with each operation's permission; name a PLATFORM_KEY_<NAME> key`);
      continue;
    }
    const items = value
      .split(",")
      .map((r) => r.trim().toLowerCase())
      .filter(Boolean);
    if (items.length === 1 && items[0] === "none") {
      keyRoles[key] = [];
      continue;
    }
    const unknown = items.filter((r) => !STAFF_ROLES.includes(r));
    if (!items.length || unknown.length) {
      problems.push(
        `  ${name}: must be a comma-separated list of ${STAFF_ROLES.join(", ")}, or none` +
          (unknown.length ? ` (not roles: ${unknown.join(", ")})` : ""),
      );
      continue;
    }
    keyRoles[key] = [...new Set(items)];
  }
  return { keyRoles, problems };
}

/** Extra named platform keys: PLATFORM_KEY_<NAME>_API_KEY / _API_SECRET / _API_PASSPHRASE. */
const NAMED_KEY = /^PLATFORM_KEY_([A-Z0-9]+)_(API_KEY|API_SECRET|API_PASSPHRASE)$/;

/**
 * MFA_REQUIRED_ROLES: "all", "none" or a comma list of roles; unset = all in live mode, none in simulator
 * mode (the demo staff and the e2e suite sign in with a password alone). A problem as a string.
 * @param {string | undefined} value
 * @param {"live" | "simulator"} mode
 * @returns {string[] | string}
 */
function parseMfaRoles(value, mode) {
  const v = (value ?? "").trim().toLowerCase();
  if (v === "") return mode === "live" ? [...STAFF_ROLES] : [];
  if (v === "all") return [...STAFF_ROLES];
  if (v === "none") return [];
  const roles = v
    .split(",")
    .map((r) => r.trim())
    .filter(Boolean);
  const unknown = roles.filter((r) => !STAFF_ROLES.includes(r));
  if (unknown.length || !roles.length)
    return `"all", "none" or a comma list of ${STAFF_ROLES.join(", ")} (unknown: ${unknown.join(", ") || "empty"})`;
  return [...new Set(roles)];
}

export {
  bearerToken,
  parseCidrList,
  optionalUrl,
  serviceUrl,
  port,
  listOf,
  decimalNumber,
  positiveNumber,
  wholeNumber,
  ROLES_VAR,
  NAMED_KEY,
  parseMfaRoles,
};
