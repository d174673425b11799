import "server-only";
// Keeping one configured key's fills (E4, every symbol in one walk) and its plan orders (E3, one symbol a
// walk, as E3 requires) in the ledger. One run, as for deposits (../deposits/sync.ts):
// 1. the recent part: from the newest stored record (less a re-check span) up to now, newest first; for
//    plan orders it reaches back to the oldest stored order not yet triggered, whose status may change;
// 2. one backfill step, further back, until everything the platform still holds has been seen: for fills
//    that is the recent window itself (E4 keeps 90 days), for plan orders two empty 89-day windows.
// Safe to repeat and to interrupt anywhere: records are upserted by ID. Coverage (ledger_key_sync.covered_from/
// covered_to, read by ../coverage.ts): a window walked to its end joins the span held completely, in the
// transaction of its last page, so a walk cut short claims nothing it did not store.
import type { Fill, PlanOrder } from "@/lib/platform/catalog";
import type { Queryable } from "@/server/db";
import { platformNow, type LedgerRunDeps } from "../run-deps";
import { COVERAGE_SKEW_MS } from "../spans";
import { extendKeyCoverage, FILLS_JOB, PLAN_ORDERS_JOB, storeFills, storePlanOrders } from "./store";
import { failureText, walkPages } from "../walk";

const DAY = 86_400_000;
/** E3's 90-day span, less room for clock skew. */
const PLAN_WINDOW_MS = 89 * DAY;
/** E4 refuses a start older than 90 days (on its own clock and the catalog's): ten minutes inside it. */
export const FILL_WINDOW_MS = 90 * DAY - 10 * 60_000;
/** Fills never change; a fill is re-read only if it arrived late (an hour). Plan orders: two days. */
const FILL_RECHECK_MS = 3_600_000;
const PLAN_RECHECK_MS = 2 * DAY;
const EMPTY_WINDOWS_TO_STOP = 2;

export type TradeJob = typeof FILLS_JOB | typeof PLAN_ORDERS_JOB;
export type TradeTask = { job: TradeJob; key: string; symbol: string };

export type TradeSyncDeps = LedgerRunDeps;

export type TradeSyncOutcome = { calls: number; records: number; changes: number; backfillDone: boolean };

/** What a window walked to its end adds to the coverage: up to coveredTo; back to 0 when it ends the history. */
type WindowCoverage = { coveredTo: number; endsHistory?: (count: number) => boolean };

type State = {
  backfill_done: boolean;
  backfill_before: string | null;
  empty_windows: number;
  newest_ctime: string | null;
};

export async function syncKeyTrades(task: TradeTask, deps: TradeSyncDeps): Promise<TradeSyncOutcome> {
  // The platform's clock, as the client last saw it: E4 refuses a start older than 90 days on that clock.
  const now = platformNow(deps);
  const state = await loadState(deps.db, task);
  const out: TradeSyncOutcome = { calls: 0, records: 0, changes: 0, backfillDone: state.backfill_done };
  const fills = task.job === FILLS_JOB;
  const window = fills ? FILL_WINDOW_MS : PLAN_WINDOW_MS;
  // E4: every symbol in one walk. E3: one symbol a walk, as it requires. A walk's last page is stored with
  // what the walk completes: the span [start, coveredTo] joins the key's coverage (../spans.ts).
  const walk = (start: number, end: number, cover: WindowCoverage) => {
    const seen = new Set<string>();
    const covered = (tx: Queryable) =>
      extendKeyCoverage(tx, task, {
        from: start,
        to: Math.max(start, Math.min(end, cover.coveredTo)),
        endsHistory: cover.endsHistory?.(seen.size) ?? false,
      });
    /** Stores each page, the last one with the walk's coverage, noting the IDs seen. */
    const storing = <R>(id: (r: R) => string, store: (rows: R[], after?: typeof covered) => Promise<number>) => ({
      store: (rows: R[]) => {
        for (const r of rows) seen.add(id(r));
        return store(rows);
      },
      storeLast: (rows: R[]) => {
        for (const r of rows) seen.add(id(r));
        return store(rows, covered);
      },
    });
    const span = { key: task.key, start, end };
    return fills
      ? walkPages<Fill>(
          {
            op: "fills.list",
            params: {},
            ...span,
            ...storing<Fill>(
              (r) => r.tradeId,
              (rows, after) => storeFills(deps.db, task.key, rows, after),
            ),
          },
          deps,
          out,
        )
      : walkPages<PlanOrder>(
          {
            op: "planOrders.history",
            params: { symbol: task.symbol },
            ...span,
            ...storing<PlanOrder>(
              (r) => r.orderId,
              (rows, after) => storePlanOrders(deps.db, task.key, rows, after),
            ),
          },
          deps,
          out,
        );
  };

  const newest = state.newest_ctime === null ? null : Number(state.newest_ctime);
  let recentStart = newest === null ? now - window : newest - (fills ? FILL_RECHECK_MS : PLAN_RECHECK_MS);
  if (!fills) {
    const open = await deps.db.query<{ t: string | null }>(
      `SELECT min(ctime)::text AS t FROM ledger_plan_orders WHERE key_name = $1 AND symbol = $2
         AND status = 'not_trigger'`,
      [task.key, task.symbol],
    );
    if (open.rows[0]?.t) recentStart = Math.min(recentStart, Number(open.rows[0].t));
  }
  recentStart = Math.max(recentStart, now - window);
  const recent = await walk(recentStart, now, { coveredTo: now - COVERAGE_SKEW_MS });

  let backfillBefore = state.backfill_before === null ? recentStart : Number(state.backfill_before);
  let emptyWindows = state.empty_windows;
  let done = state.backfill_done;
  if (fills) {
    // The first full window already asked for everything E4 still holds.
    done = true;
  } else if (!done) {
    const start = backfillBefore - window;
    const empties = emptyWindows;
    const found = await walk(start, backfillBefore, {
      coveredTo: backfillBefore,
      // Decided with the window's last page, so "complete back to the start" is written with it.
      endsHistory: (count) => (count === 0 ? empties + 1 : 0) >= EMPTY_WINDOWS_TO_STOP,
    });
    emptyWindows = found.count === 0 ? emptyWindows + 1 : 0;
    backfillBefore = start;
    done = emptyWindows >= EMPTY_WINDOWS_TO_STOP;
  }
  out.backfillDone = done;

  const newestSeen = Math.max(newest ?? 0, recent.newest ?? 0) || null;
  await deps.db.query(
    `INSERT INTO ledger_key_sync (job, key_name, symbol, backfill_done, backfill_before, empty_windows, newest_ctime,
       last_checked_at, last_success_at,
                                  records, calls, errors, last_error)
     VALUES ($1, $2, $3, $4, $5, $6, $7, now(), now(), $8, $9, 0, NULL)
     ON CONFLICT (job, key_name, symbol) DO UPDATE SET backfill_done = $4, backfill_before = $5, empty_windows = $6,
       newest_ctime = $7,
       last_checked_at = now(), last_success_at = now(), records = ledger_key_sync.records + $8,
         calls = ledger_key_sync.calls + $9, errors = 0,
       last_error = NULL`,
    [task.job, task.key, task.symbol, done, backfillBefore, emptyWindows, newestSeen, out.records, out.calls],
  );
  return out;
}

/** Records a failed run (for /sync and the next try); the job engine retries it with backoff. */
export async function recordTradeSyncFailure(db: Queryable, task: TradeTask, error: unknown): Promise<void> {
  const message = failureText(error);
  await db.query(
    `INSERT INTO ledger_key_sync (job, key_name, symbol, last_checked_at, errors, last_error) VALUES ($1, $2, $3, now(),
       1, $4)
     ON CONFLICT (job, key_name, symbol) DO UPDATE SET last_checked_at = now(), errors = ledger_key_sync.errors + 1,
       last_error = $4`,
    [task.job, task.key, task.symbol, message],
  );
}

async function loadState(db: Queryable, t: TradeTask): Promise<State> {
  const { rows } = await db.query<State>(
    `SELECT backfill_done, backfill_before::text AS backfill_before, empty_windows, newest_ctime::text AS newest_ctime
       FROM ledger_key_sync WHERE job = $1 AND key_name = $2 AND symbol = $3`,
    [t.job, t.key, t.symbol],
  );
  return rows[0] ?? { backfill_done: false, backfill_before: null, empty_windows: 0, newest_ctime: null };
}
