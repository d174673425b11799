import { ledgerHistoryResources } from "@/lib/api/ledger/history";
import { apiRoute } from "@/server/http/api-route";
import { rebateHistory } from "@/server/ledger/snapshots/queries";

export const GET = apiRoute(ledgerHistoryResources.rebates, async ({ db, input, params }) =>
  rebateHistory(db, params.subUid, input.days),
);
