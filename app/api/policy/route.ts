import { policyResources } from "@/lib/api/policy";
import { apiRoute } from "@/server/http/api-route";
import { draftPolicy, listPolicies } from "@/server/policy/versions";

export const GET = apiRoute(policyResources.list, ({ db }) => listPolicies(db));
export const POST = apiRoute(policyResources.draft, ({ db, session, input }) => draftPolicy(db, session, input));
