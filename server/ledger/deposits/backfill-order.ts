import "server-only";
// The order in which the deposit sync works through the registry, as staff need it:
// 1. a sub-account staff opened, searched for or asked to check (priority_at): its whole history, at once;
// 2. every sub-account's newest window (the last 89 days) before any older window of any: a sub-account never
//    checked has only its recent part walked (mode "none");
// 3. the backfill goes one window deeper for the sub-accounts at its frontier (the fewest windows walked), so
//    the next window back completes for all before any goes two back, and so on; such a step walks only its
//    window (one call, or a few), even where the sub-account is due for a check too;
// 4. checks that are due (the schedule of ./schedule.ts keeps the newest part current), between the steps:
//    while a step waits, checks take at most CHECKS_WHILE_BACKFILLING of the runs, so that every history is
//    complete near the rate's bound, and the newest part is still checked, most overdue first (a sub-account
//    at the frontier once it has stepped past it); with no step waiting, the checks take every run.
// The frontier leaves out a sub-account whose runs keep failing (FRONTIER_ERRORS in a row): one broken
// sub-account must not hold every other's history back; its own coverage says it is not complete.
import type { Queryable } from "@/server/db";
import { DEPOSITS_JOB, type SyncDeps } from "./sync";

export type RunMode = NonNullable<SyncDeps["backfill"]>;
/** check: the run walks the recent part too (./sync.ts); a backfill step without it walks only its window. */
export type DueRun = { subUid: string; mode: RunMode; priority: boolean; check: boolean };

/** Runs in a row that failed before a sub-account no longer holds the backfill's frontier back. */
export const FRONTIER_ERRORS = 5;
/**
 * While backfill steps wait, the share of the runs (and so, near enough, of the calls) that checks take: every
 * check then delays every history by its call, and a twentieth keeps the whole backfill within a few per cent
 * of the rate's bound (the sync's own pacing takes about as much again).
 */
export const CHECKS_WHILE_BACKFILLING = 0.05;
/** pg-boss's priority of a run staff asked for (higher is fetched first; the others are 0). */
export const PRIORITY_RUN = 10;

/**
 * The backfill's frontier: the fewest windows any registry sub-account still backfilling has walked (-1: one has none
 * yet).
 */
export async function backfillFrontier(db: Queryable): Promise<number | null> {
  const { rows } = await db.query<{ frontier: number | null }>(
    `SELECT min(CASE WHEN s.covered_to IS NULL THEN -1 ELSE s.backfill_windows END)::int AS frontier
       FROM subaccounts r LEFT JOIN ledger_sync s ON s.job = $1 AND s.sub_uid = r.sub_uid
      WHERE s.sub_uid IS NULL OR (NOT s.backfill_done AND s.errors < $2)`,
    [DEPOSITS_JOB, FRONTIER_ERRORS],
  );
  return rows[0]?.frontier ?? null;
}

/** The next `limit` runs the sweep queues, in the order above, each with how much backfill it does. */
export async function dueRuns(db: Queryable, limit: number): Promise<DueRun[]> {
  const frontier = await backfillFrontier(db);
  const { rows } = await db.query<{ sub_uid: string; mode: RunMode; priority: boolean; is_check: boolean }>(
    `WITH c AS (
       SELECT r.sub_uid, s.priority_at, s.next_check_at, s.backfill_windows,
              (s.sub_uid IS NULL OR (s.covered_to IS NULL AND s.errors < $4::int)) AS uncovered,
              COALESCE(s.next_check_at <= now(), false) AS due,
              (s.sub_uid IS NOT NULL AND s.covered_to IS NOT NULL
                AND NOT s.backfill_done AND s.backfill_windows <= $3::int) AS at_frontier
         FROM subaccounts r LEFT JOIN ledger_sync s ON s.job = $1 AND s.sub_uid = r.sub_uid),
     w AS (
       SELECT *, CASE WHEN priority_at IS NOT NULL THEN 0 WHEN uncovered THEN 1 WHEN at_frontier THEN 2 ELSE 3 END
                   AS class
         FROM c WHERE priority_at IS NOT NULL OR uncovered OR due OR at_frontier),
     -- Steps and checks in one line: the k-th step at k ÷ (1 − share), the k-th check at k ÷ share.
     t AS (
       SELECT *, CASE class WHEN 2 THEN row_number() OVER (PARTITION BY class ORDER BY backfill_windows, sub_uid)
                                          / (1 - $5::float8)
                            WHEN 3 THEN row_number() OVER (PARTITION BY class ORDER BY next_check_at, sub_uid)
                                          / $5::float8
                            ELSE 0 END AS turn
         FROM w)
     SELECT sub_uid, priority_at IS NOT NULL AS priority,
            CASE class WHEN 0 THEN 'all' WHEN 2 THEN 'step' ELSE 'none' END AS mode, class <> 2 AS is_check
       FROM t
      ORDER BY least(class, 2), priority_at NULLS LAST, turn, sub_uid
      LIMIT $2`,
    [DEPOSITS_JOB, limit, frontier ?? -1, FRONTIER_ERRORS, CHECKS_WHILE_BACKFILLING],
  );
  return rows.map((r) => ({ subUid: r.sub_uid, mode: r.mode, priority: r.priority, check: r.is_check }));
}

/** Staff are looking at the sub-account: its whole history goes ahead of the queue (any instance's sweep). */
export async function requestPriority(db: Queryable, subUid: string): Promise<void> {
  await db.query(
    `INSERT INTO ledger_sync (job, sub_uid, next_check_at, priority_at) VALUES ($1, $2, now(), now())
     ON CONFLICT (job, sub_uid) DO UPDATE SET next_check_at = now(),
       priority_at = COALESCE(ledger_sync.priority_at, now())`,
    [DEPOSITS_JOB, subUid],
  );
}

/**
 * Puts a queued run of the sub-account (if one waits) ahead of the others, with its whole history to do; true
 * when one was waiting. pg-boss keeps one run per sub-account queued (exclusive), so a new send would be refused.
 */
export async function hurryQueuedRun(db: Queryable, schema: string, queue: string, subUid: string): Promise<boolean> {
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`not a schema name: ${schema}`);
  const { rows } = await db.query(
    `UPDATE ${schema}.job SET priority = $3, data = jsonb_set(data, '{mode}', '"all"')
      WHERE name = $1 AND singleton_key = $2 AND state IN ('created', 'retry') RETURNING id`,
    [queue, subUid, PRIORITY_RUN],
  );
  return rows.length > 0;
}

export type BackfillProgress = {
  /** Registry sub-accounts, and those whose newest window (the last 89 days) / whole history is complete. */
  registry: number;
  recentComplete: number;
  historyComplete: number;
  /** The calls each still needs, as estimated from what the done ones took. */
  recentCallsLeft: number;
  historyCallsLeft: number;
};

/**
 * How far the backfill is, and how many calls it still needs: a sub-account without its newest window needs
 * one walk of it; one without its whole history needs the windows the complete ones took on average (three
 * when none is complete yet: the platform keeps 90 days, and two empty windows end a history), less those it
 * walked; each window about as many calls as a check of a complete one takes.
 */
export async function backfillProgress(db: Queryable, now: number, windowMs: number): Promise<BackfillProgress> {
  const { rows } = await db.query<{
    registry: number;
    recent: number;
    history: number;
    windows: number | null;
    cost: number | null;
    left: number;
    uncovered: number;
  }>(
    `WITH c AS (
       SELECT s.covered_from, s.covered_to, COALESCE(s.backfill_done, false) AS done,
         COALESCE(s.backfill_windows, 0) AS w, s.calls_per_check
         FROM subaccounts r LEFT JOIN ledger_sync s ON s.job = $1 AND s.sub_uid = r.sub_uid)
     SELECT count(*)::int AS registry,
            count(*) FILTER (WHERE covered_to IS NOT NULL AND (covered_from = 0 OR covered_from <= $2::bigint))::int
              AS recent,
            count(*) FILTER (WHERE covered_to IS NOT NULL AND covered_from = 0)::int AS history,
            avg(w) FILTER (WHERE done)::float8 AS windows,
            avg(calls_per_check) FILTER (WHERE done)::float8 AS cost,
            count(*) FILTER (WHERE covered_to IS NULL)::int AS uncovered,
            COALESCE(sum(w) FILTER (WHERE NOT done AND covered_to IS NOT NULL), 0)::int AS left
       FROM c`,
    [DEPOSITS_JOB, now - windowMs + 60_000],
  );
  const r = rows[0]!;
  const perWindow = Math.max(1, r.cost ?? 1);
  const windows = Math.max(1, r.windows ?? 3);
  const backfilling = r.registry - r.history - r.uncovered;
  // Windows still to walk: every uncovered one its newest and all the rest; every backfilling one the rest.
  const windowsLeft = r.uncovered * (1 + windows) + Math.max(backfilling, backfilling * windows - r.left);
  return {
    registry: r.registry,
    recentComplete: r.recent,
    historyComplete: r.history,
    recentCallsLeft: Math.ceil((r.registry - r.recent) * perWindow),
    historyCallsLeft: Math.ceil(windowsLeft * perWindow),
  };
}
