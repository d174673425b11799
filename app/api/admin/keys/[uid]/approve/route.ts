import { subaccountKeyResources as r } from "@/lib/api/subaccount-keys";
import { apiRoute } from "@/server/http/api-route";
import { approveKey } from "@/server/workflows/subaccount-keys";

export const POST = apiRoute(r.approve, ({ db, session, input, params, credentials }) =>
  approveKey(db, session, params.uid, input, { credentials }),
);
