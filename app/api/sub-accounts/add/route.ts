import { subaccountResources } from "@/lib/api/registry";
import { apiRoute } from "@/server/http/api-route";
import { addExistingSubaccount } from "@/server/workflows/subaccounts";

export const POST = apiRoute(subaccountResources.add, async ({ db, input, session, signal, platform }) =>
  addExistingSubaccount(db, await platform(), input, session.email, signal),
);
