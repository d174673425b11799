import { subaccountResources } from "@/lib/api/registry";
import { apiRoute } from "@/server/http/api-route";
import { createSubaccount, listRegistry } from "@/server/workflows/subaccounts";

export const GET = apiRoute(subaccountResources.list, async ({ db }) => ({ items: await listRegistry(db) }));

export const POST = apiRoute(subaccountResources.create, async ({ db, input, session, signal, platform }) =>
  createSubaccount(db, await platform(), input, session.email, signal),
);
