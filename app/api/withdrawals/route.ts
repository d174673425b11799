import { withdrawalResources } from "@/lib/api/withdrawals";
import { apiRoute } from "@/server/http/api-route";
import { listWithdrawals } from "@/server/workflows/withdrawal-ledger";
import { requestWithdrawal } from "@/server/workflows/withdrawal-requests";

export const GET = apiRoute(withdrawalResources.list, ({ db, input }) => listWithdrawals(db, input));

export const POST = apiRoute(withdrawalResources.request, async ({ db, input, session, platform }) =>
  requestWithdrawal(db, await platform(), session, input),
);
