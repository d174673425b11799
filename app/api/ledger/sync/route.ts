import { ledgerResources } from "@/lib/api/ledger";
import { env } from "@/lib/env";
import { apiRoute } from "@/server/http/api-route";
import type { Db } from "@/server/db";
import { budgetUse, sharePerSecond } from "@/server/ledger/budget";
import { ledgerFreshness, syncJobs, syncStatus } from "@/server/ledger/deposits/queries";
import { checkIntervals, scheduleCounts } from "@/server/ledger/deposits/schedule";
import { backfillProgress, CHECKS_WHILE_BACKFILLING } from "@/server/ledger/deposits/backfill-order";
import { DEPOSITS_JOB, WINDOW_MS } from "@/server/ledger/deposits/sync";

// The four reads are independent: asked at once (the page polls every 5 s).
export const GET = apiRoute(ledgerResources.sync, async ({ db, input }) => {
  const [sync, freshness, jobs, rows, backfill] = await Promise.all([
    schedule(db),
    ledgerFreshness(db),
    syncJobs(db).then((all) =>
      Promise.all(all.map(async (j) => ({ ...j, budget: await budgetUse(j.job, env.ledger.share) }))),
    ),
    syncStatus(db, { subUid: input.subUid, limit: input.limit }),
    backfillEstimate(db),
  ]);
  return { sync, freshness, backfill, jobs, rows };
});

/**
 * When the last three months and every history will be complete: the calls still needed over the rate the
 * deposit sync has measurably spent in the last minute (its share when it has spent none yet), less what the
 * checks of the sub-accounts already checked take: at their schedule, but at most CHECKS_WHILE_BACKFILLING of
 * the runs while backfill steps wait (server/ledger/deposits/backfill-order.ts), which stretches the interval
 * between two checks of one sub-account until every history is complete.
 */
async function backfillEstimate(db: Db) {
  const now = Date.now();
  const [p, use] = await Promise.all([backfillProgress(db, now, WINDOW_MS), budgetUse(DEPOSITS_JOB, env.ledger.share)]);
  const measured = use && use.usedPerSecond > 0 ? use.usedPerSecond : sharePerSecond("deposits.list", env.ledger.share);
  const iv = Math.max(1, (await schedule(db)).otherEverySeconds);
  const backfilling = p.historyComplete < p.registry;
  const checksPerSecond = Math.min(p.recentComplete / iv, backfilling ? measured * CHECKS_WHILE_BACKFILLING : Infinity);
  const rate = Math.max(measured * 0.1, measured - checksPerSecond);
  const at = (calls: number) =>
    !env.ledger.sync || calls <= 0 ? null : new Date(now + (calls / rate) * 1000).toISOString();
  return {
    registry: p.registry,
    recentComplete: p.recentComplete,
    historyComplete: p.historyComplete,
    callsPerSecond: Math.round(measured * 100) / 100,
    recentCompleteAt: p.recentComplete === p.registry ? null : at(p.recentCallsLeft),
    historyCompleteAt: p.historyComplete === p.registry ? null : at(p.historyCallsLeft),
    checkEverySeconds:
      backfilling && env.ledger.sync && checksPerSecond > 0
        ? Math.max(iv, Math.round(p.recentComplete / checksPerSecond))
        : null,
    checkShare: CHECKS_WHILE_BACKFILLING,
  };
}

/** The sync's settings and the intervals they give the registry as it is now (what the sweep uses). */
async function schedule(db: Db) {
  const { share, sweepSeconds, activeSeconds, activeShare } = env.ledger;
  const counts = await scheduleCounts(db, Date.now());
  const iv = checkIntervals({
    perSecond: sharePerSecond("deposits.list", share),
    ...counts,
    activeSeconds,
    activeShare,
  });
  return {
    on: env.ledger.sync,
    share,
    sweepSeconds,
    activeSeconds,
    active: counts.active,
    activeEverySeconds: Math.round(iv.activeMs / 1000),
    otherEverySeconds: Math.round(iv.dormantMs / 1000),
  };
}
