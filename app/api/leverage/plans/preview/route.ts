import { leveragePlanResources as r } from "@/lib/api/leverage-plans";
import { apiRoute } from "@/server/http/api-route";
import { previewPlan } from "@/server/leverage/plans/plans";

export const POST = apiRoute(r.preview, ({ db, credentials, session, input }) =>
  previewPlan(db, credentials, session.role, input),
);
