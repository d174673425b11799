import { leveragePlanResources as r } from "@/lib/api/leverage-plans";
import { apiRoute } from "@/server/http/api-route";
import { approvePlan } from "@/server/leverage/plans/plans";

export const POST = apiRoute(r.approve, ({ db, session, params }) => approvePlan(db, session, params.id));
