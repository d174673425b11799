import { ledgerTradeResources } from "@/lib/api/ledger/trades";
import { apiRoute } from "@/server/http/api-route";
import { ledgerKeyRefusal, searchPlanOrders } from "@/server/ledger/trades/queries";

export const GET = apiRoute(ledgerTradeResources.planOrders, async ({ db, input }) => searchPlanOrders(db, input), {
  authorize: (input, { session, credentials }) => ledgerKeyRefusal(credentials, input.key, session.role),
});
