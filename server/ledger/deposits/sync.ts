import "server-only";
// Keeping one sub-account's deposits (E1) in the ledger. One run does, in order and within a bounded
// number of calls:
// 1. the recent part: from the newest stored record (less a re-check span, as a pending deposit's status
//    can still change) up to now, newest first, page by page: a check. A backfill step the sweep did not
//    also make a check (./backfill-order.ts) leaves it out, so a history of n windows costs n calls, not 2n;
// 2. one step of the backfill: the next 89-day window further back (the platform answers at most three
//    months per call), until two windows in a row hold nothing: then everything the platform still holds
//    has been seen.
// 3. once the backfill is done, one step of the verify pass (at most one pass a day): the next window of
//    the stored history older than the recent part, walked again.
// Each record is upserted by its orderId (never twice); a status that changed is recorded with the time it
// was seen. A stored record that a fully walked window no longer holds is marked gone (gone_at), never
// deleted: the platform forgets (its retention), the ledger keeps. Only Brokerdesk's own retention
// (LEDGER_RETENTION_DAYS, server/ledger/retention.ts) deletes, and the sync then reaches no further back.
// Safe to repeat and to interrupt anywhere: a rerun sees the same records and writes nothing new.
// Coverage (ledger_sync.covered_from/covered_to, read by ../coverage.ts): a window walked to its end extends
// the span the ledger holds completely, in the transaction of the window's last page, so a walk cut short by
// a fault or a kill -9 claims nothing it did not store.
import type { DepositRecord } from "@/lib/platform/catalog/deposits";
import type { Db, Queryable } from "@/server/db";
import { markGone } from "../retention";
import { COVERAGE_SKEW_MS, firstFrom, spanUnionSet } from "../spans";
import type { LedgerRunDeps } from "../run-deps";
import { failureText, walkPages, type Walk } from "../walk";

export const DEPOSITS_JOB = "deposits";
const DAY = 86_400_000;
/** Under E1's three-month span, with room for clock skew. */
export const WINDOW_MS = 89 * DAY;
/** How far back from the newest stored record the recent part looks again (statuses still moving). */
export const RECHECK_MS = 2 * DAY;
/** Two empty windows in a row (178 days of nothing) end the backfill. */
const EMPTY_WINDOWS_TO_STOP = 2;

export type SyncDeps = LedgerRunDeps & {
  /** Brokerdesk's own retention (ms; null or absent: forever): nothing older is fetched or kept. */
  retentionMs?: number | null;
  /** How long after a verify pass ends the next one starts (default a day). */
  verifyEveryMs?: number;
  /**
   * How much of the backfill this run does: one window (default), none (the sweep holds a sub-account at the
   * backfill's frontier until every other has reached it), or all of it (a sub-account staff are looking at).
   */
  backfill?: "step" | "none" | "all";
  /**
   * Whether the run checks the recent part (default yes). Only a one-window step may go without (it then walks
   * only its older window); a run of the whole history, or one with no backfill under way, always checks.
   */
  check?: boolean;
};

export type SyncOutcome = {
  calls: number;
  records: number;
  changes: number;
  gone: number;
  backfillDone: boolean;
  /** The backfill was under way when the run began: its coverage may have grown with no record found. */
  backfillWasOn: boolean;
  newestCtime: number | null;
  /** The recent part was walked: a check, which moves the sub-account's schedule (./jobs.ts). */
  checked: boolean;
};

type SyncState = {
  backfill_done: boolean;
  backfill_before: string | null;
  empty_windows: number;
  newest_ctime: string | null;
  verify_before: string | null;
  verify_due: boolean;
};

export async function syncSubaccountDeposits(subUid: string, deps: SyncDeps): Promise<SyncOutcome> {
  const now = (deps.now ?? Date.now)();
  const state = await loadState(deps.db, subUid, deps.verifyEveryMs ?? DAY);
  const out: SyncOutcome = {
    calls: 0,
    records: 0,
    changes: 0,
    gone: 0,
    backfillDone: state.backfill_done,
    backfillWasOn: !state.backfill_done,
    newestCtime: null,
    checked: false,
  };
  const cutoff = deps.retentionMs ? now - deps.retentionMs : -Infinity;

  // 1. Recent: newest stored (less the re-check span) .. now; the whole window when nothing is stored yet.
  //    Left out by a backfill step that is not a check too: the backfill goes on from where it stands.
  const newest = state.newest_ctime === null ? null : Number(state.newest_ctime);
  const recentStart = Math.max(newest === null ? now - WINDOW_MS : newest - RECHECK_MS, now - WINDOW_MS, cutoff);
  const stepOnly =
    deps.check === false &&
    (deps.backfill ?? "step") === "step" &&
    !state.backfill_done &&
    state.backfill_before !== null;
  const recent = stepOnly
    ? { count: 0, newest: null }
    : await walkWindow(subUid, recentStart, now, deps, out, { coveredTo: now - COVERAGE_SKEW_MS });
  out.checked = !stepOnly;

  // 2. The backfill, when not done: the window that ends where the last one (or the recent part) began; one
  //    such step, none or all of them, as the sweep asked.
  let backfillBefore = state.backfill_before === null ? recentStart : Number(state.backfill_before);
  let emptyWindows = state.empty_windows;
  let done = state.backfill_done;
  const steps = deps.backfill === "none" ? 0 : deps.backfill === "all" ? Infinity : 1;
  for (let step = 0; !done && step < steps; step++) {
    const start = Math.max(backfillBefore - WINDOW_MS, cutoff);
    const empties = emptyWindows;
    const found = await walkWindow(subUid, start, backfillBefore, deps, out, {
      coveredTo: backfillBefore,
      backfillStep: true,
      // Decided with the window's last page, so "complete back to the start" is written with it.
      endsHistory: (count) => (count === 0 ? empties + 1 : 0) >= EMPTY_WINDOWS_TO_STOP || start <= cutoff,
    });
    emptyWindows = found.count === 0 ? emptyWindows + 1 : 0;
    backfillBefore = start;
    done = emptyWindows >= EMPTY_WINDOWS_TO_STOP || start <= cutoff;
  }
  out.backfillDone = done;

  // 3. One verify step, once the history is in: where the pass stands, or the start of a new pass.
  let verifyBefore = state.verify_before === null ? null : Number(state.verify_before);
  // A backfill that just ended has walked the whole history: that counts as a pass.
  let verifyEnded = done && !state.backfill_done;
  if (state.backfill_done && (verifyBefore !== null || state.verify_due)) {
    const end = verifyBefore ?? recentStart;
    const { rows } = await deps.db.query<{ below: string | null }>(
      `SELECT max(ctime)::text AS below FROM ledger_deposits WHERE sub_uid = $1 AND ctime < $2 AND gone_at IS NULL`,
      [subUid, end],
    );
    const below = rows[0]?.below == null ? null : Number(rows[0].below);
    if (below === null || below < cutoff) {
      verifyBefore = null;
      verifyEnded = true;
    } else {
      // The window ends at the newest record still held as present below the pass: a gap costs no calls.
      const windowEnd = Math.min(end, below);
      const start = Math.max(windowEnd - WINDOW_MS, cutoff);
      await walkWindow(subUid, start, windowEnd, deps, out, { coveredTo: windowEnd });
      verifyBefore = start;
    }
  }

  const newestSeen = Math.max(newest ?? 0, recent.newest ?? 0) || null;
  out.newestCtime = newestSeen;
  // A step that was no check leaves the check's times as they were: /sync's lag is the age of the last check.
  await deps.db.query(
    `INSERT INTO ledger_sync (job, sub_uid, backfill_done, backfill_before, empty_windows, newest_ctime,
       last_checked_at, last_success_at, records, calls, errors, last_error, verify_before, verified_at)
     VALUES ($1, $2, $3, $4, $5, $6, now(), now(), $7, $8, 0, NULL, $9, CASE WHEN $10::boolean THEN now() END)
     ON CONFLICT (job, sub_uid) DO UPDATE SET backfill_done = $3, backfill_before = $4, empty_windows = $5,
       newest_ctime = $6,
       last_checked_at = CASE WHEN $11::boolean THEN now() ELSE ledger_sync.last_checked_at END,
       last_success_at = CASE WHEN $11::boolean THEN now() ELSE ledger_sync.last_success_at END,
       records = ledger_sync.records + $7, calls = ledger_sync.calls + $8, errors = 0, last_error = NULL,
       verify_before = $9, verified_at = CASE WHEN $10::boolean THEN now() ELSE ledger_sync.verified_at END`,
    [
      DEPOSITS_JOB,
      subUid,
      done,
      backfillBefore,
      emptyWindows,
      newestSeen,
      out.records,
      out.calls,
      verifyBefore,
      verifyEnded,
      out.checked,
    ],
  );
  return out;
}

/** Records a failed run for /sync and the next try; the job engine retries it with backoff. */
export async function recordSyncFailure(db: Queryable, subUid: string, error: unknown): Promise<void> {
  const message = failureText(error);
  await db.query(
    `INSERT INTO ledger_sync (job, sub_uid, last_checked_at, errors, last_error) VALUES ($1, $2, now(), 1, $3)
     ON CONFLICT (job, sub_uid) DO UPDATE SET last_checked_at = now(), errors = ledger_sync.errors + 1,
       last_error = $3`,
    [DEPOSITS_JOB, subUid, message],
  );
}

async function loadState(db: Queryable, subUid: string, verifyEveryMs: number): Promise<SyncState> {
  const { rows } = await db.query<SyncState>(
    `SELECT backfill_done, backfill_before::text AS backfill_before, empty_windows, newest_ctime::text AS newest_ctime,
       verify_before::text AS verify_before,
            (verified_at IS NULL OR verified_at <= now() - make_interval(secs => $3 / 1000.0)) AS verify_due
       FROM ledger_sync WHERE job = $1 AND sub_uid = $2`,
    [DEPOSITS_JOB, subUid, verifyEveryMs],
  );
  return (
    rows[0] ?? {
      backfill_done: false,
      backfill_before: null,
      empty_windows: 0,
      newest_ctime: null,
      verify_before: null,
      verify_due: true,
    }
  );
}

/** What a window walked to its end adds to the sub-account's coverage. */
type WindowCoverage = {
  /** The end of the span it covers (the window's end, less the skew for one that ends now). */
  coveredTo: number;
  /** A step of the backfill: counted in backfill_windows. */
  backfillStep?: boolean;
  /** Given the window's record count: the backfill ends with it (nothing older): covered back to 0. */
  endsHistory?: (count: number) => boolean;
};

/**
 * Every record of [start, end] (both ends included, as E1 reads them), newest first, page by page; stored as
 * it arrives. With the last page, in its transaction: a stored record of the window that was not in the
 * answer is marked gone, and the window joins the sub-account's coverage.
 */
async function walkWindow(
  subUid: string,
  start: number,
  end: number,
  deps: SyncDeps,
  out: SyncOutcome,
  coverage: WindowCoverage,
): Promise<Walk> {
  if (start > end) return { count: 0, newest: null };
  const seen: string[] = [];
  const store = (rows: DepositRecord[]) => {
    for (const r of rows) seen.push(r.orderId);
    return storeDeposits(deps.db, subUid, rows);
  };
  const storeLast = (rows: DepositRecord[]) => {
    for (const r of rows) seen.push(r.orderId);
    return storeDeposits(deps.db, subUid, rows, async (tx) => {
      out.gone += await markGone(tx, subUid, start, end, seen);
      await extendCoverage(tx, subUid, {
        from: start,
        to: Math.max(start, Math.min(end, coverage.coveredTo)),
        backfillStep: coverage.backfillStep ?? false,
        endsHistory: coverage.endsHistory?.(new Set(seen).size) ?? false,
      });
    });
  };
  return walkPages({ op: "deposits.list", params: { userId: subUid }, start, end, store, storeLast }, deps, out);
}

/**
 * Joins [from, to] to the sub-account's covered span (../spans.ts); a window that ends the history covers back
 * to 0.
 */
export async function extendCoverage(
  tx: Queryable,
  subUid: string,
  w: { from: number; to: number; backfillStep: boolean; endsHistory: boolean },
): Promise<void> {
  const p = { from: "$3", to: "$4", endsHistory: "$6" };
  await tx.query(
    `INSERT INTO ledger_sync (job, sub_uid, covered_from, covered_to, backfill_windows)
     VALUES ($1, $2, ${firstFrom(p)}, $4::bigint, $5::int)
     ON CONFLICT (job, sub_uid) DO UPDATE SET ${spanUnionSet("ledger_sync", p)},
       backfill_windows = ledger_sync.backfill_windows + $5::int`,
    [DEPOSITS_JOB, subUid, Math.floor(w.from), Math.floor(w.to), w.backfillStep ? 1 : 0, w.endsHistory],
  );
}

/**
 * Upserts a page of records in one transaction and three statements (not one per record: this is the
 * backfill's hot path); returns how many were new or changed status. Each such record gets a row in
 * ledger_deposit_changes (from NULL for a first sighting).
 */
export async function storeDeposits(
  db: Db,
  subUid: string,
  page: DepositRecord[],
  /** Run in the same transaction, after the page is stored (a walk's last page: its coverage). */
  after?: (tx: Queryable) => Promise<void>,
): Promise<number> {
  // One row per record ID (one INSERT … ON CONFLICT may not touch a row twice).
  const rows = [...new Map(page.map((r) => [r.orderId, r])).values()];
  const col = <K extends keyof DepositRecord>(k: K) => rows.map((r) => r[k]);
  return db.transaction(async (tx) => {
    if (!rows.length) {
      if (after) await after(tx);
      return 0;
    }
    const { rows: known } = await tx.query<{ order_id: string; status: string }>(
      `SELECT order_id, status FROM ledger_deposits WHERE order_id = ANY($1)`,
      [col("orderId")],
    );
    const before = new Map(known.map((k) => [k.order_id, k.status]));
    await tx.query(
      `INSERT INTO ledger_deposits (order_id, sub_uid, coin, amount, status, type, dest, chain, from_address,
         to_address, tx_id, fee, confirm, tag, ctime, utime)
       SELECT o, $2, c, a::numeric, st, ty, de, ch, fa, ta, tx, fe, cf, tg, ct::bigint, NULLIF(ut, '')::bigint
         FROM unnest($1::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
           $10::text[], $11::text[],
                     $12::text[], $13::text[], $14::text[], $15::text[], $16::text[])
              AS t(o, c, a, st, ty, de, ch, fa, ta, tx, fe, cf, tg, ct, ut)
       ON CONFLICT (order_id) DO UPDATE SET status = EXCLUDED.status, confirm = EXCLUDED.confirm,
         tx_id = EXCLUDED.tx_id,
         utime = EXCLUDED.utime, last_seen_at = now(), gone_at = NULL`,
      [
        col("orderId"),
        subUid,
        col("coin"),
        col("amount"),
        col("status"),
        col("type"),
        col("dest"),
        col("chain"),
        col("fromAddress"),
        col("toAddress"),
        col("txId"),
        col("fee"),
        col("confirm"),
        col("tag"),
        col("cTime"),
        col("uTime"),
      ],
    );
    const changed = rows.filter((r) => before.get(r.orderId) !== r.status);
    if (changed.length) {
      await tx.query(
        `INSERT INTO ledger_deposit_changes (order_id, from_status, to_status) SELECT * FROM unnest($1::text[],
           $2::text[], $3::text[])`,
        [
          changed.map((r) => r.orderId),
          changed.map((r) => before.get(r.orderId) ?? null),
          changed.map((r) => r.status),
        ],
      );
    }
    if (after) await after(tx);
    return changed.length;
  });
}
