import { leveragePlanResources as r } from "@/lib/api/leverage-plans";
import { apiRoute } from "@/server/http/api-route";
import { pausePlan } from "@/server/leverage/plans/plans";

export const POST = apiRoute(r.pause, ({ db, params }) => pausePlan(db, params.id));
