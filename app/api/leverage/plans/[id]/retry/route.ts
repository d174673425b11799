import { leveragePlanResources as r } from "@/lib/api/leverage-plans";
import { apiRoute } from "@/server/http/api-route";
import { kickRollout } from "@/server/leverage/plans/jobs";
import { retryFailed } from "@/server/leverage/plans/plans";

export const POST = apiRoute(r.retry, ({ db, params }) => retryFailed(db, params.id, kickRollout));
