import { withdrawalResources } from "@/lib/api/withdrawals";
import { apiRoute } from "@/server/http/api-route";
import { reconcileWithdrawal } from "@/server/workflows/withdrawal-requests";

export const POST = apiRoute(withdrawalResources.reconcile, async ({ db, session, params, requestId, ip, platform }) =>
  reconcileWithdrawal(db, await platform(), session, params.id, { requestId, ip }),
);
