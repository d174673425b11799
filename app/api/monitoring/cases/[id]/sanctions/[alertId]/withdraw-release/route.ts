import { monitoringSanctionsResources as s } from "@/lib/api/monitoring/sanctions";
import { apiRoute } from "@/server/http/api-route";
import { getCase } from "@/server/monitoring/case";
import { withdrawRelease } from "@/server/monitoring/sanctions-release";

export const POST = apiRoute(s.withdrawRelease, async ({ db, session, params }) => {
  await withdrawRelease(db, session, params.id, params.alertId);
  return getCase(db, params.id);
});
