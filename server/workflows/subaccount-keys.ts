import "server-only";
// Sub-account API keys held as data (/admin/keys). An admin adds a key (sealed at once: key-seal.ts); it signs
// nothing until a second admin approves it, one who is not its adder, is in good standing (not on an approver hold)
// and has a fresh second factor (the route's freshFactor), the rules every other decision keeps
// (approval-gate.ts). A rotation is a new version approved the same way; the version in use signs until then, so a
// rotation never leaves the sub-account without a key while it waits. Disabling is at once and by one admin: it
// weakens nothing. Every change bumps the key generation, so every instance signs with the change from its next
// call (server/platform/credentials.ts). Nothing here answers, logs or throws a key, secret or passphrase.
import { createPrivateKey } from "node:crypto";
import type { AddKeyInput, KeyList, KeyView, RotateKeyInput } from "@/lib/api/subaccount-keys";
import { DomainError, invalidField } from "@/lib/api/errors";
import type { PlatformKey } from "@/lib/env";
import { uidOfKeyName } from "@/lib/platform/key-names";
import type { StaffSession } from "@/server/auth/session";
import type { Db, Queryable } from "@/server/db";
import type { CredentialStore } from "@/server/platform/credentials";
import type { Sealer } from "@/server/platform/key-seal";
import { bumpKeyGeneration, subKeyName } from "@/server/platform/key-store";
import { refuseOnHold, refuseOwn } from "./approval-gate";

/** Simulator mode: makes the key known to the simulator as the platform would know it (subaccount-keys-sim.ts). */
export type SimulatorKeys = { register: (uid: string, key: PlatformKey) => Promise<void> };

export type KeyDeps = { sealer: Sealer | null; credentials: CredentialStore; simulator: SimulatorKeys | null };

type Row = {
  sub_uid: string;
  version: number;
  kind: "hmac" | "rsa";
  key_hint: string;
  state: "pending" | "active" | "superseded" | "disabled";
  added_by: string;
  added_at: Date | string;
  approved_by: string | null;
  approved_at: Date | string | null;
  disabled_by: string | null;
  disabled_at: Date | string | null;
};
const COLUMNS =
  "sub_uid, version, kind, key_hint, state, added_by, added_at, approved_by, approved_at, disabled_by, disabled_at";

const iso = (t: Date | string) => new Date(t).toISOString();

function versionView(r: Row): NonNullable<KeyView["active"]> {
  return {
    version: r.version,
    kind: r.kind,
    keyHint: r.key_hint,
    added: { by: r.added_by, at: iso(r.added_at) },
    approved: r.approved_by && r.approved_at ? { by: r.approved_by, at: iso(r.approved_at) } : null,
  };
}

/** One sub-account's key from its versions (newest first). */
function viewOf(uid: string, rows: readonly Row[], subaccountName: string | null): KeyView {
  const active = rows.find((r) => r.state === "active") ?? null;
  const pending = rows.find((r) => r.state === "pending") ?? null;
  const disabledRow = !active && !pending ? (rows.find((r) => r.state === "disabled") ?? null) : null;
  return {
    name: subKeyName(uid),
    uid,
    subaccountName,
    source: "database",
    state: active ? (pending ? "rotation-pending" : "active") : pending ? "pending" : "disabled",
    active: active ? versionView(active) : null,
    pending: pending ? versionView(pending) : null,
    disabled:
      disabledRow?.disabled_by && disabledRow.disabled_at
        ? { by: disabledRow.disabled_by, at: iso(disabledRow.disabled_at) }
        : null,
  };
}

async function rowsOf(db: Queryable, uid?: string): Promise<Row[]> {
  const { rows } = await db.query<Row>(
    `SELECT ${COLUMNS} FROM subaccount_keys ${uid ? "WHERE sub_uid = $1" : ""} ORDER BY sub_uid, version DESC`,
    uid ? [uid] : [],
  );
  return rows;
}

async function namesOf(db: Queryable, uids: readonly string[]): Promise<Map<string, string | null>> {
  if (!uids.length) return new Map();
  const { rows } = await db.query<{ sub_uid: string; subaccount_name: string | null }>(
    "SELECT sub_uid, subaccount_name FROM subaccounts WHERE sub_uid = ANY($1)",
    [uids],
  );
  return new Map(rows.map((r) => [r.sub_uid, r.subaccount_name]));
}

/** One sub-account's key as the page shows it. */
export async function getKey(db: Queryable, uid: string): Promise<KeyView> {
  const rows = await rowsOf(db, uid);
  if (!rows.length) throw new DomainError("not_found", `No key of sub-account ${uid} is held in Brokerdesk`);
  return viewOf(uid, rows, (await namesOf(db, [uid])).get(uid) ?? null);
}

/** Every key: the database's (by sub-account), then the environment's (names only; not editable here). */
export async function listKeys(db: Queryable, deps: Pick<KeyDeps, "sealer" | "credentials">): Promise<KeyList> {
  const rows = await rowsOf(db);
  const byUid = new Map<string, Row[]>();
  for (const r of rows) byUid.set(r.sub_uid, [...(byUid.get(r.sub_uid) ?? []), r]);
  const envNames = deps.credentials.environmentNames();
  const envUids = envNames.flatMap((n) => uidOfKeyName(n) ?? []);
  const names = await namesOf(db, [...byUid.keys(), ...envUids]);
  const fromDb = [...byUid].map(([uid, rs]) => viewOf(uid, rs, names.get(uid) ?? null));
  const fromEnv: KeyView[] = envNames.map((name) => {
    const uid = uidOfKeyName(name);
    return {
      name,
      uid,
      subaccountName: uid ? (names.get(uid) ?? null) : null,
      source: "environment",
      state: "environment",
      active: null,
      pending: null,
      disabled: null,
    };
  });
  const order = (k: KeyView) => k.subaccountName ?? `\uffff${k.uid ?? k.name}`;
  fromDb.sort((a, b) => order(a).localeCompare(order(b)));
  return { keys: [...fromDb, ...fromEnv], sealing: deps.sealer !== null };
}

/** The key as it will sign: the secret, or the RSA key checked to be one (refused on its field). */
function keyOf(input: RotateKeyInput): { key: PlatformKey; kind: "hmac" | "rsa" } {
  if (input.rsaPrivateKey) {
    let ok = false;
    try {
      ok = createPrivateKey(input.rsaPrivateKey).asymmetricKeyType === "rsa";
    } catch {
      ok = false;
    }
    // Never the parser's message: it may quote the key.
    if (!ok) throw invalidField("rsaPrivateKey", "RSA private key does not read as an RSA private key in PEM");
    return { key: { apiKey: input.apiKey, apiSecret: input.rsaPrivateKey, passphrase: input.passphrase }, kind: "rsa" };
  }
  return {
    key: { apiKey: input.apiKey, apiSecret: input.apiSecret ?? "", passphrase: input.passphrase },
    kind: "hmac",
  };
}

function sealerOrRefuse(deps: KeyDeps): Sealer {
  if (!deps.sealer)
    throw new DomainError(
      "forbidden",
      "Keys cannot be held in Brokerdesk's database: KEY_SEALING_SECRET is not set (docs/configuration.md)",
    );
  return deps.sealer;
}

/** Seals and stores a new pending version (after the simulator knows the key, in simulator mode). */
async function storeVersion(
  db: Db,
  session: StaffSession,
  uid: string,
  version: number,
  input: RotateKeyInput,
  deps: KeyDeps,
): Promise<void> {
  const sealer = sealerOrRefuse(deps);
  const { key, kind } = keyOf(input);
  await deps.simulator?.register(uid, key);
  await db.transaction(async (tx) => {
    const { rows } = await tx.query(
      `INSERT INTO subaccount_keys (sub_uid, version, kind, sealed, key_hint, state, added_by)
       VALUES ($1, $2, $3, $4, $5, 'pending', $6) ON CONFLICT DO NOTHING RETURNING version`,
      [uid, version, kind, sealer.seal(uid, version, key), key.apiKey.slice(-4), session.email],
    );
    if (!rows.length)
      throw new DomainError("already_in_progress", `Another admin added a version of this key meanwhile: look again`);
  });
}

/** Adds a sub-account's first key (or a new one after it was disabled); pending until a second admin approves. */
export async function addKey(db: Db, session: StaffSession, input: AddKeyInput, deps: KeyDeps): Promise<KeyView> {
  const uid = input.uid;
  if (deps.credentials.fromEnvironment(subKeyName(uid)))
    throw new DomainError(
      "already_registered",
      `Sub-account ${uid}'s key is configured in the environment (PLATFORM_KEY_SUB${uid}_*): change it there`,
    );
  const known = await db.query("SELECT 1 FROM subaccounts WHERE sub_uid = $1", [uid]);
  if (!known.rows.length) throw invalidField("uid", `UID ${uid} is not a sub-account in Brokerdesk's registry`);
  const rows = await rowsOf(db, uid);
  if (rows.some((r) => r.state === "active" || r.state === "pending"))
    throw new DomainError(
      "already_registered",
      `Sub-account ${uid} already has a key in Brokerdesk: rotate it, or disable it first`,
    );
  await storeVersion(db, session, uid, (rows[0]?.version ?? 0) + 1, input as RotateKeyInput, deps);
  return getKey(db, uid);
}

/** Adds a new version of a key in use; the version in use signs until a second admin approves the new one. */
export async function rotateKey(
  db: Db,
  session: StaffSession,
  uid: string,
  input: RotateKeyInput,
  deps: KeyDeps,
): Promise<KeyView> {
  const rows = await rowsOf(db, uid);
  if (!rows.some((r) => r.state === "active"))
    throw new DomainError("not_found", `Sub-account ${uid} has no key in use to rotate: add one`);
  if (rows.some((r) => r.state === "pending"))
    throw new DomainError(
      "already_in_progress",
      `A new version of sub-account ${uid}'s key already waits for a second admin: approve or disable it first`,
    );
  await storeVersion(db, session, uid, rows[0]!.version + 1, input, deps);
  return getKey(db, uid);
}

/**
 * Approves the pending version another admin added: it signs from the next call on every instance; a version it
 * replaces is superseded in the same transaction. The fresh second factor is the route's.
 */
export async function approveKey(
  db: Db,
  session: StaffSession,
  uid: string,
  input: { version: number },
  deps: Pick<KeyDeps, "credentials">,
): Promise<KeyView> {
  await refuseOnHold(db, session);
  await db.transaction(async (tx) => {
    const { rows } = await tx.query<Row>(
      `SELECT ${COLUMNS} FROM subaccount_keys WHERE sub_uid = $1 AND state = 'pending' FOR UPDATE`,
      [uid],
    );
    const pending = rows[0];
    if (!pending) throw new DomainError("not_found", `No version of sub-account ${uid}'s key waits for approval`);
    if (pending.version !== input.version)
      throw new DomainError(
        "already_decided",
        `The version waiting is v${pending.version}, not v${input.version}: look again before approving`,
      );
    refuseOwn(pending.added_by, session, "You added this key, so another admin must approve it");
    await tx.query(`UPDATE subaccount_keys SET state = 'superseded' WHERE sub_uid = $1 AND state = 'active'`, [uid]);
    const done = await tx.query(
      `UPDATE subaccount_keys SET state = 'active', approved_by = $3, approved_at = now()
        WHERE sub_uid = $1 AND version = $2 AND state = 'pending' AND lower(added_by) <> lower($3) RETURNING version`,
      [uid, input.version, session.email],
    );
    if (!done.rows.length) throw new DomainError("already_decided", "This version was decided meanwhile");
    await bumpKeyGeneration(tx);
  });
  await deps.credentials.sync(0);
  return getKey(db, uid);
}

/** Disables the key at once, every version (the one in use and one waiting): refused before anything is sent. */
export async function disableKey(
  db: Db,
  session: StaffSession,
  uid: string,
  deps: Pick<KeyDeps, "credentials">,
): Promise<KeyView> {
  await db.transaction(async (tx) => {
    const { rows } = await tx.query(
      `UPDATE subaccount_keys SET state = 'disabled', disabled_by = $2, disabled_at = now()
        WHERE sub_uid = $1 AND state IN ('active', 'pending') RETURNING version`,
      [uid, session.email],
    );
    if (!rows.length) {
      const any = await tx.query("SELECT 1 FROM subaccount_keys WHERE sub_uid = $1", [uid]);
      if (!any.rows.length) throw new DomainError("not_found", `No key of sub-account ${uid} is held in Brokerdesk`);
      throw new DomainError("already_decided", `Sub-account ${uid}'s key is already disabled`);
    }
    await bumpKeyGeneration(tx);
  });
  await deps.credentials.sync(0);
  return getKey(db, uid);
}
