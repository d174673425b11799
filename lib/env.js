// The one module that reads process.env (STYLE rule 13). next.config.js imports it, so a bad
// environment stops `next build` / `next start` with a message naming the variable.
import {
  DEMO_KEY_SEALING_SECRET,
  DEMO_NEXTAUTH_SECRET,
  HOW_TO_MAKE_A_SECRET,
  MIN_SECRET_ENTROPY_BITS,
  PUBLISHED_VALUES,
  SIMULATOR_DEMO_KEY,
  estimatedEntropyBits,
} from "./env-parts/published.js";
import {
  NAMED_KEY,
  ROLES_VAR,
  listOf,
  parseCidrList,
  parseKeyRoles,
  parseMfaRoles,
  parseTrustProxy,
} from "./env-parts/fields.js";
import { baseSchema } from "./env-parts/schema.js";

export {
  MIN_SECRET_ENTROPY_BITS,
  PUBLISHED_VALUES,
  SIMULATOR_DEMO_KEY,
  SIMULATOR_OTHER_DEMO_KEYS,
  estimatedEntropyBits,
} from "./env-parts/published.js";
export { parseKeyRoles, parseTrustProxy } from "./env-parts/fields.js";

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
    problems.push(
      "  SIMULATOR_URL: set either PLATFORM_BASE_URL (the real platform) or SIMULATOR_URL (a standalone " +
        "simulator), not both",
    );
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
      problems.push(
        `  ${k}: not a named key; use PLATFORM_KEY_<NAME>_API_KEY/_API_SECRET/_API_PASSPHRASE with NAME of ` +
          `letters and digits only`,
      );
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
      if (!parts[part])
        problems.push(
          `  PLATFORM_KEY_${name.toUpperCase()}_${part}: missing (the other parts of key '${name}' are set)`,
        );
    }
    keys[name] = {
      apiKey: parts.API_KEY ?? "",
      apiSecret: parts.API_SECRET ?? "",
      passphrase: parts.API_PASSPHRASE ?? "",
    };
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

  // Sub-account keys held in the database are sealed under a key derived from this secret: never the session
  // secret (one leak must not open both). Live mode without it holds no keys in the database (adding one is
  // refused, saying so); simulator mode falls back to a published demo value.
  let keySealingSecret = e.KEY_SEALING_SECRET || undefined;
  if (!keySealingSecret) {
    if (mode === "simulator") keySealingSecret = DEMO_KEY_SEALING_SECRET;
  } else if (keySealingSecret.length < 32) {
    problems.push(`  KEY_SEALING_SECRET: must be at least 32 characters (${HOW_TO_MAKE_A_SECRET})`);
  } else if (keySealingSecret === nextAuthSecret) {
    problems.push("  KEY_SEALING_SECRET: must not be NEXTAUTH_SECRET (one leaked secret must not open both)");
  } else if (mode === "live" && estimatedEntropyBits(keySealingSecret) < MIN_SECRET_ENTROPY_BITS) {
    problems.push(`  KEY_SEALING_SECRET: too predictable for live mode (${HOW_TO_MAKE_A_SECRET})`);
  }

  if (mode === "live") {
    // Names only, never the value: the message may reach a log.
    const published = new Set(PUBLISHED_VALUES);
    const credentials = Object.entries(source).filter(
      ([k]) =>
        k === "NEXTAUTH_SECRET" ||
        k === "KEY_SEALING_SECRET" ||
        k === "OIDC_CLIENT_SECRET" ||
        /^PLATFORM_(API_(KEY|SECRET|PASSPHRASE)|KEY_[A-Z0-9]+_API_(KEY|SECRET|PASSPHRASE))$/.test(k),
    );
    for (const [k, v] of credentials) {
      if (v && published.has(v.trim())) {
        problems.push(
          `  ${k}: is a demo value published in this repository, for simulator mode only; live mode needs ` +
            `your own (${k === "NEXTAUTH_SECRET" || k === "KEY_SEALING_SECRET" ? HOW_TO_MAKE_A_SECRET : "the platform's key"})`,
        );
      }
    }
  }

  const keyAccess = parseKeyRoles(source);
  problems.push(...keyAccess.problems);

  const trustProxy = parseTrustProxy(source.TRUST_PROXY);
  if (typeof trustProxy === "string") problems.push(`  ${trustProxy}`);
  const metricsAllow = parseCidrList(e.METRICS_ALLOW ?? "");
  if (typeof metricsAllow === "string")
    problems.push(`  METRICS_ALLOW: '${metricsAllow}' is not an IP address or CIDR block (e.g. 10.0.0.0/8)`);

  // Simulator mode serves demo staff accounts whose passwords are in the README: loopback unless HOST says
  // otherwise (server/front-door.mjs warns at start-up when it does).
  const host = e.HOST || (mode === "simulator" ? "127.0.0.1" : "0.0.0.0");

  const oidcParts = [e.OIDC_ISSUER, e.OIDC_CLIENT_ID, e.OIDC_CLIENT_SECRET].filter(Boolean).length;
  if (oidcParts !== 0 && oidcParts !== 3) {
    problems.push("  OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET: set all three to enable single sign-on, or none");
  }

  const mfaRoles = parseMfaRoles(source.MFA_REQUIRED_ROLES, mode);
  if (typeof mfaRoles === "string") problems.push(`  MFA_REQUIRED_ROLES: ${mfaRoles}`);

  if (mode === "live" && e.PASSWORD_HASH_COST !== undefined && e.PASSWORD_HASH_COST < 12) {
    problems.push(
      "  PASSWORD_HASH_COST: below 12 is for the test suites in simulator mode; live mode needs 12 or more",
    );
  }

  if (mode === "live" && e.MONITORING_DEMO_RULES === "on") {
    problems.push(
      "  MONITORING_DEMO_RULES: the demo rules are drafted and activated by the demo staff, simulator mode only",
    );
  }

  if (mode === "live" && e.DEMO_SUBACCOUNT_KEYS !== undefined && e.DEMO_SUBACCOUNT_KEYS !== "0") {
    problems.push(
      "  DEMO_SUBACCOUNT_KEYS: the demo's sub-account keys are minted by the simulator, simulator mode only",
    );
  }

  if (problems.length) throw new Error(`Invalid environment:\n${problems.join("\n")}`);

  return Object.freeze({
    nodeEnv: e.NODE_ENV,
    buildTypesChecked: e.BUILD_TYPES_CHECKED === "1",
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
    leverageRolloutConcurrency: e.LEVERAGE_ROLLOUT_CONCURRENCY,
    nextAuthSecret,
    keySealingSecret,
    nextAuthUrl: e.NEXTAUTH_URL ?? `http://localhost:${e.PORT}`,
    port: e.PORT,
    host,
    trustProxy: typeof trustProxy === "string" ? { kind: "off" } : trustProxy,
    metrics: Object.freeze({ allow: typeof metricsAllow === "string" ? [] : metricsAllow, token: e.METRICS_TOKEN }),
    sim: Object.freeze({
      port: e.SIM_PORT,
      seed: e.SIM_SEED,
      scale: e.SIM_SCALE,
      controlToken: e.SIM_CONTROL_TOKEN,
      subaccounts: e.SIM_SUBACCOUNTS,
      depositRate: e.SIM_DEPOSIT_RATE,
      depositSettleMs: e.SIM_DEPOSIT_SETTLE_MS,
    }),
    dataDir: e.DATA_DIR,
    session: Object.freeze({ idleMs: e.SESSION_IDLE_MINUTES * 60_000, maxAgeMs: e.SESSION_MAX_HOURS * 3_600_000 }),
    approverCoolOffMs: e.APPROVER_COOL_OFF_HOURS * 3_600_000,
    destinationLockMs: e.DESTINATION_LOCK_HOURS * 3_600_000,
    monitoringReviewDays: Object.freeze(e.MONITORING_REVIEW_DAYS),
    /** Simulator mode: seed the preset rules, drafted by demo compliance and activated by the demo admin. */
    monitoringDemoRules: mode === "simulator" && (e.MONITORING_DEMO_RULES ?? "on") === "on",
    /** Simulator mode: how many desks get a demo sub-account key at first start (DEMO_SUBACCOUNT_KEYS, 300 unless set). */
    demoSubaccountKeys: mode === "simulator" ? Number(e.DEMO_SUBACCOUNT_KEYS ?? "300") : 0,
    notify: Object.freeze({
      smtpUrl: e.SMTP_URL,
      from: e.NOTIFY_FROM ?? "Brokerdesk <brokerdesk@localhost>",
      escalateAfterMinutes: e.NOTIFY_ESCALATE_AFTER_MINUTES,
      syncBehindMinutes: e.NOTIFY_SYNC_BEHIND_MINUTES,
      platformDownMinutes: e.NOTIFY_PLATFORM_DOWN_MINUTES,
    }),
    travelRule: Object.freeze({
      thresholdUsdt: e.TRAVEL_RULE_THRESHOLD_USDT ?? "0",
      vaspName: e.TRAVEL_RULE_VASP_NAME ?? "Brokerdesk broker",
      vaspLei: e.TRAVEL_RULE_VASP_LEI,
      vaspCountry: e.TRAVEL_RULE_VASP_COUNTRY,
    }),
    passwordHashCost: e.PASSWORD_HASH_COST,
    ledger: Object.freeze({
      sync: e.LEDGER_SYNC === "on",
      share: e.LEDGER_SYNC_SHARE,
      sweepSeconds: e.LEDGER_SWEEP_SECONDS,
      activeSeconds: e.LEDGER_ACTIVE_SECONDS,
      activeShare: e.LEDGER_ACTIVE_SHARE,
      tradeKeys: e.LEDGER_TRADE_KEYS ? Object.freeze(listOf(e.LEDGER_TRADE_KEYS.toLowerCase())) : undefined,
      planSymbols: Object.freeze(listOf(e.LEDGER_PLAN_SYMBOLS)),
      retentionDays: e.LEDGER_RETENTION_DAYS,
    }),
    oidc: e.OIDC_ISSUER
      ? Object.freeze({
          issuer: e.OIDC_ISSUER,
          clientId: e.OIDC_CLIENT_ID ?? "",
          clientSecret: e.OIDC_CLIENT_SECRET ?? "",
          mfa: e.OIDC_MFA,
        })
      : undefined,
    mfa: Object.freeze({
      requiredRoles: Object.freeze(typeof mfaRoles === "string" ? [] : mfaRoles),
      freshMs: e.MFA_FRESH_SECONDS * 1000,
    }),
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
// list, the non-JS callback): give it the same default as docs/configuration.md's table.
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
