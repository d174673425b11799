import { leveragePolicyResources } from "@/lib/api/leverage-policy";
import { apiRoute } from "@/server/http/api-route";
import { leveragePolicies } from "@/server/leverage/policy/versions";

export const POST = apiRoute(leveragePolicyResources.discard, ({ db, session, params }) =>
  leveragePolicies.discard(db, session, leveragePolicies.versionOf(params.version)),
);
