import "server-only";
import { createPublicKey, generateKeyPairSync, type KeyObject } from "node:crypto";
import { env, SIMULATOR_DEMO_KEY, SIMULATOR_OTHER_DEMO_KEYS, type PlatformKey } from "@/lib/env";
import type { KeyRole } from "@/lib/platform/define-endpoint";

/** The demo keys every simulator registers. */
export const DEMO_KEY_NAMES = ["brokerMain", "readOnly", "nonBroker", "riskUnit", "rsa"] as const;
export type DemoKeyName = (typeof DEMO_KEY_NAMES)[number];

/**
 * read: every GET operation; trade: E6, E9, E10; withdraw: E5. The platform's own permission names
 * are not in the spec; these three are enough to answer 40014 where a key lacks what it needs.
 */
export type KeyPermission = "read" | "trade" | "withdraw";

/** A key as a client uses it. For the RSA key, apiSecret is the PEM private key (what clients expect). */
export type DemoKey = PlatformKey & { uid: string; type: "hmac" | "rsa" };
export type DemoKeys = Readonly<Record<DemoKeyName, DemoKey>>;

/** What the server needs to check a request made with a key. */
export type RegisteredKey = {
  /** A demo key's name, or "subaccount" for a key made for one sub-account (subaccount-keys.ts). */
  name: DemoKeyName | "subaccount";
  apiKey: string;
  passphrase: string;
  verify: { type: "hmac"; secret: string } | { type: "rsa"; publicKey: KeyObject };
  uid: string;
  role: KeyRole;
  broker: boolean;
  permissions: readonly KeyPermission[];
};

export type KeyOverrides = Partial<Record<DemoKeyName, PlatformKey>>;

const DEFAULTS: Record<Exclude<DemoKeyName, "brokerMain" | "rsa">, PlatformKey> = SIMULATOR_OTHER_DEMO_KEYS;

/**
 * Env names of the overrides, read through lib/env.js: the broker main key is PLATFORM_API_* (simulator
 * mode), the others PLATFORM_KEY_<NAME>_API_*; the RSA key's API_SECRET is a PEM private key.
 */
const ENV_NAMES: Record<DemoKeyName, string> = {
  brokerMain: "main",
  readOnly: "readonly",
  nonBroker: "nonbroker",
  riskUnit: "riskunit",
  rsa: "rsa",
};

export function keyOverridesFromEnv(): KeyOverrides {
  if (env.mode !== "simulator") return {};
  const out: KeyOverrides = {};
  for (const name of DEMO_KEY_NAMES) {
    const k = env.platform.keys[ENV_NAMES[name]];
    if (k) out[name] = k;
  }
  return out;
}

let generatedRsa: PlatformKey | undefined;

/** A fresh RSA pair per process (a private key is never committed); a keys file or env may pin one. */
function defaultRsa(): PlatformKey {
  generatedRsa ??= {
    apiKey: "bd_demo_rsa",
    apiSecret: generateKeyPairSync("rsa", { modulusLength: 2048 })
      .privateKey.export({ type: "pkcs8", format: "pem" })
      .toString(),
    passphrase: "bd-demo-passphrase",
  };
  return generatedRsa;
}

export type KeyAccounts = { mainUid: string; riskUnitUid: string; nonBrokerUid: string };

export function buildKeys(
  overrides: KeyOverrides,
  accounts: KeyAccounts,
): { demo: DemoKeys; registered: RegisteredKey[] } {
  const fromEnv = keyOverridesFromEnv();
  const pick = (name: DemoKeyName, fallback: () => PlatformKey): PlatformKey =>
    overrides[name] ?? fromEnv[name] ?? fallback();
  const creds: Record<DemoKeyName, PlatformKey> = {
    brokerMain: pick("brokerMain", () => ({ ...SIMULATOR_DEMO_KEY })),
    readOnly: pick("readOnly", () => DEFAULTS.readOnly),
    nonBroker: pick("nonBroker", () => DEFAULTS.nonBroker),
    riskUnit: pick("riskUnit", () => DEFAULTS.riskUnit),
    rsa: pick("rsa", defaultRsa),
  };
  const all: readonly KeyPermission[] = ["read", "trade", "withdraw"];
  const shape: Record<DemoKeyName, Pick<RegisteredKey, "uid" | "role" | "broker" | "permissions">> = {
    brokerMain: { uid: accounts.mainUid, role: "broker-main", broker: true, permissions: all },
    readOnly: { uid: accounts.mainUid, role: "broker-main", broker: true, permissions: ["read"] },
    nonBroker: { uid: accounts.nonBrokerUid, role: "other", broker: false, permissions: all },
    riskUnit: { uid: accounts.riskUnitUid, role: "risk-unit", broker: false, permissions: all },
    rsa: { uid: accounts.mainUid, role: "broker-main", broker: true, permissions: all },
  };
  const registered: RegisteredKey[] = [];
  const demo = {} as Record<DemoKeyName, DemoKey>;
  const seen = new Set<string>();
  for (const name of DEMO_KEY_NAMES) {
    const c = creds[name];
    if (seen.has(c.apiKey)) throw new Error(`Simulator key "${name}" reuses an API key of another demo key`);
    seen.add(c.apiKey);
    const isRsa = c.apiSecret.includes("PRIVATE KEY");
    registered.push({
      name,
      apiKey: c.apiKey,
      passphrase: c.passphrase,
      verify: isRsa ? { type: "rsa", publicKey: createPublicKey(c.apiSecret) } : { type: "hmac", secret: c.apiSecret },
      ...shape[name],
    });
    demo[name] = { ...c, uid: shape[name].uid, type: isRsa ? "rsa" : "hmac" };
  }
  return { demo: Object.freeze(demo), registered };
}
