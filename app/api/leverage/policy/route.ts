import { leveragePolicyResources } from "@/lib/api/leverage-policy";
import { apiRoute } from "@/server/http/api-route";
import { leveragePolicies } from "@/server/leverage/policy/versions";

export const GET = apiRoute(leveragePolicyResources.list, ({ db }) => leveragePolicies.list(db));
export const POST = apiRoute(leveragePolicyResources.draft, ({ db, session, input }) =>
  leveragePolicies.draft(db, session, input),
);
