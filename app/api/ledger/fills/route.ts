import { ledgerTradeResources } from "@/lib/api/ledger/trades";
import { apiRoute } from "@/server/http/api-route";
import { ledgerKeyRefusal, searchFills } from "@/server/ledger/trades/queries";

export const GET = apiRoute(ledgerTradeResources.fills, async ({ db, input }) => searchFills(db, input), {
  authorize: (input, { session, credentials }) => ledgerKeyRefusal(credentials, input.key, session.role),
});
