import "server-only";
// How often the deposit sync checks each sub-account (issue 14): active ones (a deposit in the last week)
// more often than the others, within the sync's share of E1's rate. Used by the sweep (engine.ts) and said
// on /sync.
import type { Queryable } from "@/server/db";
import { DEPOSITS_JOB, type SyncOutcome } from "./deposits";

const DAY = 86_400_000;
/** A sub-account with a deposit in the last week is active. */
const ACTIVE_WITHIN_MS = 7 * DAY;

export type CheckIntervals = { activeMs: number; dormantMs: number };

/**
 * How often active and other sub-accounts are checked, from the sync's E1 calls per second B, the registry's
 * N sub-accounts and its Na active ones. Checking every one once per N ÷ B seconds (the physical bound)
 * already spends the whole share, so checking actives more often must take from the others: actives may take
 * at most `activeShare` of B, and one check each per `activeSeconds` at the most; the rest is the others'.
 *   A = min(Na ÷ activeSeconds, activeShare × B)
 *   A ≤ Na × B ÷ N (the actives' even part): every sub-account at the bound N ÷ B;
 *   else: actives every Na ÷ A, the others every (N − Na) ÷ (B − A), at most (N ÷ B) ÷ (1 − activeShare).
 * The intervals add up to B, so the queue does not fall behind (checks slipped when they added up to more).
 * Nothing is checked more often than every `activeSeconds`.
 */
export function checkIntervals(p: { perSecond: number; registry: number; active: number; activeSeconds: number; activeShare: number }): CheckIntervals {
  const n = Math.max(1, p.registry);
  const na = Math.min(Math.max(0, p.active), n);
  const b = p.perSecond;
  const floorMs = p.activeSeconds * 1000;
  const boundMs = (n / b) * 1000;
  const a = Math.min(na / p.activeSeconds, p.activeShare * b);
  if (na === 0 || a <= (na * b) / n) return { activeMs: Math.max(floorMs, boundMs), dormantMs: Math.max(floorMs, boundMs) };
  return { activeMs: Math.max(floorMs, Math.ceil((na / a) * 1000)), dormantMs: Math.max(floorMs, Math.ceil(((n - na) / (b - a)) * 1000)) };
}

/** The registry's size and how many of its sub-accounts are active now. */
export async function scheduleCounts(db: Queryable, now: number): Promise<{ registry: number; active: number }> {
  const { rows } = await db.query<{ registry: number; active: number }>(
    `SELECT (SELECT count(*)::int FROM subaccounts) AS registry,
            (SELECT count(*)::int FROM ledger_sync WHERE job = $1 AND newest_ctime >= $2) AS active`,
    [DEPOSITS_JOB, now - ACTIVE_WITHIN_MS],
  );
  return { registry: rows[0]?.registry ?? 0, active: rows[0]?.active ?? 0 };
}

/** When a sub-account is due again: soon while its backfill is under way; else at its kind's interval. */
export function nextCheckMs(out: Pick<SyncOutcome, "backfillDone" | "newestCtime">, t: number, intervals: CheckIntervals): number {
  if (!out.backfillDone) return t + 1_000;
  const active = out.newestCtime !== null && t - out.newestCtime < ACTIVE_WITHIN_MS;
  return t + Math.ceil(active ? intervals.activeMs : intervals.dormantMs);
}
