import "server-only";
// How often the deposit sync checks each sub-account: active ones (a deposit in the last week)
// more often than the others, within the sync's share of E1's rate. Used by the sweep (../engine.ts) and said
// on /sync.
import type { Queryable } from "@/server/db";
import { DEPOSITS_JOB, type SyncOutcome } from "./sync";

const DAY = 86_400_000;
/** A sub-account with a deposit in the last week is active. */
const ACTIVE_WITHIN_MS = 7 * DAY;

export type CheckIntervals = { activeMs: number; dormantMs: number };

/**
 * How often active and other sub-accounts are checked, from the sync's E1 calls per second B, the registry's
 * N sub-accounts and its Na active ones, and what a check of each kind costs in calls (ca, cd; 1 when
 * unknown). Checking every one once per (Na·ca + Nd·cd) ÷ B seconds (the physical bound; N ÷ B at one call
 * a check) already spends the whole share, so checking actives more often must take from the others: actives
 * may take at most `activeShare` of B, and one check each per `activeSeconds` at the most; the rest is the others'.
 *   A = min(Na·ca ÷ activeSeconds, activeShare × B)
 *   A ≤ the actives' even part of B: every sub-account at the bound;
 *   else: actives every Na·ca ÷ A, the others every Nd·cd ÷ (B − A), at most the bound ÷ (1 − activeShare).
 * The intervals add up to B, so the queue does not fall behind (checks slipped when they asked for more).
 * Nothing is checked more often than every `activeSeconds`.
 */
export function checkIntervals(p: {
  perSecond: number;
  registry: number;
  active: number;
  activeSeconds: number;
  activeShare: number;
  cost?: { active: number; dormant: number };
}): CheckIntervals {
  const n = Math.max(1, p.registry);
  const na = Math.min(Math.max(0, p.active), n);
  const nd = n - na;
  const ca = Math.max(1, p.cost?.active ?? 1);
  const cd = Math.max(1, p.cost?.dormant ?? 1);
  const b = p.perSecond;
  const floorMs = p.activeSeconds * 1000;
  const boundMs = ((na * ca + nd * cd) / b) * 1000;
  const a = Math.min((na * ca) / p.activeSeconds, p.activeShare * b);
  if (na === 0 || a <= ((na * ca) / (na * ca + nd * cd)) * b)
    return { activeMs: Math.max(floorMs, boundMs), dormantMs: Math.max(floorMs, boundMs) };
  return {
    activeMs: Math.max(floorMs, Math.ceil(((na * ca) / a) * 1000)),
    dormantMs: nd === 0 ? Math.max(floorMs, boundMs) : Math.max(floorMs, Math.ceil(((nd * cd) / (b - a)) * 1000)),
  };
}

/** The registry's size, how many of its sub-accounts are active now, and what a check of each kind costs. */
export async function scheduleCounts(
  db: Queryable,
  now: number,
): Promise<{ registry: number; active: number; cost: { active: number; dormant: number } }> {
  const { rows } = await db.query<{
    registry: number;
    active: number;
    active_cost: number | null;
    dormant_cost: number | null;
  }>(
    `SELECT (SELECT count(*)::int FROM subaccounts) AS registry,
       count(*) FILTER (WHERE newest_ctime >= $2)::int AS active,
            avg(calls_per_check) FILTER (WHERE newest_ctime >= $2)::float8 AS active_cost,
            avg(calls_per_check) FILTER (WHERE newest_ctime IS NULL OR newest_ctime < $2)::float8 AS dormant_cost
       FROM ledger_sync WHERE job = $1 AND backfill_done`,
    [DEPOSITS_JOB, now - ACTIVE_WITHIN_MS],
  );
  const r = rows[0];
  return {
    registry: r?.registry ?? 0,
    active: r?.active ?? 0,
    cost: { active: r?.active_cost ?? 1, dormant: r?.dormant_cost ?? 1 },
  };
}

/**
 * SET clause: a check's calls (the parameter `calls`, e.g. "$4"), folded into its sub-account's moving average (a fifth
 * each).
 */
export const callsPerCheckSet = (calls: string) =>
  `calls_per_check = calls_per_check * 0.8 + GREATEST(1, ${calls}::real) * 0.2`;

/**
 * When a sub-account's next check is due: at its kind's interval, backfilling or not. The backfill's own runs
 * are queued by the backfill's order (backfill-order.ts) when the sub-account is at the frontier, not by this.
 */
export function nextCheckMs(
  out: Pick<SyncOutcome, "backfillDone" | "newestCtime">,
  t: number,
  intervals: CheckIntervals,
): number {
  const active = out.newestCtime !== null && t - out.newestCtime < ACTIVE_WITHIN_MS;
  return t + Math.ceil(active ? intervals.activeMs : intervals.dormantMs);
}
