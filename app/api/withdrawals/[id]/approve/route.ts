import { withdrawalResources } from "@/lib/api/withdrawals";
import { apiRoute } from "@/server/http/api-route";
import { approveWithdrawal } from "@/server/workflows/withdrawal-requests";

export const POST = apiRoute(
  withdrawalResources.approve,
  async ({ db, input, session, params, requestId, ip, platform }) =>
    approveWithdrawal(db, await platform(), session, params.id, input, { requestId, ip }),
);
