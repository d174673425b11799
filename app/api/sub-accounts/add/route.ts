import { addSubaccountSchema } from "@/lib/api/sub-accounts";
import { apiRoute } from "@/server/http/api-route";
import { getPlatform } from "@/server/platform/runtime";
import { addExistingSubaccount } from "@/server/workflows/subaccounts";

export const POST = apiRoute(
  { permission: "subaccounts.write", input: addSubaccountSchema, audit: { action: "subaccounts.add", target: (i) => `subaccount:${i.subUid}` } },
  async ({ db, input, session, req }) => addExistingSubaccount(db, (await getPlatform()).client, input, session.email, req.signal),
);
