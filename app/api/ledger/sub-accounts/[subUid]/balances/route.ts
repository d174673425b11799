import { ledgerHistoryResources } from "@/lib/api/ledger/history";
import { apiRoute } from "@/server/http/api-route";
import { balanceHistory } from "@/server/ledger/snapshots/queries";

export const GET = apiRoute(ledgerHistoryResources.balances, async ({ db, input, params }) =>
  balanceHistory(db, params.subUid, input.days),
);
