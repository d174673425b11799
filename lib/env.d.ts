export type StaffRole = "compliance" | "broker" | "lead" | "admin";
export declare function parseKeyRoles(source: Readonly<Record<string, string | undefined>>): {
  keyRoles: Record<string, StaffRole[]>;
  problems: string[];
};
export type PlatformKey = { apiKey: string; apiSecret: string; passphrase: string };
export type Env = Readonly<{
  nodeEnv: "development" | "production" | "test";
  /** `npm test` checked the types first (BUILD_TYPES_CHECKED=1): `next build` skips its own check. */
  buildTypesChecked: boolean;
  /** Next.js's server runtime this process runs (undefined outside a Next.js server: CLI tools, tests). */
  nextRuntime: "nodejs" | "edge" | undefined;
  mode: "live" | "simulator";
  platform: Readonly<{
    baseUrl: string | undefined;
    simulatorUrl: string | undefined;
    locale: string;
    timeoutMs: number;
    /** The assumed bound on the jitter of the trip to the platform (± ms), for pacing by requestTime. */
    jitterMs: number;
    keys: Readonly<Record<string, PlatformKey>>;
    /** PLATFORM_KEY_<NAME>_ROLES: the staff roles that may choose each named key (unset = the defaults). */
    keyRoles: Readonly<Record<string, StaffRole[]>>;
  }>;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  /** Names this instance's egress IP in the shared (Redis) rate budget. */
  egressId: string;
  /** Time-to-live of cached public market answers (E8, E11); 0 = no cache. */
  publicCacheMs: number;
  /** Leverage plans: targets in flight at once (LEVERAGE_ROLLOUT_CONCURRENCY, 1–64, default 16). */
  leverageRolloutConcurrency: number;
  nextAuthSecret: string;
  /**
   * KEY_SEALING_SECRET: the master secret sub-account keys held in the database are sealed under (never
   * NEXTAUTH_SECRET). Simulator mode: a published demo value when unset. Live mode: undefined when unset, and
   * no key can be added to the database.
   */
  keySealingSecret: string | undefined;
  nextAuthUrl: string;
  port: number;
  /** The address the front door listens on (loopback in simulator mode). */
  host: string;
  trustProxy: TrustProxy;
  /** Who may read /metrics: these addresses and CIDR blocks, or a bearer of the token. */
  metrics: Readonly<{ allow: string[]; token: string | undefined }>;
  sim: Readonly<{
    port: number;
    seed: number;
    scale: number;
    controlToken: string | undefined;
    subaccounts: number;
    depositRate: number;
    depositSettleMs: number;
  }>;
  dataDir: string;
  session: Readonly<{ idleMs: number; maxAgeMs: number }>;
  /** Separation of duties: the wait after an own password change before an admin-set-up account may approve. */
  approverCoolOffMs: number;
  destinationLockMs: number;
  /** Days to review a monitoring case, by its highest alert's severity (MONITORING_REVIEW_DAYS). */
  monitoringReviewDays: Readonly<{ high: number; medium: number; low: number }>;
  /**
   * Simulator mode: the preset monitoring rules are seeded at start, drafted by the demo compliance user and activated
   * by the demo admin (MONITORING_DEMO_RULES, on unless set off; always false in live mode).
   */
  monitoringDemoRules: boolean;
  /**
   * Simulator mode: how many of the registry's desks get a sub-account key at first start, minted by the simulator,
   * sealed, added by the start-up and approved by the demo admin (DEMO_SUBACCOUNT_KEYS, 300 unless set; 0 in live mode).
   */
  demoSubaccountKeys: number;
  /**
   * Notifications by e-mail: SMTP_URL (undefined: e-mail off, or the in-process sink in simulator mode) and
   * NOTIFY_FROM. The URL may carry a password: never logged or shown (the mailer says only its host).
   * escalateAfterMinutes: an approval nobody acted on is escalated after it (NOTIFY_ESCALATE_AFTER_MINUTES; 0 = off).
   * syncBehindMinutes: the sync behind its schedule by more raises sync.behind (NOTIFY_SYNC_BEHIND_MINUTES; 0 = off).
   * platformDownMinutes: the window of platform calls judged for platform.down (NOTIFY_PLATFORM_DOWN_MINUTES; 0 = off).
   */
  notify: Readonly<{
    smtpUrl: string | undefined;
    from: string;
    escalateAfterMinutes: number;
    syncBehindMinutes: number;
    platformDownMinutes: number;
  }>;
  /**
   * The Travel Rule: the USDT value from which an on-chain withdrawal carries IVMS101 data (TRAVEL_RULE_THRESHOLD_USDT,
   * a decimal string; "0" = every one), and the broker as the originating VASP.
   */
  travelRule: Readonly<{
    thresholdUsdt: string;
    vaspName: string;
    vaspLei: string | undefined;
    vaspCountry: string | undefined;
  }>;
  /** bcrypt work factor of new password hashes (PASSWORD_HASH_COST; 12 unless set, below 12 only in simulator mode). */
  passwordHashCost: number;
  /** The ledger's sync. */
  ledger: Readonly<{
    sync: boolean;
    share: number;
    sweepSeconds: number;
    activeSeconds: number;
    /** The most of the sync's E1 share that active sub-accounts' extra checks may take (LEDGER_ACTIVE_SHARE). */
    activeShare: number;
    /** Keys whose fills and plan orders are kept (LEDGER_TRADE_KEYS); undefined = every configured key. */
    tradeKeys: readonly string[] | undefined;
    planSymbols: readonly string[];
    /** null: kept forever. */
    retentionDays: number | null;
  }>;
  /** mfa "idp": an ID token whose amr says multi-factor counts as the second factor. */
  oidc: Readonly<{ issuer: string; clientId: string; clientSecret: string; mfa: "brokerdesk" | "idp" }> | undefined;
  /** Second factor: roles that must enrol one, and how recent a factor must be for sensitive actions. */
  mfa: Readonly<{ requiredRoles: readonly ("compliance" | "broker" | "lead" | "admin")[]; freshMs: number }>;
  logLevel: "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
  version: string;
}>;
export type TrustProxy = { kind: "off" } | { kind: "hops"; hops: number } | { kind: "cidrs"; cidrs: string[] };
export declare function parseTrustProxy(raw: string | undefined): TrustProxy | string;
export declare const SIMULATOR_OTHER_DEMO_KEYS: Readonly<
  Record<"readOnly" | "nonBroker" | "riskUnit", Readonly<PlatformKey>>
>;
export declare const PUBLISHED_VALUES: readonly string[];
export declare function estimatedEntropyBits(value: string): number;
export declare const MIN_SECRET_ENTROPY_BITS: number;
export declare const SIMULATOR_DEMO_KEY: Readonly<PlatformKey>;
export declare function parseEnv(source: Record<string, string | undefined>): Env;
export declare const env: Env;
/**
 * For server/front-door.mjs: NODE_ENV (default production) and NEXT_RUNTIME=nodejs, as the `next` command sets them.
 */
export declare function markNodeServer(): void;
/** This process's environment plus `extra`, for a child process (the bench's `next start`). */
export declare function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv;
