// The one module that reads process.env (STYLE rule 13). next.config.js imports it, so a bad
// environment stops `next build` / `next start` with a message naming the variable.
import { z } from "zod";

/** Demo credentials of the embedded simulator's broker main-account key (not secrets: public demo values). */
export const SIMULATOR_DEMO_KEY = Object.freeze({
  apiKey: "bd_demo_broker_main",
  apiSecret: "bd-demo-secret-broker-main",
  passphrase: "bd-demo-passphrase",
});

/** The simulator's other demo keys (server/simulator/keys.ts registers them): public demo values too. */
export const SIMULATOR_OTHER_DEMO_KEYS = Object.freeze({
  readOnly: Object.freeze({ apiKey: "bd_demo_read_only", apiSecret: "bd-demo-secret-read-only", passphrase: "bd-demo-passphrase" }),
  nonBroker: Object.freeze({ apiKey: "bd_demo_non_broker", apiSecret: "bd-demo-secret-non-broker", passphrase: "bd-demo-passphrase" }),
  riskUnit: Object.freeze({ apiKey: "bd_demo_risk_unit", apiSecret: "bd-demo-secret-risk-unit", passphrase: "bd-demo-passphrase" }),
});

const DEMO_NEXTAUTH_SECRET = "brokerdesk-simulator-demo-session-secret-0123456789";

/**
 * Every credential value this repository publishes (.env.example, the defaults above, the simulator's demo
 * keys; lib/env.test.ts fails when .env.example holds one that is not here). Live mode refuses them: anyone
 * who can read the repository could forge a session with the demo session secret or sign with a demo key.
 */
export const PUBLISHED_VALUES = Object.freeze([
  DEMO_NEXTAUTH_SECRET,
  "bd-demo-passphrase",
  "bd_demo_rsa",
  ...[SIMULATOR_DEMO_KEY, ...Object.values(SIMULATOR_OTHER_DEMO_KEYS)].flatMap((k) => [k.apiKey, k.apiSecret]),
]);

/**
 * Bits of entropy a secret shows, estimated from its own characters: Shannon entropy per character times
 * an effective length, the number of distinct three-character runs (so a repeated pattern counts once).
 * A guessable secret ("aaaa…", "0123…0123…") scores low; `openssl rand -base64 48` about 320. An estimate,
 * not a proof: it catches the weak, it cannot certify the strong.
 * @param {string} value
 */
export function estimatedEntropyBits(value) {
  const chars = [...value];
  const counts = new Map();
  for (const ch of chars) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let perChar = 0;
  for (const c of counts.values()) perChar -= (c / chars.length) * Math.log2(c / chars.length);
  const runs = new Set();
  for (let i = 0; i + 3 <= chars.length; i++) runs.add(chars.slice(i, i + 3).join(""));
  return Math.round(perChar * Math.min(chars.length, runs.size + 2));
}

/** The least estimate a live session secret must reach (32 random base64 characters give about 150). */
export const MIN_SECRET_ENTROPY_BITS = 128;

const HOW_TO_MAKE_A_SECRET = "make one with `openssl rand -base64 48`";

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
  if (/^\d+$/.test(v)) return Number(v) <= 32 ? { kind: "hops", hops: Number(v) } : "TRUST_PROXY: a hop count must be 1-32";
  const cidrs = parseCidrList(v);
  if (typeof cidrs === "string") return `TRUST_PROXY: '${cidrs}' is not an IP address or CIDR block (e.g. 10.0.0.0/8); use a hop count, a comma list of addresses/CIDRs, or leave it unset`;
  return { kind: "cidrs", cidrs };
}

/**
 * A comma list of IP addresses and CIDR blocks.
 * @param {string} v
 * @returns {string[] | string} the entries, or the first one that is neither
 */
function parseCidrList(v) {
  const cidrs = v.split(",").map((c) => c.trim()).filter(Boolean);
  for (const c of cidrs) {
    const [addr, bits, extra] = c.split("/");
    const family = z.ipv4().safeParse(addr).success ? 4 : z.ipv6().safeParse(addr).success ? 6 : 0;
    const max = family === 6 ? 128 : 32;
    if (!family || extra !== undefined || (bits !== undefined && !(/^\d+$/.test(bits) && Number(bits) <= max))) return c;
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
        .pipe(z.number().int().min(0, { message: `${name} must be 0-65535` }).max(65535, { message: `${name} must be 0-65535` })),
    );

/** A comma-separated list, trimmed, without blanks or repeats. */
const listOf = (value) => [...new Set(value.split(",").map((v) => v.trim()).filter(Boolean))];

const positiveNumber = (name, fallback, unit) =>
  z
    .string()
    .default(fallback)
    .pipe(z.string().regex(/^\d+(\.\d+)?$/, { message: `${name} must be a number of ${unit}, e.g. 30 or 0.5` }))
    .transform(Number)
    .pipe(z.number().positive({ message: `${name} must be greater than 0` }));

const baseSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  // Set by Next.js in its server processes: which runtime this module was loaded in (instrumentation.ts).
  NEXT_RUNTIME: z.enum(["nodejs", "edge"]).optional(),
  PLATFORM_BASE_URL: optionalUrl("PLATFORM_BASE_URL"),
  // Simulator mode against a simulator started apart (`npm run sim`), e.g. shared by several instances.
  SIMULATOR_URL: optionalUrl("SIMULATOR_URL"),
  PLATFORM_API_KEY: z.string().optional(),
  PLATFORM_API_SECRET: z.string().optional(),
  PLATFORM_API_PASSPHRASE: z.string().optional(),
  PLATFORM_LOCALE: z.string().default("en-US"),
  PLATFORM_TIMEOUT_MS: z
    .string()
    .default("10000")
    .pipe(z.string().regex(/^\d+$/, { message: "PLATFORM_TIMEOUT_MS must be a whole number of milliseconds" }))
    .transform(Number),
  // /metrics (Prometheus): answered to these addresses (the client as TRUST_PROXY resolves it), or to a
  // request with `Authorization: Bearer <METRICS_TOKEN>`.
  METRICS_ALLOW: z.string().default("127.0.0.1,::1"),
  METRICS_TOKEN: z
    .string()
    .optional()
    .transform((v) => (v === "" ? undefined : v))
    .pipe(z.string().regex(/^\S{16,}$/, { message: "METRICS_TOKEN must be at least 16 characters with no spaces" }).optional()),
  // The bound assumed on the jitter of the trip to the platform (± ms): pacing by the platform's requestTime
  // rests on it (server/platform/arrival.ts). Larger is safer and slower: each slot waits up to 2× it more.
  PLATFORM_JITTER_MS: z
    .string()
    .default("20")
    .pipe(z.string().regex(/^\d{1,4}$/, { message: "PLATFORM_JITTER_MS must be a whole number of milliseconds (0–9999)" }))
    .transform(Number),
  DATABASE_URL: serviceUrl("DATABASE_URL", /^postgres(ql)?$/),
  REDIS_URL: serviceUrl("REDIS_URL", /^rediss?$/),
  NEXTAUTH_SECRET: z.string().optional(),
  NEXTAUTH_URL: optionalUrl("NEXTAUTH_URL"),
  PORT: port("PORT", 3000),
  SIM_PORT: port("SIM_PORT", 4010),
  // Optional: the simulator's /__sim/* control endpoints then need `Authorization: Bearer <token>`.
  SIM_CONTROL_TOKEN: z
    .string()
    .optional()
    .transform((v) => (v === "" ? undefined : v))
    .pipe(z.string().regex(/^\S{16,}$/, { message: "SIM_CONTROL_TOKEN must be at least 16 characters with no spaces" }).optional()),
  SIM_SEED: z
    .string()
    .default("42")
    .pipe(z.string().regex(/^\d+$/, { message: "SIM_SEED must be a whole number" }))
    .transform(Number),
  SIM_SCALE: z
    .string()
    .default("1")
    .pipe(z.string().regex(/^\d+(\.\d+)?$/, { message: "SIM_SCALE must be a positive number, e.g. 1 or 0.5" }))
    .transform(Number)
    .pipe(z.number().positive({ message: "SIM_SCALE must be greater than 0" })),
  // Sub-accounts of the simulator's broker, the 25 seeded desks included (server/simulator/data/population.ts).
  SIM_SUBACCOUNTS: z
    .string()
    .default("25")
    .pipe(z.string().regex(/^\d+$/, { message: "SIM_SUBACCOUNTS must be a whole number from 25 to 500000" }))
    .transform(Number)
    .pipe(z.number().int().min(25, { message: "SIM_SUBACCOUNTS must be a whole number from 25 to 500000" }).max(500_000, { message: "SIM_SUBACCOUNTS must be a whole number from 25 to 500000" })),
  // Live deposits per second arriving on the simulator across all sub-accounts; 0 = none (deterministic data).
  SIM_DEPOSIT_RATE: z
    .string()
    .default("0")
    .pipe(z.string().regex(/^\d+(\.\d+)?$/, { message: "SIM_DEPOSIT_RATE must be a number of deposits per second, e.g. 0, 5 or 0.5" }))
    .transform(Number),
  DATA_DIR: z.string().default(".data"),
  // Decimals allowed (0.1 minutes = 6 s) so tests can watch a session expire in real time.
  SESSION_IDLE_MINUTES: positiveNumber("SESSION_IDLE_MINUTES", "30", "minutes"),
  SESSION_MAX_HOURS: positiveNumber("SESSION_MAX_HOURS", "12", "hours"),
  // Separation of duties: how long after its holder's own password change an account an admin set up
  // (created, promoted, password set) must wait before it may approve.
  APPROVER_COOL_OFF_HOURS: z
    .string()
    .default("24")
    .pipe(z.string().regex(/^\d+(\.\d+)?$/, { message: "APPROVER_COOL_OFF_HOURS must be a number of hours, e.g. 24 or 0.5 (0 = none)" }))
    .transform(Number),
  // How long a public market answer (E8, E11) is served from the server's cache; 0 turns it off.
  PUBLIC_CACHE_MS: z
    .string()
    .default("1000")
    .pipe(z.string().regex(/^\d+$/, { message: "PUBLIC_CACHE_MS must be a whole number of milliseconds (0 = off)" }))
    .transform(Number),
  // Names this instance's egress IP in the shared rate budget: instances that reach the platform from the
  // same address share its per-IP limits. Only read with REDIS_URL.
  PLATFORM_EGRESS_ID: z
    .string()
    .default("default")
    .pipe(z.string().regex(/^[A-Za-z0-9._:-]{1,64}$/, { message: "PLATFORM_EGRESS_ID must be 1-64 letters, digits or . _ : -" })),
  // Second factor (issue 12 item 2). Roles that must enrol one: "all", "none" or a comma list; the default
  // depends on the mode (parseEnv). How recent a factor must be for approvals, role and password changes.
  MFA_REQUIRED_ROLES: z.string().optional(),
  MFA_FRESH_SECONDS: z
    .string()
    .default("300")
    .pipe(z.string().regex(/^\d+$/, { message: "MFA_FRESH_SECONDS must be a whole number of seconds" }))
    .transform(Number)
    .pipe(z.number().int().min(1, { message: "MFA_FRESH_SECONDS must be at least 1" }).max(3600, { message: "MFA_FRESH_SECONDS must be at most 3600" })),
  // "idp": a single sign-on whose ID token says the identity provider did multi-factor (amr "mfa") counts as the second factor.
  OIDC_MFA: z.enum(["brokerdesk", "idp"], { message: 'OIDC_MFA must be "brokerdesk" or "idp"' }).default("brokerdesk"),
  OIDC_ISSUER: optionalUrl("OIDC_ISSUER"),
  OIDC_CLIENT_ID: z.string().optional(),
  OIDC_CLIENT_SECRET: z.string().optional(),
  // The ledger's sync (issue 14): on or off; the share of each operation's rate it may use; how often it
  // looks for due sub-accounts; how often an active sub-account is checked.
  LEDGER_SYNC: z.enum(["on", "off"], { message: "LEDGER_SYNC must be on or off" }).default("on"),
  LEDGER_SYNC_SHARE: z
    .string()
    .default("0.5")
    .pipe(z.string().regex(/^(0(\.\d+)?|1(\.0+)?)$/, { message: "LEDGER_SYNC_SHARE must be a fraction between 0 and 1, e.g. 0.5" }))
    .transform(Number)
    .pipe(z.number().positive({ message: "LEDGER_SYNC_SHARE must be greater than 0" })),
  LEDGER_SWEEP_SECONDS: positiveNumber("LEDGER_SWEEP_SECONDS", "10", "seconds"),
  LEDGER_ACTIVE_SECONDS: positiveNumber("LEDGER_ACTIVE_SECONDS", "60", "seconds"),
  // Fills (E4) and plan orders (E3) in the ledger: the keys whose records are kept (comma-separated names;
  // default every configured key), and the symbols whose plan orders are kept besides those a key's fills
  // name (E3 needs a symbol, and a key with plan orders but no fills would otherwise be missed).
  LEDGER_TRADE_KEYS: z
    .string()
    .optional()
    .pipe(z.string().regex(/^\s*[a-z0-9]+(\s*,\s*[a-z0-9]+)*\s*$/i, { message: "LEDGER_TRADE_KEYS is a comma-separated list of key names, e.g. main,sub1" }).optional()),
  LEDGER_PLAN_SYMBOLS: z
    .string()
    .default("BTCUSDT,ETHUSDT")
    .pipe(z.string().regex(/^\s*([A-Z0-9]{2,30}(\s*,\s*[A-Z0-9]{2,30})*)?\s*$/, { message: "LEDGER_PLAN_SYMBOLS is a comma-separated list of symbols, e.g. BTCUSDT,ETHUSDT" })),
  // How long Brokerdesk keeps a ledger record (by the platform's creation time): "forever" (the default;
  // record-keeping rules commonly ask for five years) or a whole number of days.
  LEDGER_RETENTION_DAYS: z
    .string()
    .trim()
    .default("forever")
    .pipe(z.string().regex(/^(forever|\d+)$/, { message: 'LEDGER_RETENTION_DAYS must be a whole number of days, or "forever"' }))
    .transform((v) => (v === "forever" ? null : Number(v)))
    .pipe(z.number().int().min(1, { message: "LEDGER_RETENTION_DAYS must be at least 1 day" }).nullable()),
  // The address Brokerdesk listens on (server/front-door.mjs). Simulator mode: loopback only.
  HOST: z.string().trim().optional(),
  TRUST_PROXY: z.string().optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
});

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
    const items = value.split(",").map((r) => r.trim().toLowerCase()).filter(Boolean);
    if (items.length === 1 && items[0] === "none") {
      keyRoles[key] = [];
      continue;
    }
    const unknown = items.filter((r) => !STAFF_ROLES.includes(r));
    if (!items.length || unknown.length) {
      problems.push(`  ${name}: must be a comma-separated list of ${STAFF_ROLES.join(", ")}, or none${unknown.length ? ` (not roles: ${unknown.join(", ")})` : ""}`);
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
  const roles = v.split(",").map((r) => r.trim()).filter(Boolean);
  const unknown = roles.filter((r) => !STAFF_ROLES.includes(r));
  if (unknown.length || !roles.length) return `"all", "none" or a comma list of ${STAFF_ROLES.join(", ")} (unknown: ${unknown.join(", ") || "empty"})`;
  return [...new Set(roles)];
}

/**
 * Parses an environment object. Exported for tests; the app uses `env` below.
 * @param {Record<string, string | undefined>} source
 */
export function parseEnv(source) {
  const problems = [];
  const parsed = baseSchema.safeParse(source);
  if (!parsed.success) {
    problems.push(...parsed.error.issues.map((i) => `  ${String(i.path[0] ?? "?")}: ${i.message}`));
  }
  // Carry on with what did parse, so one message lists every problem at once.
  const e = parsed.success ? parsed.data : {};
  const mode = source.PLATFORM_BASE_URL ? "live" : "simulator";
  if (source.PLATFORM_BASE_URL && source.SIMULATOR_URL) {
    problems.push("  SIMULATOR_URL: set either PLATFORM_BASE_URL (the real platform) or SIMULATOR_URL (a standalone simulator), not both");
  }

  /** @type {Record<string, {apiKey: string, apiSecret: string, passphrase: string}>} */
  const keys = {};
  if (mode === "simulator") {
    keys.main = {
      apiKey: e.PLATFORM_API_KEY || SIMULATOR_DEMO_KEY.apiKey,
      apiSecret: e.PLATFORM_API_SECRET || SIMULATOR_DEMO_KEY.apiSecret,
      passphrase: e.PLATFORM_API_PASSPHRASE || SIMULATOR_DEMO_KEY.passphrase,
    };
  } else {
    for (const name of ["PLATFORM_API_KEY", "PLATFORM_API_SECRET", "PLATFORM_API_PASSPHRASE"]) {
      if (!source[name]) problems.push(`  ${name}: required when PLATFORM_BASE_URL is set (live mode)`);
    }
    keys.main = {
      apiKey: e.PLATFORM_API_KEY ?? "",
      apiSecret: e.PLATFORM_API_SECRET ?? "",
      passphrase: e.PLATFORM_API_PASSPHRASE ?? "",
    };
  }

  /** @type {Record<string, Record<string, string>>} */
  const named = {};
  for (const [k, v] of Object.entries(source)) {
    if (!k.startsWith("PLATFORM_KEY_") || ROLES_VAR.test(k)) continue;
    const m = NAMED_KEY.exec(k);
    if (!m) {
      problems.push(`  ${k}: not a named key; use PLATFORM_KEY_<NAME>_API_KEY/_API_SECRET/_API_PASSPHRASE with NAME of letters and digits only`);
      continue;
    }
    if (v === undefined) continue;
    const name = m[1].toLowerCase();
    (named[name] ??= {})[m[2]] = v;
  }
  for (const [name, parts] of Object.entries(named)) {
    if (name === "main") {
      problems.push("  PLATFORM_KEY_MAIN_*: 'main' is reserved for PLATFORM_API_KEY/SECRET/PASSPHRASE");
      continue;
    }
    for (const part of ["API_KEY", "API_SECRET", "API_PASSPHRASE"]) {
      if (!parts[part]) problems.push(`  PLATFORM_KEY_${name.toUpperCase()}_${part}: missing (the other parts of key '${name}' are set)`);
    }
    keys[name] = { apiKey: parts.API_KEY ?? "", apiSecret: parts.API_SECRET ?? "", passphrase: parts.API_PASSPHRASE ?? "" };
  }

  let nextAuthSecret = e.NEXTAUTH_SECRET;
  if (!nextAuthSecret) {
    if (mode === "live") problems.push(`  NEXTAUTH_SECRET: required in live mode (${HOW_TO_MAKE_A_SECRET})`);
    nextAuthSecret = DEMO_NEXTAUTH_SECRET;
  } else if (nextAuthSecret.length < 32) {
    problems.push(`  NEXTAUTH_SECRET: must be at least 32 characters (${HOW_TO_MAKE_A_SECRET})`);
  } else if (mode === "live" && estimatedEntropyBits(nextAuthSecret) < MIN_SECRET_ENTROPY_BITS) {
    problems.push(`  NEXTAUTH_SECRET: too predictable for live mode (${HOW_TO_MAKE_A_SECRET})`);
  }

  if (mode === "live") {
    // Names only, never the value: the message may reach a log.
    const published = new Set(PUBLISHED_VALUES);
    const credentials = Object.entries(source).filter(
      ([k]) => k === "NEXTAUTH_SECRET" || k === "OIDC_CLIENT_SECRET" || /^PLATFORM_(API_(KEY|SECRET|PASSPHRASE)|KEY_[A-Z0-9]+_API_(KEY|SECRET|PASSPHRASE))$/.test(k),
    );
    for (const [k, v] of credentials) {
      if (v && published.has(v.trim())) {
        problems.push(`  ${k}: is a demo value published in this repository, for simulator mode only; live mode needs your own (${k === "NEXTAUTH_SECRET" ? HOW_TO_MAKE_A_SECRET : "the platform's key"})`);
      }
    }
  }

  const keyAccess = parseKeyRoles(source);
  problems.push(...keyAccess.problems);

  const trustProxy = parseTrustProxy(source.TRUST_PROXY);
  if (typeof trustProxy === "string") problems.push(`  ${trustProxy}`);
  const metricsAllow = parseCidrList(e.METRICS_ALLOW ?? "");
  if (typeof metricsAllow === "string") problems.push(`  METRICS_ALLOW: '${metricsAllow}' is not an IP address or CIDR block (e.g. 10.0.0.0/8)`);

  // Simulator mode serves demo staff accounts whose passwords are in the README: loopback unless HOST says
  // otherwise (server/front-door.mjs warns at start-up when it does).
  const host = e.HOST || (mode === "simulator" ? "127.0.0.1" : "0.0.0.0");

  const oidcParts = [e.OIDC_ISSUER, e.OIDC_CLIENT_ID, e.OIDC_CLIENT_SECRET].filter(Boolean).length;
  if (oidcParts !== 0 && oidcParts !== 3) {
    problems.push("  OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET: set all three to enable single sign-on, or none");
  }

  const mfaRoles = parseMfaRoles(source.MFA_REQUIRED_ROLES, mode);
  if (typeof mfaRoles === "string") problems.push(`  MFA_REQUIRED_ROLES: ${mfaRoles}`);

  if (problems.length) throw new Error(`Invalid environment:\n${problems.join("\n")}`);

  return Object.freeze({
    nodeEnv: e.NODE_ENV,
    nextRuntime: e.NEXT_RUNTIME,
    mode,
    platform: Object.freeze({
      baseUrl: e.PLATFORM_BASE_URL,
      simulatorUrl: e.SIMULATOR_URL,
      locale: e.PLATFORM_LOCALE,
      timeoutMs: e.PLATFORM_TIMEOUT_MS,
      jitterMs: e.PLATFORM_JITTER_MS,
      keys: Object.freeze(keys),
      keyRoles: Object.freeze(keyAccess.keyRoles),
    }),
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    egressId: e.PLATFORM_EGRESS_ID,
    publicCacheMs: e.PUBLIC_CACHE_MS,
    nextAuthSecret,
    nextAuthUrl: e.NEXTAUTH_URL ?? `http://localhost:${e.PORT}`,
    port: e.PORT,
    host,
    trustProxy: typeof trustProxy === "string" ? { kind: "off" } : trustProxy,
    metrics: Object.freeze({ allow: typeof metricsAllow === "string" ? [] : metricsAllow, token: e.METRICS_TOKEN }),
    sim: Object.freeze({
      port: e.SIM_PORT, seed: e.SIM_SEED, scale: e.SIM_SCALE, controlToken: e.SIM_CONTROL_TOKEN, subaccounts: e.SIM_SUBACCOUNTS, depositRate: e.SIM_DEPOSIT_RATE,
    }),
    dataDir: e.DATA_DIR,
    session: Object.freeze({ idleMs: e.SESSION_IDLE_MINUTES * 60_000, maxAgeMs: e.SESSION_MAX_HOURS * 3_600_000 }),
    approverCoolOffMs: e.APPROVER_COOL_OFF_HOURS * 3_600_000,
    ledger: Object.freeze({
      sync: e.LEDGER_SYNC === "on", share: e.LEDGER_SYNC_SHARE, sweepSeconds: e.LEDGER_SWEEP_SECONDS, activeSeconds: e.LEDGER_ACTIVE_SECONDS,
      tradeKeys: e.LEDGER_TRADE_KEYS ? Object.freeze(listOf(e.LEDGER_TRADE_KEYS.toLowerCase())) : undefined,
      planSymbols: Object.freeze(listOf(e.LEDGER_PLAN_SYMBOLS)),
      retentionDays: e.LEDGER_RETENTION_DAYS,
    }),
    oidc: e.OIDC_ISSUER
      ? Object.freeze({ issuer: e.OIDC_ISSUER, clientId: e.OIDC_CLIENT_ID ?? "", clientSecret: e.OIDC_CLIENT_SECRET ?? "", mfa: e.OIDC_MFA })
      : undefined,
    mfa: Object.freeze({ requiredRoles: Object.freeze(typeof mfaRoles === "string" ? [] : mfaRoles), freshMs: e.MFA_FRESH_SECONDS * 1000 }),
    logLevel: e.LOG_LEVEL,
    version: source.npm_package_version ?? "0.1.0",
  });
}

if (typeof window !== "undefined") {
  throw new Error("lib/env.js holds secrets and must never be imported by browser code");
}

/** @type {ReturnType<typeof parseEnv>} */
export const env = parseEnv(process.env);

/**
 * For server/front-door.mjs, before it prepares Next.js: what the `next` command sets for its server
 * (instrumentation.ts's register() and a fresh read of this module in Next's bundles look at them).
 */
export function markNodeServer() {
  process.env.NODE_ENV ||= "production";
  process.env.NEXT_RUNTIME = "nodejs";
}

// next-auth reads NEXTAUTH_URL itself and falls back to localhost:3000 whatever PORT says (its provider
// list, the non-JS callback): give it the same default as the README's table.
if (!process.env.NEXTAUTH_URL) process.env.NEXTAUTH_URL = env.nextAuthUrl;

/**
 * The environment for a child process (the bench starts `next start`): this process's variables plus
 * `extra`. Here so that process.env is still read in this one module.
 * @param {Record<string, string>} extra
 * @returns {NodeJS.ProcessEnv}
 */
export function childEnv(extra) {
  return { ...process.env, ...extra };
}
