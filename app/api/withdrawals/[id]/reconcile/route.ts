import { apiRoute } from "@/server/http/api-route";
import { getPlatform } from "@/server/platform/runtime";
import { reconcileWithdrawal } from "@/server/workflows/withdrawals";

export const POST = apiRoute(
  { permission: "withdrawals.approve", audit: { action: "withdrawals.reconcile", target: (_i, p) => `withdrawal:${p.id}` } },
  async ({ db, session, params, requestId, ip }) => reconcileWithdrawal(db, (await getPlatform()).client, session, params.id ?? "", { requestId, ip }),
);
