import { policyResources } from "@/lib/api/policy";
import { apiRoute } from "@/server/http/api-route";
import { discardPolicy, policyVersionOf } from "@/server/policy/versions";

export const POST = apiRoute(policyResources.discard, ({ db, session, params }) =>
  discardPolicy(db, session, policyVersionOf(params.version)),
);
