import { createSubaccountSchema } from "@/lib/api/sub-accounts";
import { apiRoute } from "@/server/http/api-route";
import { getPlatform } from "@/server/platform/runtime";
import { createSubaccount, listRegistry } from "@/server/workflows/subaccounts";

export const GET = apiRoute({ permission: "subaccounts.read" }, async ({ db }) => ({ items: await listRegistry(db) }));

export const POST = apiRoute(
  { permission: "subaccounts.write", input: createSubaccountSchema, audit: { action: "subaccounts.create", target: (i) => `subaccount:${i.subaccountName}` } },
  async ({ db, input, session, req }) => createSubaccount(db, (await getPlatform()).client, input, session.email, req.signal),
);
