import "server-only";
// Sub-account keys held in the database, as the credential store reads them: the active version of each
// sub-account's key, opened (key-seal.ts), by its name `sub<UID>`, and the generation that says whether anything
// changed. Several instances share the database: every change bumps the generation in its own transaction
// (bumpKeyGeneration), and an instance compares it before each call signed with a database key, so an approval,
// a rotation or a disabling counts on every instance from the next call on (credentials.ts: resolve).
import type { PlatformKey } from "@/lib/env";
import type { Queryable } from "@/server/db";
import { logger } from "@/server/log";
import type { Sealer } from "./key-seal";

export type DbKey = PlatformKey & { uid: string; version: number };
export type KeySnapshot = { gen: bigint; keys: ReadonlyMap<string, DbKey> };

/** Where the credential store reads database keys from. */
export type KeySource = {
  generation: () => Promise<bigint>;
  load: () => Promise<KeySnapshot>;
};

/** The key name of a sub-account's key held in the database (lib/platform/key-names.ts reads it back). */
export const subKeyName = (uid: string) => `sub${uid}`;

/** Bumps the generation: call inside the transaction of every change to subaccount_keys. */
export async function bumpKeyGeneration(tx: Queryable): Promise<void> {
  await tx.query("UPDATE subaccount_key_generation SET gen = gen + 1");
}

export function databaseKeySource(db: () => Promise<Queryable>, sealer: Sealer | null): KeySource {
  return {
    async generation() {
      const { rows } = await (
        await db()
      ).query<{ gen: string }>("SELECT gen::text AS gen FROM subaccount_key_generation");
      return BigInt(rows[0]?.gen ?? "0");
    },
    async load() {
      // One statement: the generation and the keys from one snapshot of the database.
      const { rows } = await (
        await db()
      ).query<{ gen: string; sub_uid: string | null; version: number | null; sealed: string | null }>(
        `SELECT g.gen::text AS gen, k.sub_uid, k.version, k.sealed
           FROM subaccount_key_generation g LEFT JOIN subaccount_keys k ON k.state = 'active'`,
      );
      const keys = new Map<string, DbKey>();
      const unopened: string[] = [];
      for (const r of rows) {
        if (r.sub_uid === null || r.version === null || r.sealed === null) continue;
        try {
          if (!sealer) throw new Error("no KEY_SEALING_SECRET");
          keys.set(subKeyName(r.sub_uid), {
            ...sealer.open(r.sub_uid, r.version, r.sealed),
            uid: r.sub_uid,
            version: r.version,
          });
        } catch {
          unopened.push(r.sub_uid);
        }
      }
      // The UIDs only: what failed to open is never said.
      if (unopened.length)
        logger.error(
          { count: unopened.length, uids: unopened.slice(0, 20) },
          "sub-account keys in the database could not be opened (KEY_SEALING_SECRET unset or another one)",
        );
      return { gen: BigInt(rows[0]?.gen ?? "0"), keys };
    },
  };
}
