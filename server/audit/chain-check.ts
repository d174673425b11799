import "server-only";
// The audit chain's head, checked cheaply when the app starts: the stored head (audit_head's last_id and
// last_hash) against a recomputation of the last entries (each row's hash recomputed from its content, each
// linked to the one before, the last one being the head). The full walk is `npm run audit:verify`; this one
// reads a few hundred rows, so every start can afford it. A mismatch is said on /audit (a banner for audit
// readers) and on /metrics (brokerdesk_audit_chain_head_ok 0), and logged. The same run-of-rows check verifies
// a backup's chain before a restore replaces anything (server/db/backup.ts).
import { getDb, type Db } from "@/server/db";
import { logger } from "@/server/log";
import { metrics } from "@/server/metrics";
import { toRow, type AuditRow, type DbAuditRow } from "./audit-log";
import { AUDIT_GENESIS_HASH, hashAuditRow } from "./hash";

export type ChainVerdict = { ok: true; rows: number } | { ok: false; rows: number; brokenAt: number; reason: string };

/**
 * Checks rows given in id order, the first of them `from` (whose prev_hash must be `prevHash`), against the
 * head. `push` answers false once the chain is broken (the rest need not be read); `end` gives the verdict.
 */
export function chainWalk(from: { id: number; prevHash: string }) {
  let expected = from.id;
  let prevHash = from.prevHash;
  let verified = 0;
  let broken: ChainVerdict | null = null;
  const brake = (brokenAt: number, reason: string) => {
    broken = { ok: false, rows: verified, brokenAt, reason };
    return false;
  };
  return {
    push(row: Omit<AuditRow, "outcome"> & { outcome: string }): boolean {
      if (broken) return false;
      if (row.id !== expected) {
        if (row.id < expected) return brake(row.id, `row ${row.id} appears twice`);
        const gap =
          row.id - expected === 1 ? `row ${expected} is missing` : `rows ${expected}..${row.id - 1} are missing`;
        return brake(expected, `${gap} (deleted): the next row is ${row.id}`);
      }
      if (row.prevHash !== prevHash) {
        const before = expected === 1 ? "the genesis value" : `row ${expected - 1}'s hash`;
        return brake(row.id, `prev_hash is not ${before} (a row before it was changed or replaced)`);
      }
      if (hashAuditRow({ ...row, at: row.at.toISOString() }) !== row.hash)
        return brake(row.id, "content does not match its hash (row edited)");
      prevHash = row.hash;
      expected++;
      verified++;
      return true;
    },
    end(head: { lastId: number; lastHash: string }): ChainVerdict {
      if (broken) return broken;
      const last = expected - 1;
      if (last < head.lastId) {
        const gap =
          expected === head.lastId ? `row ${expected} is missing` : `rows ${expected}..${head.lastId} are missing`;
        return {
          ok: false,
          rows: verified,
          brokenAt: expected,
          reason: `${gap} (deleted): the chain head records ${head.lastId} rows`,
        };
      }
      if (last > head.lastId)
        return {
          ok: false,
          rows: verified,
          brokenAt: head.lastId + 1,
          reason: `rows after the head's ${head.lastId} are there`,
        };
      if (prevHash !== head.lastHash)
        return {
          ok: false,
          rows: verified,
          brokenAt: head.lastId,
          reason: "the last row's hash differs from the chain head's",
        };
      return { ok: true, rows: verified };
    },
  };
}

/** What the head check found, and when; `checked` the rows recomputed. */
export type AuditHeadCheck = {
  ok: boolean;
  headId: number;
  checked: number;
  at: string;
  brokenAt?: number;
  reason?: string;
};

/** Rows recomputed at start: a few hundred milliseconds at most, whatever the log's size. */
export const HEAD_CHECK_ROWS = 500;

const COLUMNS =
  "id, at, actor, actor_role, action, outcome, target, params, detail, request_id, ip, intent_id, prev_hash, hash";

/** The head against a recomputation of its last `rows` entries (the one before them gives the first link). */
export async function checkAuditHead(db: Db, rows = HEAD_CHECK_ROWS): Promise<AuditHeadCheck> {
  const at = new Date().toISOString();
  const head = (
    await db.query<{ last_id: string; last_hash: string }>(
      "SELECT last_id::text, last_hash FROM audit_head WHERE id = 1",
    )
  ).rows[0];
  if (!head) return { ok: false, headId: 0, checked: 0, at, brokenAt: 0, reason: "audit_head row is missing" };
  const lastId = Number(head.last_id);
  const from = Math.max(1, lastId - rows + 1);
  let prevHash = AUDIT_GENESIS_HASH;
  if (from > 1) {
    const before = await db.query<{ hash: string }>("SELECT hash FROM audit_log WHERE id = $1", [from - 1]);
    // Missing: the walk below then reports the first row's link as broken.
    prevHash = before.rows[0]?.hash ?? "";
  }
  const { rows: found } = await db.query<DbAuditRow>(
    // Up to the head read above: rows appended since (another instance) are not this check's.
    `SELECT ${COLUMNS} FROM audit_log WHERE id >= $1 AND id <= $2 ORDER BY id`,
    [from, lastId],
  );
  const walk = chainWalk({ id: from, prevHash });
  for (const r of found) if (!walk.push(toRow(r))) break;
  const verdict = walk.end({ lastId, lastHash: head.last_hash });
  return verdict.ok
    ? { ok: true, headId: lastId, checked: verdict.rows, at }
    : { ok: false, headId: lastId, checked: verdict.rows, at, brokenAt: verdict.brokenAt, reason: verdict.reason };
}

const g = globalThis as typeof globalThis & { __brokerdeskAuditHead?: Promise<AuditHeadCheck> };

/**
 * The check of this process's start (run once: by start-up, or by the first reader if start-up has not yet),
 * recorded on /metrics and, when it does not match, logged as an error. A check that could not run (the
 * database unreachable) is tried again by the next caller.
 */
export function auditHeadAtStart(db: Db): Promise<AuditHeadCheck> {
  g.__brokerdeskAuditHead ??= checkAuditHead(db).then(
    (c) => {
      metrics().auditChainHeadOk.set(c.ok ? 1 : 0);
      if (c.ok) logger.info({ headId: c.headId, checked: c.checked }, "audit chain head matches its last entries");
      else logger.error({ ...c }, "audit chain head does NOT match its last entries: run npm run audit:verify");
      return c;
    },
    (e: unknown) => {
      g.__brokerdeskAuditHead = undefined;
      throw e;
    },
  );
  return g.__brokerdeskAuditHead;
}

/** For tests: forget this process's check (the gauge back to "not checked"), so the next call checks again. */
export function forgetAuditHeadCheck(): void {
  g.__brokerdeskAuditHead = undefined;
  metrics().auditChainHeadOk.set(-1);
}

/** What /audit says to its readers about this process's check, or null when it matched (or could not run). */
export async function auditHeadWarning(): Promise<string | null> {
  const check = await auditHeadAtStart(await getDb()).catch(() => null);
  return check && chainHeadWarning(check);
}

/** What /audit says to its readers about a check, or null when it matched. */
export function chainHeadWarning(c: AuditHeadCheck): string | null {
  if (c.ok) return null;
  return (
    `The audit chain does not verify: when Brokerdesk started (${c.at.slice(0, 19).replace("T", " ")} UTC), the ` +
    `stored head (row ${c.headId}) did not match its last entries: ${c.reason ?? "unknown"}` +
    `${c.brokenAt !== undefined ? ` (at row ${c.brokenAt})` : ""}. Rows may have been changed or removed: ` +
    "ask an administrator to run npm run audit:verify before relying on this log."
  );
}
