import { subaccountKeyResources as r } from "@/lib/api/subaccount-keys";
import { apiRoute } from "@/server/http/api-route";
import { addKey, listKeys } from "@/server/workflows/subaccount-keys";
import { runtimeKeyDeps } from "@/server/workflows/subaccount-keys-sim";

export const GET = apiRoute(r.list, ({ db, credentials }) => listKeys(db, runtimeKeyDeps(credentials)));

export const POST = apiRoute(r.add, ({ db, session, input, credentials }) =>
  addKey(db, session, input, runtimeKeyDeps(credentials)),
);
