import "server-only";
// Which Brokerdesk processes are alive. Each running instance keeps a row in instance_leases, renewed on a
// heartbeat by the database's clock; a process that dies stops renewing it and the row lapses. What an
// instance holds (a withdrawal's platform call, an audit intent without its outcome) is recorded under its
// id, so whoever sees the lease lapse knows what was left in flight (server/workflows/instance-recovery.ts).
//
// A lapse takes the lease's time to live. Two cases are known sooner: on the embedded database one process
// owns the data folder, so at start every other instance that left something is gone; and a peer on the
// same host and pid namespace whose pid no longer exists is gone at once (a kill -9 and a restart).
import { randomBytes } from "node:crypto";
import { readlinkSync } from "node:fs";
import { hostname } from "node:os";
import type { Db } from "./index";

export type InstanceIdentity = { id: string; host: string; pid: number };

const g = globalThis as typeof globalThis & { __brokerdeskInstance?: InstanceIdentity };

/** The host, and on Linux the pid namespace: two containers on one host may reuse each other's pids. */
function hostKey(): string {
  let ns = "";
  try {
    ns = readlinkSync("/proc/self/ns/pid");
  } catch {
    // No /proc (not Linux): the host name alone, and no pid check (samePidSpace below).
  }
  return `${hostname()}${ns ? ` ${ns}` : ""}`;
}

/** This process's identity, minted once (kept on globalThis: every Next route bundle shares it). */
export function thisInstance(): InstanceIdentity {
  g.__brokerdeskInstance ??= {
    id: `${hostname().slice(0, 64)}:${process.pid}:${randomBytes(6).toString("hex")}`,
    host: hostKey(),
    pid: process.pid,
  };
  return g.__brokerdeskInstance;
}

/** Writes or renews this instance's lease: it lapses `ttlMs` from now unless renewed again. */
export async function renewLease(db: Db, me: InstanceIdentity, ttlMs: number): Promise<void> {
  await db.query(
    `INSERT INTO instance_leases (instance_id, host, pid, expires_at)
     VALUES ($1, $2, $3, now() + $4 * interval '1 millisecond')
     ON CONFLICT (instance_id) DO UPDATE SET renewed_at = now(), expires_at = EXCLUDED.expires_at`,
    [me.id, me.host, me.pid, ttlMs],
  );
}

/** Lets this instance's lease lapse now (a graceful stop): a peer settles whatever it still held. */
export async function releaseLease(db: Db, me: InstanceIdentity): Promise<void> {
  await db.query("UPDATE instance_leases SET expires_at = now() WHERE instance_id = $1", [me.id]);
}

function pidGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (e) {
    // EPERM: it exists under another user.
    return (e as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/**
 * The instances other than `me` known to be gone that still hold something or still have a lease row:
 * lapsed leases (only when `judgeLapses`: after an outage of the database every lease has lapsed, and the
 * living renew theirs within a heartbeat, so an instance judges lapses only once its own renewals have
 * succeeded for a whole time to live); a lease of this host and pid namespace whose pid is gone; and on the
 * embedded database, every other holder (one process owns the data folder, so none of them runs).
 */
export async function goneInstances(db: Db, me: InstanceIdentity, judgeLapses = true): Promise<string[]> {
  const gone = new Set<string>();
  const leases = await db.query<{ instance_id: string; host: string; pid: number; lapsed: boolean }>(
    "SELECT instance_id, host, pid, expires_at < now() AS lapsed FROM instance_leases WHERE instance_id <> $1",
    [me.id],
  );
  for (const l of leases.rows) {
    // On this host and pid namespace a pid is one process at a time: this one's own pid, or one that is gone.
    const samePidSpace = l.host === me.host && me.host.includes(" pid:");
    if ((l.lapsed && judgeLapses) || db.engine === "pglite" || (samePidSpace && (l.pid === me.pid || pidGone(l.pid))))
      gone.add(l.instance_id);
  }
  if (db.engine === "pglite") {
    const holders = await db.query<{ instance_id: string }>(
      `SELECT held_by AS instance_id FROM withdrawal_requests WHERE held_by IS NOT NULL AND held_by <> $1
       UNION SELECT instance_id FROM audit_open_intents WHERE instance_id <> $1`,
      [me.id],
    );
    for (const h of holders.rows) gone.add(h.instance_id);
  }
  return [...gone];
}

/**
 * Takes on the settling of a gone instance's leftovers, once across every instance: true for the one peer
 * that claims it (for `forMs`; if that peer dies too, another claims it after). A claim held by an instance
 * in `goneToo` (known gone by the caller) is void at once: a claimer killed mid-recovery would otherwise keep
 * its peer's leftovers, and its own recovery intents, open for the rest of the claim. An instance without a
 * lease row (the embedded database's previous process, before it wrote one) is this process's alone.
 */
export async function claimRecovery(
  db: Db,
  me: InstanceIdentity,
  gone: string,
  forMs: number,
  goneToo: readonly string[] = [],
): Promise<boolean> {
  const { rows } = await db.query<{ claimed: boolean }>(
    `WITH claim AS (
       UPDATE instance_leases SET recovery_by = $2, recovery_until = now() + $3 * interval '1 millisecond'
        WHERE instance_id = $1
          AND (recovery_until IS NULL OR recovery_until < now() OR recovery_by = ANY($4::text[]))
        RETURNING 1
     )
     SELECT EXISTS (SELECT 1 FROM claim)
       OR NOT EXISTS (SELECT 1 FROM instance_leases WHERE instance_id = $1) AS claimed`,
    [gone, me.id, forMs, goneToo],
  );
  return rows[0]?.claimed === true;
}

/** The gone instance's lease is settled: its row goes. */
export async function dropLease(db: Db, gone: string): Promise<void> {
  await db.query("DELETE FROM instance_leases WHERE instance_id = $1", [gone]);
}
