import { leveragePlanResources as r } from "@/lib/api/leverage-plans";
import { apiRoute } from "@/server/http/api-route";
import { cancelPlan } from "@/server/leverage/plans/plans";

export const POST = apiRoute(r.cancel, ({ db, params }) => cancelPlan(db, params.id));
