import { ledgerResources } from "@/lib/api/ledger";
import { env } from "@/lib/env";
import { apiRoute } from "@/server/http/api-route";
import { ledgerFreshness, syncStatus } from "@/server/ledger/queries";

export const GET = apiRoute(ledgerResources.sync, async ({ db }) => ({
  sync: { on: env.ledger.sync, share: env.ledger.share, sweepSeconds: env.ledger.sweepSeconds, activeSeconds: env.ledger.activeSeconds },
  freshness: await ledgerFreshness(db),
  rows: await syncStatus(db),
}));
