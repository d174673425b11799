import { withdrawalResources } from "@/lib/api/withdrawals";
import { apiRoute } from "@/server/http/api-route";
import { fundsOf } from "@/server/workflows/withdrawal-funds";

export const GET = apiRoute(withdrawalResources.funds, async ({ db, input, platform, signal }) =>
  fundsOf(db, await platform(), input.subUid, input.coin, signal),
);
