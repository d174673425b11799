// Every variable Brokerdesk reads, with its default and the message naming it when it is wrong.
// lib/env.js reads the environment and parses it with this schema.
import { z } from "zod";
import { bearerToken, decimalNumber, optionalUrl, port, positiveNumber, serviceUrl, wholeNumber } from "./fields.js";

/** ISO 17442: 18 letters or digits and 2 check digits, the whole (letters as 10..35) being 1 modulo 97. */
function leiIsValid(v) {
  if (!/^[A-Z0-9]{18}[0-9]{2}$/.test(v)) return false;
  let rest = 0;
  for (const ch of v.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55))) rest = (rest * 10 + Number(ch)) % 97;
  return rest === 1;
}

export const baseSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  // Set by Next.js in its server processes: which runtime this module was loaded in (instrumentation.ts).
  NEXT_RUNTIME: z.enum(["nodejs", "edge"]).optional(),
  // Set by `npm test`, which runs `tsc --noEmit` over the whole tree first: `next build` then skips its own
  // type check of the same files (35 s of a 30-minute CI bound). `npm start` and `npm run build` check types.
  BUILD_TYPES_CHECKED: z.enum(["1"]).optional(),
  PLATFORM_BASE_URL: optionalUrl("PLATFORM_BASE_URL"),
  // Simulator mode against a simulator started apart (`npm run sim`), e.g. shared by several instances.
  SIMULATOR_URL: optionalUrl("SIMULATOR_URL"),
  PLATFORM_API_KEY: z.string().optional(),
  PLATFORM_API_SECRET: z.string().optional(),
  PLATFORM_API_PASSPHRASE: z.string().optional(),
  PLATFORM_LOCALE: z.string().default("en-US"),
  PLATFORM_TIMEOUT_MS: wholeNumber("PLATFORM_TIMEOUT_MS", "10000", { what: "of milliseconds" }),
  // /metrics (Prometheus): answered to these addresses (the client as TRUST_PROXY resolves it), or to a
  // request with `Authorization: Bearer <METRICS_TOKEN>`.
  METRICS_ALLOW: z.string().default("127.0.0.1,::1"),
  METRICS_TOKEN: bearerToken("METRICS_TOKEN"),
  // The bound assumed on the jitter of the trip to the platform (± ms): pacing by the platform's requestTime
  // rests on it (server/platform/arrival.ts). Larger is safer and slower: each slot waits up to 2× it more.
  PLATFORM_JITTER_MS: z
    .string()
    .default("20")
    .pipe(
      z.string().regex(/^\d{1,4}$/, {
        message: "PLATFORM_JITTER_MS must be a whole number of milliseconds (0–9999)",
      }),
    )
    .transform(Number),
  DATABASE_URL: serviceUrl("DATABASE_URL", /^postgres(ql)?$/),
  REDIS_URL: serviceUrl("REDIS_URL", /^rediss?$/),
  NEXTAUTH_SECRET: z.string().optional(),
  // The master secret sub-account keys held in the database are sealed under (HKDF, then AES-256-GCM).
  KEY_SEALING_SECRET: z.string().optional(),
  NEXTAUTH_URL: optionalUrl("NEXTAUTH_URL"),
  PORT: port("PORT", 3000),
  SIM_PORT: port("SIM_PORT", 4010),
  // Optional: the simulator's /__sim/* control endpoints then need `Authorization: Bearer <token>`.
  SIM_CONTROL_TOKEN: bearerToken("SIM_CONTROL_TOKEN"),
  SIM_SEED: wholeNumber("SIM_SEED", "42"),
  SIM_SCALE: decimalNumber("SIM_SCALE", "1", "SIM_SCALE must be a positive number, e.g. 1 or 0.5", { positive: true }),
  // Sub-accounts of the simulator's broker, the 25 seeded desks included (server/simulator/data/population.ts).
  SIM_SUBACCOUNTS: wholeNumber("SIM_SUBACCOUNTS", "25", { min: 25, max: 500_000 }),
  // Live deposits per second arriving on the simulator across all sub-accounts; 0 = none (deterministic data).
  SIM_DEPOSIT_RATE: decimalNumber(
    "SIM_DEPOSIT_RATE",
    "0",
    "SIM_DEPOSIT_RATE must be a number of deposits per second, e.g. 0, 5 or 0.5",
  ),
  // How long a deposit stays pending before it succeeds and credits its balance, generated ones included (the
  // last 30 minutes' are pending at start). Default 30 minutes; the e2e servers use 0, so no balance a test
  // asserts on moves under it.
  SIM_DEPOSIT_SETTLE_MS: wholeNumber("SIM_DEPOSIT_SETTLE_MS", "1800000", {
    what: "of milliseconds, e.g. 0 or 1800000",
  }),
  DATA_DIR: z.string().default(".data"),
  // Decimals allowed (0.1 minutes = 6 s) so tests can watch a session expire in real time.
  SESSION_IDLE_MINUTES: positiveNumber("SESSION_IDLE_MINUTES", "30", "minutes"),
  SESSION_MAX_HOURS: positiveNumber("SESSION_MAX_HOURS", "12", "hours"),
  // Separation of duties: how long after its holder's own password change an account an admin set up
  // (created, promoted, password set) must wait before it may approve.
  APPROVER_COOL_OFF_HOURS: decimalNumber(
    "APPROVER_COOL_OFF_HOURS",
    "24",
    "APPROVER_COOL_OFF_HOURS must be a number of hours, e.g. 24 or 0.5 (0 = none)",
  ),
  // How long an approved address-book entry waits before a withdrawal to it counts as "in the book".
  DESTINATION_LOCK_HOURS: decimalNumber(
    "DESTINATION_LOCK_HOURS",
    "24",
    "DESTINATION_LOCK_HOURS must be a number of hours, e.g. 24 or 0.5 (0 = none)",
  ),
  // The Travel Rule: on-chain withdrawals valued at or above this many USDT carry the originator's and the
  // beneficiary's data (IVMS101). 0, the default, is every on-chain withdrawal, as under the EU's Transfer of
  // Funds Regulation. Kept as a decimal string: compared exactly (big.js) with the request's USDT value.
  TRAVEL_RULE_THRESHOLD_USDT: z
    .string()
    .default("0")
    .pipe(
      z.string().regex(/^(0|[1-9]\d{0,17})(\.\d{1,8})?$/, {
        message: "TRAVEL_RULE_THRESHOLD_USDT must be a decimal number of USDT, e.g. 1000 or 0 (every withdrawal)",
      }),
    ),
  // The broker as the originating VASP of its withdrawals' Travel Rule data: its legal name and, where it has
  // one, its LEI (ISO 17442, check digits verified) and country of registration.
  TRAVEL_RULE_VASP_NAME: z.string().trim().min(1).max(100).default("Brokerdesk broker"),
  TRAVEL_RULE_VASP_LEI: z
    .string()
    .optional()
    .refine((v) => v === undefined || leiIsValid(v), {
      message: "TRAVEL_RULE_VASP_LEI must be a 20-character LEI whose check digits match (ISO 17442)",
    }),
  TRAVEL_RULE_VASP_COUNTRY: z
    .string()
    .regex(/^[A-Z]{2}$/, { message: "TRAVEL_RULE_VASP_COUNTRY must be a two-letter ISO 3166 code such as DE" })
    .optional(),
  // How long compliance has to review a monitoring case, in days, by its highest alert's severity.
  MONITORING_REVIEW_DAYS: z
    .string()
    .default("high=2,medium=7,low=14")
    .pipe(
      z.string().regex(/^high=\d{1,3},medium=\d{1,3},low=\d{1,3}$/, {
        message: "MONITORING_REVIEW_DAYS must be high=<days>,medium=<days>,low=<days>, e.g. high=2,medium=7,low=14",
      }),
    )
    .transform((v) => {
      const days = Object.fromEntries(
        v
          .split(",")
          .map((part) => part.split("="))
          .map(([k, d]) => [k, Number(d)]),
      );
      return { high: days.high, medium: days.medium, low: days.low };
    }),
  // Simulator mode: the preset monitoring rules made active at the first start (server/monitoring/demo-rules.ts);
  // the test instances that need a clean slate turn it off. Unset = on in simulator mode (parseEnv).
  // Notifications by e-mail: the SMTP server (smtp://user:pass@host:587 or smtps://…), and the sender. Without
  // SMTP_URL e-mail is off (in simulator mode an in-process sink receives it, shown at /dev/mail).
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^\s]+$/, {
      message: "SMTP_URL must be an smtp:// or smtps:// URL, e.g. smtp://mail.example:587",
    })
    .optional(),
  NOTIFY_FROM: z.string().trim().min(3).max(200).default("Brokerdesk <brokerdesk@localhost>"),
  // A withdrawal nobody approved in this many minutes is escalated once to every lead, and at twice this to admin
  // (server/notifications/escalate.ts); 0 turns escalation off.
  NOTIFY_ESCALATE_AFTER_MINUTES: wholeNumber("NOTIFY_ESCALATE_AFTER_MINUTES", "30", {
    what: "of minutes (0 = off)",
    min: 0,
    max: 10080,
  }),
  // The ledger's sync behind its schedule by more than this many minutes raises sync.behind once per episode
  // (server/notifications/periodic.ts); 0 turns the check off.
  NOTIFY_SYNC_BEHIND_MINUTES: wholeNumber("NOTIFY_SYNC_BEHIND_MINUTES", "30", {
    what: "of minutes (0 = off)",
    min: 0,
    max: 10080,
  }),
  // The window over which platform calls are judged for platform.down: at least 5 calls in it and half or more
  // failed (no answer, or HTTP 5xx) raises it once per episode; 0 turns the check off.
  NOTIFY_PLATFORM_DOWN_MINUTES: wholeNumber("NOTIFY_PLATFORM_DOWN_MINUTES", "5", {
    what: "of minutes (0 = off)",
    min: 0,
    max: 1440,
  }),
  MONITORING_DEMO_RULES: z.enum(["on", "off"], { message: "MONITORING_DEMO_RULES must be on or off" }).optional(),
  // Simulator mode: how many of the registry's desks get a demo sub-account key at first start (0: none).
  DEMO_SUBACCOUNT_KEYS: z
    .string()
    .regex(/^\d{1,5}$/, { message: "DEMO_SUBACCOUNT_KEYS must be a whole number of desks (0 for none)" })
    .optional(),
  // Leverage plans: targets in flight at once (docs/leverage-plans.md says why the default is safe for the platform).
  LEVERAGE_ROLLOUT_CONCURRENCY: wholeNumber("LEVERAGE_ROLLOUT_CONCURRENCY", "16", { min: 1, max: 64 }),
  // How long a public market answer (E8, E11) is served from the server's cache; 0 turns it off.
  PUBLIC_CACHE_MS: wholeNumber("PUBLIC_CACHE_MS", "1000", { what: "of milliseconds (0 = off)" }),
  // Names this instance's egress IP in the shared rate budget: instances that reach the platform from the
  // same address share its per-IP limits. Only read with REDIS_URL.
  PLATFORM_EGRESS_ID: z
    .string()
    .default("default")
    .pipe(
      z
        .string()
        .regex(/^[A-Za-z0-9._:-]{1,64}$/, { message: "PLATFORM_EGRESS_ID must be 1-64 letters, digits or . _ : -" }),
    ),
  // Second factor. Roles that must enrol one: "all", "none" or a comma list; the default
  // depends on the mode (parseEnv). How recent a factor must be for approvals, role and password changes.
  MFA_REQUIRED_ROLES: z.string().optional(),
  MFA_FRESH_SECONDS: wholeNumber("MFA_FRESH_SECONDS", "300", { what: "of seconds", min: 1, max: 3600 }),
  // bcrypt's work factor for passwords hashed from now on (a stored hash keeps its own). Below 12 only in
  // simulator mode (parseEnv): the test suites sign in hundreds of times and set 4.
  PASSWORD_HASH_COST: wholeNumber("PASSWORD_HASH_COST", "12", { min: 4, max: 15 }),
  // "idp": a single sign-on whose ID token says the identity provider did multi-factor (amr "mfa") counts as the second
  // factor.
  OIDC_MFA: z.enum(["brokerdesk", "idp"], { message: 'OIDC_MFA must be "brokerdesk" or "idp"' }).default("brokerdesk"),
  OIDC_ISSUER: optionalUrl("OIDC_ISSUER"),
  OIDC_CLIENT_ID: z.string().optional(),
  OIDC_CLIENT_SECRET: z.string().optional(),
  // The ledger's sync: on or off; the share of each operation's rate it may use; how often it
  // looks for due sub-accounts; how often an active sub-account is checked.
  LEDGER_SYNC: z.enum(["on", "off"], { message: "LEDGER_SYNC must be on or off" }).default("on"),
  LEDGER_SYNC_SHARE: z
    .string()
    .default("0.5")
    .pipe(
      z
        .string()
        .regex(/^(0(\.\d+)?|1(\.0+)?)$/, { message: "LEDGER_SYNC_SHARE must be a fraction between 0 and 1, e.g. 0.5" }),
    )
    .transform(Number)
    .pipe(z.number().positive({ message: "LEDGER_SYNC_SHARE must be greater than 0" })),
  LEDGER_SWEEP_SECONDS: positiveNumber("LEDGER_SWEEP_SECONDS", "10", "seconds"),
  LEDGER_ACTIVE_SECONDS: positiveNumber("LEDGER_ACTIVE_SECONDS", "60", "seconds"),
  // The most of the sync's E1 share that extra checks of active sub-accounts may take. Every other
  // sub-account is then checked at least once per (sub-accounts ÷ the share) ÷ (1 − this): 0 gives every
  // sub-account the physical bound and actives no more often (engine.ts, checkIntervals).
  LEDGER_ACTIVE_SHARE: z
    .string()
    .default("0.25")
    .pipe(
      z.string().regex(/^0(\.\d+)?$/, {
        message: "LEDGER_ACTIVE_SHARE must be a fraction from 0 up to (not including) 1, e.g. 0.25",
      }),
    )
    .transform(Number),
  // Fills (E4) and plan orders (E3) in the ledger: the keys whose records are kept (comma-separated names;
  // default every configured key), and the symbols whose plan orders are kept besides those a key's fills
  // name (E3 needs a symbol, and a key with plan orders but no fills would otherwise be missed).
  LEDGER_TRADE_KEYS: z
    .string()
    .optional()
    .pipe(
      z
        .string()
        .regex(/^\s*[a-z0-9]+(\s*,\s*[a-z0-9]+)*\s*$/i, {
          message: "LEDGER_TRADE_KEYS is a comma-separated list of key names, e.g. main,sub1",
        })
        .optional(),
    ),
  LEDGER_PLAN_SYMBOLS: z
    .string()
    .default("BTCUSDT,ETHUSDT")
    .pipe(
      z.string().regex(/^\s*([A-Z0-9]{2,30}(\s*,\s*[A-Z0-9]{2,30})*)?\s*$/, {
        message: "LEDGER_PLAN_SYMBOLS is a comma-separated list of symbols, e.g. BTCUSDT,ETHUSDT",
      }),
    ),
  // How long Brokerdesk keeps a ledger record (by the platform's creation time): "forever" (the default;
  // record-keeping rules commonly ask for five years) or a whole number of days.
  LEDGER_RETENTION_DAYS: z
    .string()
    .trim()
    .default("forever")
    .pipe(
      z
        .string()
        .regex(/^(forever|\d+)$/, { message: 'LEDGER_RETENTION_DAYS must be a whole number of days, or "forever"' }),
    )
    .transform((v) => (v === "forever" ? null : Number(v)))
    .pipe(z.number().int().min(1, { message: "LEDGER_RETENTION_DAYS must be at least 1 day" }).nullable()),
  // The address Brokerdesk listens on (server/front-door.mjs). Simulator mode: loopback only.
  HOST: z.string().trim().optional(),
  TRUST_PROXY: z.string().optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
});
