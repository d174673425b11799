import { leveragePlanResources as r } from "@/lib/api/leverage-plans";
import { apiRoute } from "@/server/http/api-route";
import { planTargets } from "@/server/leverage/plans/report";

export const GET = apiRoute(r.targets, ({ db, params, input }) => planTargets(db, params.id, input));
