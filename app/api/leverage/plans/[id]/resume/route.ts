import { leveragePlanResources as r } from "@/lib/api/leverage-plans";
import { apiRoute } from "@/server/http/api-route";
import { kickRollout } from "@/server/leverage/plans/jobs";
import { resumePlan } from "@/server/leverage/plans/plans";

export const POST = apiRoute(r.resume, ({ db, params }) => resumePlan(db, params.id, kickRollout));
