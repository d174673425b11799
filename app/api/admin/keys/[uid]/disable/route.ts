import { subaccountKeyResources as r } from "@/lib/api/subaccount-keys";
import { apiRoute } from "@/server/http/api-route";
import { disableKey } from "@/server/workflows/subaccount-keys";

export const POST = apiRoute(r.disable, ({ db, session, params, credentials }) =>
  disableKey(db, session, params.uid, { credentials }),
);
