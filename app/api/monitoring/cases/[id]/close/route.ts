import { monitoringResources as m } from "@/lib/api/monitoring";
import { apiRoute } from "@/server/http/api-route";
import { closeCase } from "@/server/monitoring/case";

export const POST = apiRoute(m.closeCase, ({ db, session, params, input }) => closeCase(db, session, params.id, input));
