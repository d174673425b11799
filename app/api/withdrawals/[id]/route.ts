import { withdrawalResources } from "@/lib/api/withdrawals";
import { apiRoute } from "@/server/http/api-route";
import { getWithdrawal, withdrawalFor } from "@/server/workflows/withdrawal-ledger";

export const GET = apiRoute(withdrawalResources.get, async ({ db, params, session }) =>
  withdrawalFor(session.role, await getWithdrawal(db, params.id)),
);
