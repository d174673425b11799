import { monitoringResources as m } from "@/lib/api/monitoring";
import { apiRoute } from "@/server/http/api-route";
import { activateRuleVersion } from "@/server/monitoring/rule";

export const POST = apiRoute(m.activate, ({ db, session, params, input }) =>
  activateRuleVersion(db, session, params.id, input),
);
