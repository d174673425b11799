import { leveragePlanResources as r } from "@/lib/api/leverage-plans";
import { apiRoute } from "@/server/http/api-route";
import { getPlan } from "@/server/leverage/plans/plans";

export const GET = apiRoute(r.get, ({ db, params }) => getPlan(db, params.id));
