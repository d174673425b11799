import { policyResources } from "@/lib/api/policy";
import { apiRoute } from "@/server/http/api-route";
import { policyVersionOf, publishPolicy } from "@/server/policy/versions";

export const POST = apiRoute(policyResources.publish, ({ db, session, params }) =>
  publishPolicy(db, session, policyVersionOf(params.version)),
);
