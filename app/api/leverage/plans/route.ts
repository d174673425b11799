import { leveragePlanResources as r } from "@/lib/api/leverage-plans";
import { apiRoute } from "@/server/http/api-route";
import { createPlan, listPlans } from "@/server/leverage/plans/plans";

export const GET = apiRoute(r.list, async ({ db }) => ({ items: await listPlans(db) }));
export const POST = apiRoute(r.create, ({ db, credentials, session, input }) =>
  createPlan(db, credentials, session, input),
);
