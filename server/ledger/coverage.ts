import "server-only";
// The ledger's coverage, read: for a range and a set of sub-accounts (the registry, or those given), how
// many the ledger holds completely (ledger_sync.covered_from/covered_to, kept by the sync in the transaction
// of the records they cover: ./deposits/sync.ts), up to when, and which it does not. Every deposits answer states
// it (deposits/queries.ts, the export) and monitoring reads it before judging a range. The same for a key's
// fills and plan orders (ledger_key_sync, kept by ./trades/sync.ts): every fills and plan-orders answer states it.
import type {
  CoverageDataset,
  KeyCoverage,
  KeyCoverageDataset,
  LedgerCoverage,
  SubaccountCoverage,
} from "@/lib/api/ledger/coverage";
import type { Queryable } from "@/server/db";
import { DEPOSITS_JOB } from "./deposits/sync";
import { FILLS_JOB, PLAN_ORDERS_JOB } from "./trades/store";

const DAY = 86_400_000;
/** The sync job that keeps each dataset's per-sub-account coverage. */
const JOB_OF: Record<CoverageDataset, string> = { deposits: DEPOSITS_JOB };
/** The sync job that keeps each dataset's per-key (and symbol) coverage. */
const KEY_JOB_OF: Record<KeyCoverageDataset, string> = { fills: FILLS_JOB, "plan-orders": PLAN_ORDERS_JOB };
/** Not-covered sub-accounts an answer names by default (the coverage route lists the rest). */
export const MISSING_LISTED = 20;

export type CoverageQuery = {
  dataset: CoverageDataset;
  /** The range (ms or Date; absent from: the whole history; absent to: up to now). */
  from?: number | Date | null;
  to?: number | Date | null;
  /** Only these sub-accounts (absent: every registry sub-account). */
  uids?: readonly string[];
  /** How many of the ones not covered to name (default MISSING_LISTED); `after` pages by UID. */
  limit?: number;
  after?: string;
  /**
   * A sub-account's span reaches a range that runs to now when its last complete check is at most this old
   * (default a day): it is complete up to that check, which the answer's currentTo says.
   */
  maxLagMs?: number;
  now?: number;
};

const ms = (v: number | Date | null | undefined) => (v == null ? null : typeof v === "number" ? v : v.getTime());
const iso = (v: string | null) => (v === null ? null : new Date(Number(v)).toISOString());

/**
 * The WHERE that makes a sub-account (ledger_sync alias s) complete over [$from, $to]; its parameters follow `base`.
 */
function completeOver(q: Pick<CoverageQuery, "from" | "to" | "maxLagMs" | "now">, base: number) {
  const now = q.now ?? Date.now();
  const from = ms(q.from);
  const to = ms(q.to);
  const upTo = Math.min(to ?? now, now - (q.maxLagMs ?? DAY));
  return {
    sql: `(s.covered_to IS NOT NULL AND (s.covered_from = 0 OR s.covered_from <= $${base + 1}::bigint)
      AND s.covered_to >= $${base + 2}::bigint)`,
    // An open from asks for the whole history: only covered_from = 0 (the start found) reaches it.
    params: [from ?? -1, upTo] as unknown[],
  };
}

/** Complete and total sub-accounts over the range, up to when, and the first of those not covered. */
export async function coverageOf(db: Queryable, q: CoverageQuery): Promise<LedgerCoverage> {
  const job = JOB_OF[q.dataset];
  const uids = q.uids ? [...q.uids] : null;
  const complete = completeOver(q, 2);
  const asked = `FROM subaccounts r LEFT JOIN ledger_sync s ON s.job = $1 AND s.sub_uid = r.sub_uid
                WHERE ($2::text[] IS NULL OR r.sub_uid = ANY($2::text[]))`;
  const [counts, missing] = await Promise.all([
    db.query<{ total: number; complete: number; current_to: string | null }>(
      `SELECT count(*)::int AS total, count(*) FILTER (WHERE ${complete.sql})::int AS complete,
              min(s.covered_to) FILTER (WHERE ${complete.sql})::text AS current_to
         ${asked}`,
      [job, uids, ...complete.params],
    ),
    missingOf(db, q),
  ]);
  const c = counts.rows[0]!;
  return {
    dataset: q.dataset,
    from: iso(ms(q.from) === null ? null : String(ms(q.from))),
    to: iso(ms(q.to) === null ? null : String(ms(q.to))),
    total: c.total,
    complete: c.complete,
    currentTo: iso(c.current_to),
    missing,
  };
}

/** The sub-accounts the range is not complete for, by UID (after `after`), with how far back each one is. */
export async function missingOf(db: Queryable, q: CoverageQuery): Promise<SubaccountCoverage[]> {
  const complete = completeOver(q, 2);
  const n = complete.params.length + 3;
  const { rows } = await db.query<Row>(
    `SELECT r.sub_uid, r.subaccount_name, s.covered_from::text AS covered_from, s.covered_to::text AS covered_to
       FROM subaccounts r LEFT JOIN ledger_sync s ON s.job = $1 AND s.sub_uid = r.sub_uid
      WHERE ($2::text[] IS NULL OR r.sub_uid = ANY($2::text[])) AND NOT COALESCE(${complete.sql}, false)
        AND ($${n}::text IS NULL OR r.sub_uid > $${n}::text)
      ORDER BY r.sub_uid LIMIT $${n + 1}`,
    [JOB_OF[q.dataset], q.uids ? [...q.uids] : null, ...complete.params, q.after ?? null, q.limit ?? MISSING_LISTED],
  );
  return rows.map(view);
}

/** How far back one sub-account's history of `dataset` is complete (the sub-account's page says it). */
export async function subaccountCoverage(
  db: Queryable,
  dataset: CoverageDataset,
  subUid: string,
): Promise<SubaccountCoverage | null> {
  const { rows } = await db.query<Row>(
    `SELECT r.sub_uid, r.subaccount_name, s.covered_from::text AS covered_from, s.covered_to::text AS covered_to
       FROM subaccounts r LEFT JOIN ledger_sync s ON s.job = $1 AND s.sub_uid = r.sub_uid WHERE r.sub_uid = $2`,
    [JOB_OF[dataset], subUid],
  );
  return rows[0] ? view(rows[0]) : null;
}

type Row = { sub_uid: string; subaccount_name: string | null; covered_from: string | null; covered_to: string | null };
const view = (r: Row): SubaccountCoverage => ({
  subUid: r.sub_uid,
  subaccountName: r.subaccount_name,
  completeFrom: r.covered_to === null ? null : iso(r.covered_from),
  historyComplete: r.covered_to !== null && r.covered_from === "0",
  completeTo: iso(r.covered_to),
});

export type KeyCoverageQuery = {
  dataset: KeyCoverageDataset;
  key: string;
  /** Plan orders of this symbol only (absent: every symbol the ledger syncs for the key). */
  symbol?: string | null;
  from?: number | Date | null;
  to?: number | Date | null;
  /** As for a sub-account (CoverageQuery.maxLagMs): a range to now reaches a check at most this old. */
  maxLagMs?: number;
  now?: number;
};

/**
 * What the ledger holds completely of a key's fills (one unit, the key) or plan orders (one unit per synced
 * symbol, or the one asked for) over the range (ledger_key_sync.covered_from/covered_to, kept by
 * trades/sync.ts in the transaction of the records they cover).
 */
export async function keyCoverageOf(db: Queryable, q: KeyCoverageQuery): Promise<KeyCoverage> {
  const job = KEY_JOB_OF[q.dataset];
  const symbol = q.dataset === "fills" ? "" : (q.symbol ?? null);
  const complete = completeOver(q, 3);
  const { rows } = await db.query<{
    symbol: string;
    covered_from: string | null;
    covered_to: string | null;
    complete: boolean;
  }>(
    `SELECT u.symbol, s.covered_from::text AS covered_from, s.covered_to::text AS covered_to,
            COALESCE(${complete.sql}, false) AS complete
       FROM (SELECT $3::text AS symbol WHERE $3::text IS NOT NULL
             UNION SELECT symbol FROM ledger_key_sync WHERE job = $1 AND key_name = $2 AND $3::text IS NULL) u
       LEFT JOIN ledger_key_sync s ON s.job = $1 AND s.key_name = $2 AND s.symbol = u.symbol
      ORDER BY u.symbol`,
    [job, q.key, symbol, ...complete.params],
  );
  const held = rows.every((r) => r.covered_to !== null) && rows.length > 0;
  const big = (f: (a: number, b: number) => number, vs: (string | null)[]) =>
    held ? iso(String(vs.map(Number).reduce((a, b) => f(a, b)))) : null;
  return {
    dataset: q.dataset,
    key: q.key,
    symbol: q.dataset === "fills" ? null : (q.symbol ?? null),
    from: iso(ms(q.from) === null ? null : String(ms(q.from))),
    to: iso(ms(q.to) === null ? null : String(ms(q.to))),
    total: rows.length,
    complete: rows.filter((r) => r.complete).length,
    completeFrom: big(
      Math.max,
      rows.map((r) => r.covered_from),
    ),
    historyComplete: held && rows.every((r) => r.covered_from === "0"),
    completeTo: big(
      Math.min,
      rows.map((r) => r.covered_to),
    ),
    missingSymbols: q.dataset === "fills" ? [] : rows.filter((r) => !r.complete).map((r) => r.symbol),
  };
}

/**
 * Every key (fills) or key and symbol (plan orders) the sync keeps, and those complete over the range, with the
 * oldest "complete up to" among them: the per-dataset summary of /api/ledger/coverage (datasets-coverage.ts).
 */
export async function keySpansComplete(
  db: Queryable,
  job: string,
  q: Pick<CoverageQuery, "from" | "to" | "maxLagMs" | "now">,
): Promise<{ total: number; complete: number; currentTo: string | null }> {
  const complete = completeOver(q, 1);
  const { rows } = await db.query<{ total: number; complete: number; current_to: string | null }>(
    `SELECT count(*)::int AS total, count(*) FILTER (WHERE ${complete.sql})::int AS complete,
            min(s.covered_to) FILTER (WHERE ${complete.sql})::text AS current_to
       FROM ledger_key_sync s WHERE s.job = $1`,
    [job, ...complete.params],
  );
  const r = rows[0]!;
  return { total: r.total, complete: r.complete, currentTo: iso(r.current_to) };
}
