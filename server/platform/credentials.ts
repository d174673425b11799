import "server-only";
import type { KeyRole } from "@/lib/platform/define-endpoint";
import type { PlatformKey } from "@/lib/env";
import type { Role } from "@/lib/rbac";
import { mayChooseKey, rolesOfKey, type KeyRoles } from "./key-access";
import type { KeySource } from "./key-store";

export type Credential = PlatformKey & { name: string; role: KeyRole };

/** No key of that name can sign now (never configured, not approved yet, or disabled). Says the name only. */
export class UnknownKeyError extends Error {
  constructor(readonly keyName: string) {
    super(`No platform key named "${keyName}" is configured`);
    this.name = "UnknownKeyError";
  }
}

/**
 * The configured keys, by name. "main" is the broker main account (PLATFORM_API_*); further keys come
 * from PLATFORM_KEY_<NAME>_API_KEY/_API_SECRET/_API_PASSPHRASE. A name starting with "riskunit" is the
 * risk-unit account (it may bind/unbind without riskUnitId), "readonly" a key that may only read.
 *
 * With a `source`, sub-account keys held in the database (key-store.ts) join them as `sub<UID>`: the active,
 * approved version of each, read into memory by `sync` (routes call it first) and checked again by `resolve`
 * before every call signed with one (the client does), so a rotation or a disabling made on any instance counts
 * from the next call on. A key from the environment wins over a database key of the same name.
 */
export class CredentialStore {
  private readonly byName: ReadonlyMap<string, Credential>;
  private dbKeys: ReadonlyMap<string, Credential> = new Map();
  private dbGen: bigint | null = null;
  private checkedAt = 0;
  private loading: Promise<void> | null = null;
  private inflight: { startedAt: number; done: Promise<void> } | null = null;
  private queued: Promise<void> | null = null;

  /** `keyRoles`: which staff roles may choose each named key (key-access.ts; the defaults when left out). */
  constructor(
    keys: Readonly<Record<string, PlatformKey>>,
    private readonly keyRoles: KeyRoles = {},
    private readonly source?: KeySource,
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
    const c = this.byName.get(name) ?? this.dbKeys.get(name);
    // Only the name is said: never a key, secret or passphrase.
    if (!c) throw new UnknownKeyError(name);
    return c;
  }

  /** Every key that can sign now: the environment's, then the database's (as of the last sync). */
  names(): string[] {
    return [...this.byName.keys(), ...[...this.dbKeys.keys()].filter((n) => !this.byName.has(n))];
  }

  /** Whether the key is configured in the environment (not held in the database). */
  fromEnvironment(name: string): boolean {
    return this.byName.has(name);
  }

  /** The names configured in the environment only. */
  environmentNames(): string[] {
    return [...this.byName.keys()];
  }

  /**
   * Reads the database's keys again when their generation moved (one small query), unless checked within
   * `maxAgeMs`. Without a source, nothing to do.
   */
  async sync(maxAgeMs = 0): Promise<void> {
    if (!this.source) return;
    if (maxAgeMs > 0 && this.dbGen !== null && Date.now() - this.checkedAt < maxAgeMs) return;
    await this.checkSince(performance.now());
  }

  /**
   * A check of the generation that started at or after `since`, so it sees every change committed before the
   * caller asked: joined when one in flight started late enough, else the next one (one query for all who wait).
   */
  private checkSince(since: number): Promise<void> {
    const current = this.inflight;
    if (current && current.startedAt >= since) return current.done;
    this.queued ??= (current ? current.done.catch(() => undefined) : Promise.resolve()).then(() => {
      this.queued = null;
      return this.startCheck();
    });
    return this.queued;
  }

  private startCheck(): Promise<void> {
    const startedAt = performance.now();
    const done = (async () => {
      const gen = await this.source!.generation();
      // A load started before this generation was read may hold less: load until the store has caught up.
      while (this.dbGen === null || this.dbGen < gen) await this.reload();
      this.checkedAt = Date.now();
    })();
    const entry = { startedAt, done };
    this.inflight = entry;
    done
      .finally(() => {
        if (this.inflight === entry) this.inflight = null;
      })
      .catch(() => undefined);
    return done;
  }

  /**
   * The credential a call is signed with, checked against the database first for a key it holds: a key
   * disabled or rotated on another instance is refused or replaced before anything is sent.
   */
  async resolve(name = "main"): Promise<Credential> {
    const env = this.byName.get(name);
    if (env) return env;
    await this.sync(0);
    return this.get(name);
  }

  private reload(): Promise<void> {
    this.loading ??= this.source!.load()
      .then((snap) => {
        if (this.dbGen !== null && snap.gen < this.dbGen) return;
        this.dbGen = snap.gen;
        this.dbKeys = new Map(
          [...snap.keys].map(([name, k]) => {
            const c: Credential = {
              apiKey: k.apiKey,
              apiSecret: k.apiSecret,
              passphrase: k.passphrase,
              name,
              role: "sub-account",
            };
            return [name, c] as const;
          }),
        );
      })
      .finally(() => {
        this.loading = null;
      });
    return this.loading;
  }
}

function roleOf(name: string): KeyRole {
  if (name === "main") return "broker-main";
  if (name.startsWith("riskunit")) return "risk-unit";
  if (name.startsWith("readonly")) return "read-only";
  if (name.startsWith("sub")) return "sub-account";
  return "other";
}
