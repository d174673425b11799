import { leveragePlanResources as r } from "@/lib/api/leverage-plans";
import { apiRoute } from "@/server/http/api-route";
import { kickRollout } from "@/server/leverage/plans/jobs";
import { startPlan } from "@/server/leverage/plans/plans";

export const POST = apiRoute(r.start, ({ db, session, params }) => startPlan(db, session, params.id, kickRollout));
