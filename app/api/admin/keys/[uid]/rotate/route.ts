import { subaccountKeyResources as r } from "@/lib/api/subaccount-keys";
import { apiRoute } from "@/server/http/api-route";
import { rotateKey } from "@/server/workflows/subaccount-keys";
import { runtimeKeyDeps } from "@/server/workflows/subaccount-keys-sim";

export const POST = apiRoute(r.rotate, ({ db, session, input, params, credentials }) =>
  rotateKey(db, session, params.uid, input, runtimeKeyDeps(credentials)),
);
