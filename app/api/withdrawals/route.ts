import { withdrawalFiltersSchema, withdrawalFormSchema } from "@/lib/api/withdrawals";
import { apiRoute } from "@/server/http/api-route";
import { getPlatform } from "@/server/platform/runtime";
import { listWithdrawals, requestWithdrawal } from "@/server/workflows/withdrawals";
import { listRegistry } from "@/server/workflows/subaccounts";

export const GET = apiRoute({ permission: "withdrawals.read", input: withdrawalFiltersSchema }, ({ db, input }) => listWithdrawals(db, input));

export const POST = apiRoute(
  { permission: "withdrawals.write", input: withdrawalFormSchema, audit: { action: "withdrawals.request", target: (i) => `subaccount:${i.subUid}` } },
  async ({ db, input, session }) => {
    // In simulator mode the registry is filled on first read; a request may come before any page listed it.
    await listRegistry(db);
    return requestWithdrawal(db, (await getPlatform()).client, session, input);
  },
);
