import "server-only";
import type { KeyRole } from "@/lib/platform/define-endpoint";
import type { PlatformKey } from "@/lib/env";
import type { Role } from "@/lib/rbac";
import { mayChooseKey, rolesOfKey, type KeyRoles } from "./key-access";

export type Credential = PlatformKey & { name: string; role: KeyRole };

/**
 * The configured keys, by name. "main" is the broker main account (PLATFORM_API_*); further keys come
 * from PLATFORM_KEY_<NAME>_API_KEY/_API_SECRET/_API_PASSPHRASE. A name starting with "riskunit" is the
 * risk-unit account (it may bind/unbind without riskUnitId), "readonly" a key that may only read.
 */
export class CredentialStore {
  private readonly byName: ReadonlyMap<string, Credential>;

  /** `keyRoles`: which staff roles may choose each named key (key-access.ts; the defaults when left out). */
  constructor(
    keys: Readonly<Record<string, PlatformKey>>,
    private readonly keyRoles: KeyRoles = {},
  ) {
    this.byName = new Map(Object.entries(keys).map(([name, k]) => [name, { ...k, name, role: roleOf(name) }] as const));
  }

  /** May staff of this role choose this key by name (X-Platform-Key, an export's key)? */
  mayChoose(name: string, staffRole: Role): boolean {
    return mayChooseKey(this.keyRoles, name, staffRole);
  }

  /** The staff roles that may choose this key. */
  rolesOf(name: string): readonly Role[] {
    return rolesOfKey(this.keyRoles, name);
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
