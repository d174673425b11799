import { ledgerResources } from "@/lib/api/ledger";
import { env } from "@/lib/env";
import { apiRoute } from "@/server/http/api-route";
import type { Db } from "@/server/db";
import { budgetUse, sharePerSecond } from "@/server/ledger/budget";
import { ledgerFreshness, syncJobs, syncStatus } from "@/server/ledger/queries";
import { checkIntervals, scheduleCounts } from "@/server/ledger/schedule";

// The four reads are independent: asked at once (the page polls every 5 s).
export const GET = apiRoute(ledgerResources.sync, async ({ db, input }) => {
  const [sync, freshness, jobs, rows] = await Promise.all([
    schedule(db),
    ledgerFreshness(db),
    syncJobs(db).then((all) =>
      Promise.all(all.map(async (j) => ({ ...j, budget: await budgetUse(j.job, env.ledger.share) }))),
    ),
    syncStatus(db, { subUid: input.subUid, limit: input.limit }),
  ]);
  return { sync, freshness, jobs, rows };
});

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
