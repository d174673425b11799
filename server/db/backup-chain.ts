import "server-only";
// A backup's audit chain, verified before a restore replaces anything (backup.ts): every row's hash recomputed
// from its content, each linked to the one before, the last one being the backup's head (server/audit's
// chainWalk, the same check as `npm run audit:verify`).
// - the embedded database: the backup is started in a folder of its own first, and its chain read there;
// - PostgreSQL: the archive's audit_log and audit_head are read as pg_restore writes them (COPY text, streamed:
//   nothing is restored anywhere), rows taken in id order as they come (the few out of order held back).
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import type { PGlite } from "@electric-sql/pglite";
import { AUDIT_GENESIS_HASH } from "@/server/audit/hash";
import { chainWalk, type ChainVerdict } from "@/server/audit/chain-check";

/** What the walk reads of a row, by column name (COPY's or a query's). */
type Raw = Record<string, unknown>;

function rowOf(r: Raw) {
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return {
    id: Number(r.id),
    at: r.at instanceof Date ? r.at : new Date(String(r.at)),
    actor: String(r.actor),
    actorRole: (r.actor_role ?? null) as string | null,
    action: String(r.action),
    outcome: String(r.outcome),
    target: (r.target ?? null) as string | null,
    params: (r.params ?? null) as never,
    detail: (r.detail ?? null) as never,
    requestId: (r.request_id ?? null) as string | null,
    ip: (r.ip ?? null) as string | null,
    intentId: num(r.intent_id),
    prevHash: String(r.prev_hash),
    hash: String(r.hash),
  };
}

/** A timestamptz as PostgreSQL writes it with DateStyle ISO ("2026-12-07 08:53:48.123+00", "+05:30"). */
export function parseTimestamptz(text: string): Date {
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2}(?:\.\d+)?)(?:([+-]\d{2})(?::?(\d{2}))?(?::?(\d{2}))?)?$/.exec(
    text,
  );
  if (!m) throw new Error(`not a timestamp: ${text}`);
  const [, day, time, h = "+00", min = "00", sec] = m;
  const ms = Date.parse(`${day}T${time!.slice(0, 12)}${h}:${min}`);
  return new Date(ms - (sec ? Number(h!.startsWith("-") ? `-${sec}` : sec) * 1000 : 0));
}

const COLUMNS =
  "id, at, actor, actor_role, action, outcome, target, params, detail, request_id, ip, intent_id, prev_hash, hash";
const BATCH = 1_000;
/** Rows held back waiting for an earlier id, at most. */
const HOLD_MAX = 10_000;

/** The chain of an embedded database (opened by the caller on a folder started from the backup). */
export async function pgliteChain(pgl: PGlite): Promise<ChainVerdict> {
  const head = await pgl
    .query<{ last_id: unknown; last_hash: string }>("SELECT last_id, last_hash FROM audit_head WHERE id = 1")
    .catch(() => null);
  if (!head?.rows[0]) return { ok: false, rows: 0, brokenAt: 0, reason: "the backup holds no audit chain head" };
  const lastId = Number(head.rows[0].last_id);
  const walk = chainWalk({ id: 1, prevHash: AUDIT_GENESIS_HASH });
  for (let from = 1; from <= lastId;) {
    const { rows } = await pgl.query<Raw>(
      `SELECT ${COLUMNS} FROM audit_log WHERE id >= $1 AND id <= $2 ORDER BY id LIMIT ${BATCH}`,
      [from, lastId],
    );
    for (const r of rows) if (!walk.push(rowOf(r))) return walk.end({ lastId, lastHash: head.rows[0].last_hash });
    if (rows.length < BATCH) break;
    from = Number(rows.at(-1)!.id) + 1;
  }
  return walk.end({ lastId, lastHash: head.rows[0].last_hash });
}

/** One field of COPY's text format: \N is null; backslash escapes (\t, \n, \\, octal, \x hex) decoded. */
export function copyField(text: string): string | null {
  if (text === "\\N") return null;
  if (!text.includes("\\")) return text;
  return text.replace(/\\(x[0-9a-fA-F]{1,2}|[0-7]{1,3}|.)/g, (_, e: string) => {
    if (e[0] === "x") return String.fromCharCode(parseInt(e.slice(1), 16));
    if (/^[0-7]/.test(e)) return String.fromCharCode(parseInt(e, 8));
    return ({ b: "\b", f: "\f", n: "\n", r: "\r", t: "\t", v: "\v" } as Record<string, string>)[e] ?? e;
  });
}

/**
 * The chain of a pg_dump archive, read from pg_restore's script of the two tables' data (schema `schema`).
 * Rows arrive in the order they were stored; one ahead of the next id is held until its turn.
 */
export async function archiveChain(file: string, schema: string): Promise<ChainVerdict> {
  const child = spawn(
    "pg_restore",
    ["--data-only", "--schema", schema, "--table", "audit_log", "--table", "audit_head", "--file", "-", file],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4_000)));
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once("error", (e) => reject(new Error(`pg_restore could not be started: ${e.message}`)));
    child.once("close", resolve);
  });
  const walk = chainWalk({ id: 1, prevHash: AUDIT_GENESIS_HASH });
  let head: { lastId: number; lastHash: string } | null = null;
  let table: "audit_log" | "audit_head" | null = null;
  let columns: string[] = [];
  let next = 1;
  let broken = false;
  const held = new Map<number, Raw>();
  const take = (r: Raw) => {
    held.set(Number(r.id), r);
    // Far ahead of the next id: that id is missing (the walk says so), not late.
    if (held.size > HOLD_MAX) next = Math.min(...held.keys());
    for (let row = held.get(next); row && !broken; row = held.get(next)) {
      held.delete(next);
      next++;
      if (!walk.push(rowOf(row))) broken = true;
    }
  };
  for await (const line of createInterface({ input: child.stdout, crlfDelay: Infinity })) {
    if (table === null) {
      const copy = /^COPY (?:"?[^".]+"?\.)?"?(audit_log|audit_head)"? \(([^)]*)\) FROM stdin;$/.exec(line);
      if (copy) {
        table = copy[1] as "audit_log" | "audit_head";
        columns = copy[2]!.split(",").map((c) => c.trim().replace(/^"|"$/g, ""));
      }
      continue;
    }
    if (line === "\\.") {
      table = null;
      continue;
    }
    if (broken) continue;
    const values = line.split("\t").map(copyField);
    const r: Raw = Object.fromEntries(columns.map((c, i) => [c, values[i] ?? null]));
    if (table === "audit_head") head = { lastId: Number(r.last_id), lastHash: String(r.last_hash) };
    else {
      // As the database would give them back: jsonb parsed, the time at its instant.
      for (const k of ["params", "detail"]) r[k] = typeof r[k] === "string" ? JSON.parse(r[k]) : null;
      r.at = parseTimestamptz(String(r.at));
      take(r);
    }
  }
  const code = await exited;
  if (code !== 0) throw new Error(`pg_restore could not read ${file} (exit ${code}): ${stderr.trim()}`);
  if (!head) return { ok: false, rows: 0, brokenAt: 0, reason: "the backup holds no audit chain head" };
  const verdict = walk.end(head);
  // Rows beyond the chain's last link: stored twice or out of any order the chain has.
  if (verdict.ok && held.size)
    return { ok: false, rows: verdict.rows, brokenAt: Math.min(...held.keys()), reason: "rows outside the chain" };
  return verdict;
}
