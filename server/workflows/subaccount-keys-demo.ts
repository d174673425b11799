import "server-only";
// The demo's sub-account keys (simulator mode, env.demoSubaccountKeys): at first start, a key for each of the first
// desks of the registry (by name; DEMO_SUBACCOUNT_KEYS of them, 300 unless set), minted by the simulator's own
// key-creation call as the platform's broker would make it, sealed, added by the start-up ("startup:demo-keys") and
// approved by the demo admin, a second person, each step an audit intent and outcome in the hash chain (one per step
// for the whole batch, not one per key). Only server/startup.ts calls it, without waiting: minting 300 keys over
// loopback takes about two seconds (server/workflows/subaccount-keys-demo.test.ts prints it).
//
// Every start (the embedded simulator keeps nothing across restarts, the database does) registers the keys the
// database holds, in use or waiting, on the simulator again, so each one still signs.
import { randomBytes, randomUUID } from "node:crypto";
import { env } from "@/lib/env";
import { uidOfKeyName } from "@/lib/platform/key-names";
import { withAudit } from "@/server/audit";
import { DEMO_USERS } from "@/server/auth/demo-users";
import { findUserByEmail } from "@/server/auth/users";
import type { Db } from "@/server/db";
import { logger } from "@/server/log";
import type { CredentialStore } from "@/server/platform/credentials";
import { sealerOf, type Sealer } from "@/server/platform/key-seal";
import { bumpKeyGeneration } from "@/server/platform/key-store";
import { mintOnSimulator, simulatorKeys } from "./subaccount-keys-sim";

export const DEMO_KEYS_ACTOR = "startup:demo-keys";
/** Requests to the simulator at once (loopback: a few hundred take a fraction of a second). */
const AT_ONCE = 16;

async function eachAtOnce<T>(items: readonly T[], fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(AT_ONCE, items.length) }, worker));
}

/** Registers every key the database holds (in use or waiting) on the simulator again; answers how many. */
export async function registerHeldKeys(db: Db, baseUrl: string, sealer: Sealer): Promise<number> {
  const { rows } = await db.query<{ sub_uid: string; version: number; sealed: string }>(
    "SELECT sub_uid, version, sealed FROM subaccount_keys WHERE state IN ('active', 'pending')",
  );
  const sim = simulatorKeys(baseUrl);
  let registered = 0;
  await eachAtOnce(rows, async (r) => {
    try {
      await sim.register(r.sub_uid, sealer.open(r.sub_uid, r.version, r.sealed));
      registered++;
    } catch (e) {
      // A desk the simulator no longer has (another seed), or a key sealed under another secret: said by UID only.
      logger.warn(
        { uid: r.sub_uid, version: r.version, err: e instanceof Error ? e.name : "error" },
        "held key not registered on the simulator",
      );
    }
  });
  return registered;
}

export type DemoKeysSeeded = { minted: number; registered: number; skipped: string | null };

/** Mints, seals, adds and approves the demo's keys once; registers the database's keys on the simulator every start. */
export async function seedDemoKeys(db: Db, baseUrl: string, credentials: CredentialStore): Promise<DemoKeysSeeded> {
  const sealer = sealerOf(env.keySealingSecret);
  if (env.mode !== "simulator" || !sealer) return { minted: 0, registered: 0, skipped: "not simulator mode" };
  const registered = await registerHeldKeys(db, baseUrl, sealer);
  const want = env.demoSubaccountKeys;
  const seededBefore = await db.query("SELECT 1 FROM subaccount_keys WHERE added_by = $1 LIMIT 1", [DEMO_KEYS_ACTOR]);
  if (want === 0 || seededBefore.rows.length) return { minted: 0, registered, skipped: null };
  const demoAdmin = DEMO_USERS.find((u) => u.role === "admin")!;
  const admin = await findUserByEmail(db, demoAdmin.email);
  if (!admin) throw new Error("the demo staff are not seeded yet");
  if (admin.disabled || admin.role !== "admin")
    return { minted: 0, registered, skipped: "the demo admin is disabled or has another role" };

  // The desks of the registry by name, but those whose key the environment configures or the database holds.
  const fromEnv = credentials.environmentNames().flatMap((n) => uidOfKeyName(n) ?? []);
  const { rows: desks } = await db.query<{ sub_uid: string }>(
    `SELECT s.sub_uid FROM subaccounts s
      WHERE s.status = 'normal' AND NOT (s.sub_uid = ANY($1))
        AND NOT EXISTS (SELECT 1 FROM subaccount_keys k WHERE k.sub_uid = s.sub_uid)
      ORDER BY s.subaccount_name NULLS LAST, s.sub_uid LIMIT $2`,
    [fromEnv, want],
  );
  const minted: { uid: string; sealed: string; hint: string }[] = [];
  await eachAtOnce(desks, async ({ sub_uid: uid }) => {
    const key = await mintOnSimulator(baseUrl, uid, `demo-${randomBytes(9).toString("base64url")}`);
    minted.push({ uid, sealed: sealer.seal(uid, 1, key), hint: key.apiKey.slice(-4) });
  });
  const uids = minted.map((m) => m.uid);
  const subject = (actor: string, role: string | null, action: "subaccountKeys.add" | "subaccountKeys.approve") => ({
    actor,
    actorRole: role,
    action,
    target: "subaccount-key:demo",
    requestId: randomUUID(),
    ip: null,
  });
  // Added (pending) by the start-up, then approved by the demo admin: two people's steps, as the routes record them.
  await withAudit(
    db,
    subject(DEMO_KEYS_ACTOR, null, "subaccountKeys.add"),
    { demo: true, count: uids.length, uids },
    () =>
      db.query(
        `INSERT INTO subaccount_keys (sub_uid, version, kind, sealed, key_hint, state, added_by)
       SELECT u, 1, 'hmac', s, h, 'pending', $4 FROM unnest($1::text[], $2::text[], $3::text[]) AS t(u, s, h)
       ON CONFLICT DO NOTHING`,
        [uids, minted.map((m) => m.sealed), minted.map((m) => m.hint), DEMO_KEYS_ACTOR],
      ),
  );
  await withAudit(db, subject(admin.email, "admin", "subaccountKeys.approve"), { demo: true, count: uids.length }, () =>
    db.transaction(async (tx) => {
      await tx.query(
        `UPDATE subaccount_keys SET state = 'active', approved_by = $2, approved_at = now()
          WHERE added_by = $1 AND state = 'pending' AND version = 1`,
        [DEMO_KEYS_ACTOR, admin.email],
      );
      await bumpKeyGeneration(tx);
    }),
  );
  await credentials.sync(0);
  logger.info({ minted: uids.length }, "demo sub-account keys minted on the simulator, sealed and approved");
  return { minted: uids.length, registered, skipped: null };
}
