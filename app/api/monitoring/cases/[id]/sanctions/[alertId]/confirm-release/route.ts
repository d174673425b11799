import { monitoringSanctionsResources as s } from "@/lib/api/monitoring/sanctions";
import { apiRoute } from "@/server/http/api-route";
import { getCase } from "@/server/monitoring/case";
import { confirmRelease } from "@/server/monitoring/sanctions-release";

export const POST = apiRoute(s.confirmRelease, async ({ db, session, params, input }) => {
  await confirmRelease(db, session, params.id, params.alertId, input);
  return getCase(db, params.id);
});
