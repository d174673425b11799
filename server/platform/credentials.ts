import "server-only";
import type { KeyRole } from "@/lib/platform/define-endpoint";
import type { PlatformKey } from "@/lib/env";

export type Credential = PlatformKey & { name: string; role: KeyRole };

/**
 * The configured keys, by name. "main" is the broker main account (PLATFORM_API_*); further keys come
 * from PLATFORM_KEY_<NAME>_API_KEY/_API_SECRET/_API_PASSPHRASE. A name starting with "riskunit" is the
 * risk-unit account (it may bind/unbind without riskUnitId), "readonly" a key that may only read.
 */
export class CredentialStore {
  private readonly byName: ReadonlyMap<string, Credential>;

  constructor(keys: Readonly<Record<string, PlatformKey>>) {
    this.byName = new Map(
      Object.entries(keys).map(([name, k]) => [name, { ...k, name, role: roleOf(name) }] as const),
    );
  }

  get(name = "main"): Credential {
    const c = this.byName.get(name);
    // Only the name is said: never a key, secret or passphrase.
    if (!c) throw new Error(`No platform key named "${name}" is configured`);
    return c;
  }

  names(): string[] {
    return [...this.byName.keys()];
  }
}

function roleOf(name: string): KeyRole {
  if (name === "main") return "broker-main";
  if (name.startsWith("riskunit")) return "risk-unit";
  if (name.startsWith("readonly")) return "read-only";
  if (name.startsWith("sub")) return "sub-account";
  return "other";
}
