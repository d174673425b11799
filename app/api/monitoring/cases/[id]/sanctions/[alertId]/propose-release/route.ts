import { monitoringSanctionsResources as s } from "@/lib/api/monitoring/sanctions";
import { apiRoute } from "@/server/http/api-route";
import { getCase } from "@/server/monitoring/case";
import { proposeRelease } from "@/server/monitoring/sanctions-release";

export const POST = apiRoute(s.proposeRelease, async ({ db, session, params, input }) => {
  await proposeRelease(db, session, params.id, params.alertId, input);
  return getCase(db, params.id);
});
