import { leveragePolicyResources } from "@/lib/api/leverage-policy";
import { apiRoute } from "@/server/http/api-route";
import { leveragePolicies } from "@/server/leverage/policy/versions";

export const POST = apiRoute(leveragePolicyResources.publish, ({ db, session, params }) =>
  leveragePolicies.publish(db, session, leveragePolicies.versionOf(params.version)),
);
