import { ledgerResources } from "@/lib/api/ledger";
import { env } from "@/lib/env";
import { apiRoute } from "@/server/http/api-route";
import { budgetUse } from "@/server/ledger/budget";
import { ledgerFreshness, syncJobs, syncStatus } from "@/server/ledger/queries";

export const GET = apiRoute(ledgerResources.sync, async ({ db, input }) => ({
  sync: { on: env.ledger.sync, share: env.ledger.share, sweepSeconds: env.ledger.sweepSeconds, activeSeconds: env.ledger.activeSeconds },
  freshness: await ledgerFreshness(db),
  jobs: await Promise.all((await syncJobs(db)).map(async (j) => ({ ...j, budget: await budgetUse(j.job, env.ledger.share) }))),
  rows: await syncStatus(db, { subUid: input.subUid, limit: input.limit }),
}));
