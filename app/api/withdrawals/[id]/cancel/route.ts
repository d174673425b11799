import { withdrawalResources } from "@/lib/api/withdrawals";
import { apiRoute } from "@/server/http/api-route";
import { cancelWithdrawal } from "@/server/workflows/withdrawal-requests";

export const POST = apiRoute(withdrawalResources.cancel, ({ db, session, params }) =>
  cancelWithdrawal(db, session, params.id),
);
