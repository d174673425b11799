// The environment is validated once (STYLE rule 13): a bad value stops start-up with a message that
// names the variable, and never repeats a secret.
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import {
  estimatedEntropyBits,
  MIN_SECRET_ENTROPY_BITS,
  parseEnv,
  parseTrustProxy,
  PUBLISHED_VALUES,
  SIMULATOR_DEMO_KEY,
} from "@/lib/env";

const LIVE = {
  PLATFORM_BASE_URL: "https://api.platform.example",
  PLATFORM_API_KEY: "bg_live_key_4f1c9a",
  PLATFORM_API_SECRET: "live-secret-7d2e8b0c3a9f4e51",
  PLATFORM_API_PASSPHRASE: "live-passphrase-93b1",
  // As `openssl rand -base64 48` makes one (a fixed sample, so the test is deterministic).
  NEXTAUTH_SECRET: "q3Vx9Lr0+Zk2mWc7Tn5yHb8Ea1Ps4Jd6Gf/Uo0Ri9Xe3Ck7Nl2Yw5Ba8Dv1Hq4Mt6Sg",
} as const;

/** The message parseEnv throws for a source, or "" when it does not throw. */
function errorOf(source: Record<string, string | undefined>): string {
  try {
    parseEnv(source);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  return "";
}

const without = (source: Record<string, string>, key: string) =>
  Object.fromEntries(Object.entries(source).filter(([k]) => k !== key));

describe("[env][simulator]", () => {
  it("[env][simulator] the demo rules: on in simulator mode unless MONITORING_DEMO_RULES is off, never in live mode", () => {
    expect(parseEnv({}).monitoringDemoRules).toBe(true);
    expect(parseEnv({ MONITORING_DEMO_RULES: "off" }).monitoringDemoRules).toBe(false);
    expect(errorOf({ MONITORING_DEMO_RULES: "yes" })).toMatch(/MONITORING_DEMO_RULES must be on or off/);
    expect(parseEnv(LIVE).monitoringDemoRules).toBe(false);
    expect(errorOf({ ...LIVE, MONITORING_DEMO_RULES: "on" })).toMatch(/MONITORING_DEMO_RULES: .*simulator mode only/);
  });

  it("[env][simulator] an empty environment is simulator mode with the demo key", () => {
    const env = parseEnv({});
    expect(env.mode).toBe("simulator");
    expect(env.platform.baseUrl).toBeUndefined();
    expect(env.platform.keys.main).toEqual({ ...SIMULATOR_DEMO_KEY });
    expect(Object.keys(env.platform.keys)).toEqual(["main"]);
  });

  it("[env][simulator] SIMULATOR_URL keeps simulator mode against a standalone simulator; with PLATFORM_BASE_URL it is refused", () => {
    const env = parseEnv({ SIMULATOR_URL: "http://127.0.0.1:4010" });
    expect(env.mode).toBe("simulator");
    expect(env.platform.simulatorUrl).toBe("http://127.0.0.1:4010");
    expect(env.platform.keys.main).toEqual({ ...SIMULATOR_DEMO_KEY });
    expect(() => parseEnv({ SIMULATOR_URL: "ftp://x", PUBLIC_CACHE_MS: "1000" })).toThrow(/SIMULATOR_URL/);
    expect(() =>
      parseEnv({
        SIMULATOR_URL: "http://127.0.0.1:4010",
        PLATFORM_BASE_URL: "https://api.example.com",
        PLATFORM_API_KEY: "k",
        PLATFORM_API_SECRET: "s",
        PLATFORM_API_PASSPHRASE: "p",
        NEXTAUTH_SECRET: "x".repeat(32),
      }),
    ).toThrow(/SIMULATOR_URL: set either/);
  });

  it("[env][scale-out] PUBLIC_CACHE_MS, PLATFORM_EGRESS_ID and decimal session lifetimes", () => {
    const env = parseEnv({
      PUBLIC_CACHE_MS: "0",
      PLATFORM_EGRESS_ID: "office-1",
      SESSION_IDLE_MINUTES: "0.1",
      SESSION_MAX_HOURS: "0.5",
    });
    expect(env.publicCacheMs).toBe(0);
    expect(env.egressId).toBe("office-1");
    expect(env.session).toEqual({ idleMs: 6_000, maxAgeMs: 1_800_000 });
    expect(parseEnv({}).publicCacheMs).toBe(1000);
    expect(parseEnv({}).egressId).toBe("default");
    expect(() => parseEnv({ PUBLIC_CACHE_MS: "1.5" })).toThrow(/PUBLIC_CACHE_MS/);
    expect(() => parseEnv({ PLATFORM_EGRESS_ID: "has space" })).toThrow(/PLATFORM_EGRESS_ID/);
    expect(() => parseEnv({ SESSION_IDLE_MINUTES: "0" })).toThrow(/SESSION_IDLE_MINUTES must be greater than 0/);
    expect(() => parseEnv({ SESSION_MAX_HOURS: "-1" })).toThrow(/SESSION_MAX_HOURS/);
  });

  it("[env][simulator] applies the documented defaults", () => {
    const env = parseEnv({});
    expect(env.port).toBe(3000);
    expect(env.sim).toEqual({
      port: 4010,
      seed: 42,
      scale: 1,
      subaccounts: 25,
      depositRate: 0,
      depositSettleMs: 1_800_000,
    });
    expect(env.nextAuthUrl).toBe("http://localhost:3000");
    expect(env.nextAuthSecret.length).toBeGreaterThanOrEqual(32);
    expect(env.platform.locale).toBe("en-US");
    expect(env.platform.timeoutMs).toBe(10_000);
    expect(env.logLevel).toBe("info");
  });

  it("[env][simulator] reads explicit values as numbers", () => {
    const env = parseEnv({
      PORT: "8080",
      SIM_PORT: "4999",
      SIM_SEED: "7",
      SIM_SCALE: "0.5",
      SIM_SUBACCOUNTS: "10000",
      SIM_DEPOSIT_RATE: "2.5",
      SIM_DEPOSIT_SETTLE_MS: "0",
    });
    expect(env.port).toBe(8080);
    expect(env.nextAuthUrl).toBe("http://localhost:8080");
    expect(env.sim).toEqual({
      port: 4999,
      seed: 7,
      scale: 0.5,
      subaccounts: 10_000,
      depositRate: 2.5,
      depositSettleMs: 0,
    });
    expect(() => parseEnv({ SIM_DEPOSIT_SETTLE_MS: "30 min" })).toThrow(
      /SIM_DEPOSIT_SETTLE_MS: SIM_DEPOSIT_SETTLE_MS must be a whole number of milliseconds/,
    );
  });

  it("[env][simulator] treats an empty PLATFORM_BASE_URL as unset", () => {
    expect(parseEnv({ PLATFORM_BASE_URL: "" }).mode).toBe("simulator");
  });

  it("[env][simulator] the demo key is frozen", () => {
    expect(Object.isFrozen(SIMULATOR_DEMO_KEY)).toBe(true);
  });
});

describe("[env][live]", () => {
  it("[env][live] a complete live environment parses", () => {
    const env = parseEnv(LIVE);
    expect(env.mode).toBe("live");
    expect(env.platform.baseUrl).toBe(LIVE.PLATFORM_BASE_URL);
    expect(env.platform.keys.main).toEqual({
      apiKey: LIVE.PLATFORM_API_KEY,
      apiSecret: LIVE.PLATFORM_API_SECRET,
      passphrase: LIVE.PLATFORM_API_PASSPHRASE,
    });
    expect(env.nextAuthSecret).toBe(LIVE.NEXTAUTH_SECRET);
  });

  it("[env][live] names every missing credential at once", () => {
    const message = errorOf({ PLATFORM_BASE_URL: LIVE.PLATFORM_BASE_URL });
    for (const name of ["PLATFORM_API_KEY", "PLATFORM_API_SECRET", "PLATFORM_API_PASSPHRASE", "NEXTAUTH_SECRET"]) {
      expect(message).toContain(name);
    }
  });

  it.each(["PLATFORM_API_KEY", "PLATFORM_API_SECRET", "PLATFORM_API_PASSPHRASE", "NEXTAUTH_SECRET"])(
    "[env][live] a missing %s is named, and only it",
    (name) => {
      const message = errorOf(without(LIVE, name));
      expect(message).toMatch(new RegExp(`^\\s+${name}:`, "m"));
      const named = message.split("\n").filter((l) => /^\s+[A-Z_]+:/.test(l));
      expect(named).toHaveLength(1);
    },
  );

  it("[env][live] never falls back to the demo key", () => {
    const message = errorOf({ ...without(LIVE, "PLATFORM_API_SECRET") });
    expect(message).toContain("PLATFORM_API_SECRET");
  });
});

describe("[env][malformed]", () => {
  it.each([
    { name: "PORT", value: "http" },
    { name: "PORT", value: "70000" },
    { name: "SIM_PORT", value: "-1" },
    { name: "SIM_SEED", value: "seed" },
    { name: "SIM_SCALE", value: "0" },
    { name: "SIM_SCALE", value: "fast" },
    { name: "SIM_SCALE", value: "-2" },
    { name: "SIM_SUBACCOUNTS", value: "24" },
    { name: "SIM_SUBACCOUNTS", value: "1e5" },
    { name: "SIM_SUBACCOUNTS", value: "500001" },
    { name: "SIM_DEPOSIT_RATE", value: "-1" },
    { name: "SIM_DEPOSIT_RATE", value: "fast" },
    { name: "PLATFORM_BASE_URL", value: "api.platform.example" },
    { name: "PLATFORM_TIMEOUT_MS", value: "10s" },
    { name: "DATABASE_URL", value: "not a url" },
    { name: "NEXTAUTH_URL", value: "//localhost:3000" },
  ])("[env][malformed] $name=$value is named", ({ name, value }) => {
    const message = errorOf({ [name]: value });
    expect(message).toMatch(/^Invalid environment/);
    expect(message).toMatch(new RegExp(`^\\s+${name}:`, "m"));
  });

  it("[env][malformed] a NEXTAUTH_SECRET shorter than 32 characters is named", () => {
    expect(errorOf({ NEXTAUTH_SECRET: "x".repeat(32) })).toBe("");
    const message = errorOf({ NEXTAUTH_SECRET: "x".repeat(31) });
    expect(message).toMatch(/^\s+NEXTAUTH_SECRET:.*32/m);
  });

  it("[env][malformed] a short NEXTAUTH_SECRET is refused in live mode too", () => {
    expect(errorOf({ ...LIVE, NEXTAUTH_SECRET: "short" })).toMatch(/NEXTAUTH_SECRET/);
  });
});

describe("[env][named keys]", () => {
  const RISKUNIT = {
    PLATFORM_KEY_RISKUNIT_API_KEY: "bg_riskunit_key_01",
    PLATFORM_KEY_RISKUNIT_API_SECRET: "riskunit-secret-5a6b7c8d",
    PLATFORM_KEY_RISKUNIT_API_PASSPHRASE: "riskunit-pass-0f0f",
  } as const;

  it("[env][named keys] PLATFORM_KEY_RISKUNIT_* appears as keys.riskunit", () => {
    const env = parseEnv({ ...LIVE, ...RISKUNIT });
    expect(env.platform.keys.riskunit).toEqual({
      apiKey: RISKUNIT.PLATFORM_KEY_RISKUNIT_API_KEY,
      apiSecret: RISKUNIT.PLATFORM_KEY_RISKUNIT_API_SECRET,
      passphrase: RISKUNIT.PLATFORM_KEY_RISKUNIT_API_PASSPHRASE,
    });
    expect(Object.keys(env.platform.keys).sort()).toEqual(["main", "riskunit"]);
  });

  it("[env][named keys] work in simulator mode too", () => {
    expect(parseEnv(RISKUNIT).platform.keys.riskunit?.apiKey).toBe(RISKUNIT.PLATFORM_KEY_RISKUNIT_API_KEY);
  });

  it.each(["API_KEY", "API_SECRET", "API_PASSPHRASE"] as const)(
    "[env][named keys] a riskunit key without %s names the missing part",
    (part) => {
      const message = errorOf(without(RISKUNIT, `PLATFORM_KEY_RISKUNIT_${part}`));
      expect(message).toContain(`PLATFORM_KEY_RISKUNIT_${part}`);
      expect(message.match(/PLATFORM_KEY_RISKUNIT_\w+/g)).toEqual([`PLATFORM_KEY_RISKUNIT_${part}`]);
    },
  );

  it("[env][named keys] an empty part counts as missing", () => {
    expect(errorOf({ ...RISKUNIT, PLATFORM_KEY_RISKUNIT_API_SECRET: "" })).toContain(
      "PLATFORM_KEY_RISKUNIT_API_SECRET",
    );
  });

  it("[env][named keys] 'main' is reserved for PLATFORM_API_*", () => {
    expect(
      errorOf({
        PLATFORM_KEY_MAIN_API_KEY: "k",
        PLATFORM_KEY_MAIN_API_SECRET: "s",
        PLATFORM_KEY_MAIN_API_PASSPHRASE: "p",
      }),
    ).toMatch(/PLATFORM_KEY_MAIN_/);
  });
});

describe("[env][secrets]", () => {
  const SECRETS = {
    PLATFORM_API_SECRET: "S3cr3t-main-9f8e7d6c5b4a",
    PLATFORM_API_PASSPHRASE: "Pa55-main-1a2b3c",
    PLATFORM_API_KEY: "bg_key_main_0011223344",
    PLATFORM_KEY_RISKUNIT_API_KEY: "bg_key_riskunit_55667788",
    PLATFORM_KEY_RISKUNIT_API_SECRET: "S3cr3t-riskunit-aabbccdd",
    NEXTAUTH_SECRET: "too-short-session-secret",
  } as const;

  it("[env][secrets] the thrown message repeats no secret value", () => {
    const message = errorOf({ ...SECRETS, PLATFORM_BASE_URL: "https://api.platform.example", PORT: "nope" });
    expect(message).not.toBe("");
    for (const value of Object.values(SECRETS)) expect(message).not.toContain(value);
  });

  it("[env][secrets] the named-key and NEXTAUTH_SECRET problems are reported without their values", () => {
    const message = errorOf({ ...SECRETS, PLATFORM_BASE_URL: "https://api.platform.example" });
    expect(message).toContain("PLATFORM_KEY_RISKUNIT_API_PASSPHRASE");
    expect(message).toContain("NEXTAUTH_SECRET");
    for (const value of Object.values(SECRETS)) expect(message).not.toContain(value);
  });

  it("[env][secrets] a secret put in a malformed variable is not echoed", () => {
    const message = errorOf({ PORT: SECRETS.PLATFORM_API_SECRET, SIM_SCALE: SECRETS.PLATFORM_API_PASSPHRASE });
    expect(message).toMatch(/PORT/);
    expect(message).toMatch(/SIM_SCALE/);
    expect(message).not.toContain(SECRETS.PLATFORM_API_SECRET);
    expect(message).not.toContain(SECRETS.PLATFORM_API_PASSPHRASE);
  });
});

describe("[env][strict forms]", () => {
  const throwsNaming = (src: Record<string, string>, ...names: string[]) => {
    let message = "";
    try {
      parseEnv(src);
    } catch (e) {
      message = (e as Error).message;
    }
    for (const n of names) expect(message).toContain(n);
  };

  it("[env][strict forms] PLATFORM_BASE_URL must be http(s)", () => {
    throwsNaming({ PLATFORM_BASE_URL: "ftp://platform.example" }, "PLATFORM_BASE_URL");
    throwsNaming({ PLATFORM_BASE_URL: "javascript:alert(1)" }, "PLATFORM_BASE_URL");
  });

  it("[env][strict forms] DATABASE_URL must be postgres and REDIS_URL redis", () => {
    throwsNaming({ DATABASE_URL: "mysql://u@h/db", REDIS_URL: "http://h" }, "DATABASE_URL", "REDIS_URL");
    expect(
      parseEnv({ DATABASE_URL: "postgresql://u:p@127.0.0.1/db", REDIS_URL: "redis://127.0.0.1:6379" }).redisUrl,
    ).toBe("redis://127.0.0.1:6379");
  });

  it("[env][strict forms] a PLATFORM_KEY_* variable that is not a named key stops start-up", () => {
    throwsNaming({ PLATFORM_KEY_RISK_UNIT_API_KEY: "k" }, "PLATFORM_KEY_RISK_UNIT_API_KEY");
  });

  it("[env][strict forms] lists a malformed value and missing live credentials in one message", () => {
    throwsNaming(
      { PORT: "abc", PLATFORM_BASE_URL: "https://platform.example" },
      "PORT",
      "PLATFORM_API_KEY",
      "NEXTAUTH_SECRET",
    );
  });

  it("[env][strict forms] OIDC needs all three settings or none", () => {
    throwsNaming({ OIDC_ISSUER: "https://id.example" }, "OIDC_ISSUER");
    const e = parseEnv({ OIDC_ISSUER: "https://id.example", OIDC_CLIENT_ID: "c", OIDC_CLIENT_SECRET: "s" });
    expect(e.oidc?.issuer).toBe("https://id.example");
  });
});

describe("[env][mfa]", () => {
  const throwsNaming = (src: Record<string, string>, name: string) => {
    const message = errorOf(src);
    expect(message).toContain(name);
  };
  it("[env][mfa] every role must enrol a second factor in live mode, none in simulator mode, unless MFA_REQUIRED_ROLES says", () => {
    expect(parseEnv(LIVE).mfa.requiredRoles).toEqual(["compliance", "broker", "lead", "admin"]);
    expect(parseEnv({}).mfa.requiredRoles).toEqual([]);
    expect(parseEnv({ ...LIVE, MFA_REQUIRED_ROLES: "none" }).mfa.requiredRoles).toEqual([]);
    expect(parseEnv({ MFA_REQUIRED_ROLES: "all" }).mfa.requiredRoles).toHaveLength(4);
    expect(parseEnv({ ...LIVE, MFA_REQUIRED_ROLES: " Lead, admin,lead " }).mfa.requiredRoles).toEqual([
      "lead",
      "admin",
    ]);
    throwsNaming({ MFA_REQUIRED_ROLES: "lead,root" }, "MFA_REQUIRED_ROLES");
    throwsNaming({ MFA_REQUIRED_ROLES: "," }, "MFA_REQUIRED_ROLES");
  });

  it("[env][mfa] a fresh factor is 5 minutes unless MFA_FRESH_SECONDS says; OIDC_MFA is brokerdesk or idp", () => {
    expect(parseEnv({}).mfa.freshMs).toBe(300_000);
    expect(parseEnv({ MFA_FRESH_SECONDS: "20" }).mfa.freshMs).toBe(20_000);
    throwsNaming({ MFA_FRESH_SECONDS: "0" }, "MFA_FRESH_SECONDS");
    throwsNaming({ MFA_FRESH_SECONDS: "5m" }, "MFA_FRESH_SECONDS");
    const sso = { OIDC_ISSUER: "https://id.example", OIDC_CLIENT_ID: "c", OIDC_CLIENT_SECRET: "s" };
    expect(parseEnv(sso).oidc?.mfa).toBe("brokerdesk");
    expect(parseEnv({ ...sso, OIDC_MFA: "idp" }).oidc?.mfa).toBe("idp");
    throwsNaming({ ...sso, OIDC_MFA: "yes" }, "OIDC_MFA");
  });

  it("[env][passwords] bcrypt's cost is 12 unless PASSWORD_HASH_COST says; below 12 only in simulator mode", () => {
    expect(parseEnv({}).passwordHashCost).toBe(12);
    expect(parseEnv(LIVE).passwordHashCost).toBe(12);
    expect(parseEnv({ ...LIVE, PASSWORD_HASH_COST: "13" }).passwordHashCost).toBe(13);
    expect(parseEnv({ PASSWORD_HASH_COST: "4" }).passwordHashCost).toBe(4);
    throwsNaming({ ...LIVE, PASSWORD_HASH_COST: "4" }, "PASSWORD_HASH_COST");
    throwsNaming({ PASSWORD_HASH_COST: "3" }, "PASSWORD_HASH_COST");
    throwsNaming({ PASSWORD_HASH_COST: "16" }, "PASSWORD_HASH_COST");
    throwsNaming({ PASSWORD_HASH_COST: "12.5" }, "PASSWORD_HASH_COST");
  });
});

describe("[env][example]", () => {
  it("[env][example] .env.example parses as a working simulator environment", async () => {
    const { readFileSync } = await import("node:fs");
    const text = readFileSync(new URL("../.env.example", import.meta.url), "utf8");
    const src = Object.fromEntries(
      text
        .split("\n")
        .filter((l) => /^[A-Z_]+=/.test(l))
        .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
    );
    const e = parseEnv(src);
    expect(e.mode).toBe("simulator");
    expect(e.platform.keys.main).toEqual({ ...SIMULATOR_DEMO_KEY });
    for (const name of [
      "PLATFORM_BASE_URL",
      "PLATFORM_API_KEY",
      "PLATFORM_API_SECRET",
      "PLATFORM_API_PASSPHRASE",
      "DATABASE_URL",
      "REDIS_URL",
      "NEXTAUTH_SECRET",
      "NEXTAUTH_URL",
      "PORT",
      "SIM_PORT",
      "SIM_SEED",
      "SIM_SCALE",
    ]) {
      expect(src).toHaveProperty(name);
    }
  });
});

describe("[env][security] live mode refuses published and guessable secrets", () => {
  const credentialNames = (text: string) =>
    text
      .split("\n")
      .map((l) => /^([A-Z0-9_]+)=(.*)$/.exec(l.trim()))
      .filter((m): m is RegExpExecArray => !!m && /SECRET|PASSPHRASE|API_KEY/.test(m[1]!) && m[2]!.trim() !== "");

  it("[env][security] every credential value .env.example ships is on the published list", () => {
    const shipped = credentialNames(readFileSync(new URL("../.env.example", import.meta.url), "utf8"));
    expect(shipped.length).toBeGreaterThanOrEqual(4);
    for (const [, name, value] of shipped) expect(PUBLISHED_VALUES, name).toContain(value!.trim());
  });

  it.each([
    ["NEXTAUTH_SECRET", "brokerdesk-simulator-demo-session-secret-0123456789"],
    ["PLATFORM_API_KEY", SIMULATOR_DEMO_KEY.apiKey],
    ["PLATFORM_API_SECRET", SIMULATOR_DEMO_KEY.apiSecret],
    ["PLATFORM_API_PASSPHRASE", SIMULATOR_DEMO_KEY.passphrase],
    ["PLATFORM_KEY_RISKUNIT_API_SECRET", "bd-demo-secret-risk-unit"],
  ])(
    "[env][security] live mode with %s set to a published demo value stops, naming it and not the value",
    (name, value) => {
      const source: Record<string, string> = { ...LIVE, [name]: value };
      if (name.startsWith("PLATFORM_KEY_RISKUNIT"))
        Object.assign(source, {
          PLATFORM_KEY_RISKUNIT_API_KEY: "ru-live-7c1",
          PLATFORM_KEY_RISKUNIT_API_PASSPHRASE: "ru-pass-93",
        });
      const message = errorOf(source);
      expect(message).toMatch(new RegExp(`^\\s+${name}: is a demo value published in this repository`, "m"));
      expect(message).not.toContain(value);
      // The same value is fine in simulator mode, which is what it is for.
      expect(errorOf({ ...source, PLATFORM_BASE_URL: "" })).toBe("");
    },
  );

  it("[env][security] a long but guessable session secret is refused in live mode, with how to make a good one", () => {
    for (const weak of ["x".repeat(64), "0123456789abcdef".repeat(4), "n".repeat(32) + "-live-session-secret"]) {
      expect(estimatedEntropyBits(weak)).toBeLessThan(MIN_SECRET_ENTROPY_BITS);
      const message = errorOf({ ...LIVE, NEXTAUTH_SECRET: weak });
      expect(message).toMatch(
        /NEXTAUTH_SECRET: too predictable for live mode \(make one with `openssl rand -base64 48`\)/,
      );
      expect(message).not.toContain(weak);
    }
    expect(estimatedEntropyBits(LIVE.NEXTAUTH_SECRET)).toBeGreaterThan(MIN_SECRET_ENTROPY_BITS);
    expect(errorOf(LIVE)).toBe("");
  });
});

describe("[env][security] TRUST_PROXY and HOST", () => {
  it("[env][security] TRUST_PROXY is off by default; a hop count or a list of addresses/CIDRs; anything else is named", () => {
    expect(parseEnv({}).trustProxy).toEqual({ kind: "off" });
    expect(parseTrustProxy("false")).toEqual({ kind: "off" });
    expect(parseTrustProxy("2")).toEqual({ kind: "hops", hops: 2 });
    expect(parseTrustProxy("10.0.0.0/8, 192.168.1.7,fd00::/8")).toEqual({
      kind: "cidrs",
      cidrs: ["10.0.0.0/8", "192.168.1.7", "fd00::/8"],
    });
    for (const bad of ["yes", "10.0.0.0/33", "300.1.1.1", "10.0.0.0/8/1", "99"])
      expect(errorOf({ TRUST_PROXY: bad })).toMatch(/^\s+TRUST_PROXY: /m);
  });

  it("[env][security] simulator mode listens on loopback unless HOST says otherwise; live mode on every address", () => {
    expect(parseEnv({}).host).toBe("127.0.0.1");
    expect(parseEnv(LIVE).host).toBe("0.0.0.0");
    expect(parseEnv({ ...LIVE, HOST: "10.1.2.3" }).host).toBe("10.1.2.3");
    expect(parseEnv({ HOST: "::1" }).host).toBe("::1");
    expect(parseEnv({ HOST: "0.0.0.0" }).host).toBe("0.0.0.0");
  });
});

describe("[env] key roles and the simulator's control token", () => {
  it("[env][key-access] PLATFORM_KEY_<NAME>_ROLES becomes env.platform.keyRoles; a bad list is named", () => {
    expect(parseEnv({ PLATFORM_KEY_RISKUNIT_ROLES: "lead,compliance" }).platform.keyRoles).toEqual({
      riskunit: ["lead", "compliance"],
    });
    expect(errorOf({ PLATFORM_KEY_RISKUNIT_ROLES: "owner" })).toMatch(
      /PLATFORM_KEY_RISKUNIT_ROLES: must be a comma-separated list/,
    );
  });

  it("[env][simulator] SIM_CONTROL_TOKEN: at least 16 characters, no spaces", () => {
    expect(parseEnv({ SIM_CONTROL_TOKEN: "a".repeat(16) }).sim.controlToken).toBe("a".repeat(16));
    expect(parseEnv({}).sim.controlToken).toBeUndefined();
    expect(errorOf({ SIM_CONTROL_TOKEN: "short" })).toMatch(/SIM_CONTROL_TOKEN must be at least 16 characters/);
  });
});
