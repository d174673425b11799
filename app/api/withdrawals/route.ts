import { withdrawalResources } from "@/lib/api/withdrawals";
import { apiRoute } from "@/server/http/api-route";
import { listWithdrawals, withdrawalFor } from "@/server/workflows/withdrawal-ledger";
import { requestWithdrawal } from "@/server/workflows/withdrawal-requests";

// Compliance's reasons reach only monitoring roles (withdrawalFor).
export const GET = apiRoute(withdrawalResources.list, async ({ db, input, session }) => {
  const page = await listWithdrawals(db, input);
  return { ...page, items: page.items.map((w) => withdrawalFor(session.role, w)) };
});

export const POST = apiRoute(withdrawalResources.request, async ({ db, input, session, platform }) =>
  requestWithdrawal(db, await platform(), session, input),
);
