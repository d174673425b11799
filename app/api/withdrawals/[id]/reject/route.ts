import { rejectWithdrawalSchema } from "@/lib/api/withdrawals";
import { apiRoute } from "@/server/http/api-route";
import { rejectWithdrawal } from "@/server/workflows/withdrawals";

export const POST = apiRoute(
  { permission: "withdrawals.approve", input: rejectWithdrawalSchema, audit: { action: "withdrawals.reject", target: (_i, p) => `withdrawal:${p.id}` } },
  ({ db, input, session, params }) => rejectWithdrawal(db, session, params.id ?? "", input.reason),
);
