import { withdrawalResources } from "@/lib/api/withdrawals";
import { apiRoute } from "@/server/http/api-route";
import { rejectWithdrawal } from "@/server/workflows/withdrawal-requests";

export const POST = apiRoute(withdrawalResources.reject, ({ db, input, session, params }) =>
  rejectWithdrawal(db, session, params.id, input.reason),
);
