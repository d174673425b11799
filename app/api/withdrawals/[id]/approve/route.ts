import { approveWithdrawalSchema } from "@/lib/api/withdrawals";
import { apiRoute } from "@/server/http/api-route";
import { getPlatform } from "@/server/platform/runtime";
import { approveWithdrawal } from "@/server/workflows/withdrawals";

export const POST = apiRoute(
  { permission: "withdrawals.approve", input: approveWithdrawalSchema, audit: { action: "withdrawals.approve", target: (_i, p) => `withdrawal:${p.id}` } },
  async ({ db, input, session, params, requestId, ip }) => approveWithdrawal(db, (await getPlatform()).client, session, params.id ?? "", input, { requestId, ip }),
);
