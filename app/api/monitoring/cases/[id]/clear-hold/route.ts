import { monitoringResources as m } from "@/lib/api/monitoring";
import { apiRoute } from "@/server/http/api-route";
import { clearHold } from "@/server/monitoring/case";

export const POST = apiRoute(m.clearHold, ({ db, session, params, input }) => clearHold(db, session, params.id, input));
