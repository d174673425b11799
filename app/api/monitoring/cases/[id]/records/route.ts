import { monitoringResources as m } from "@/lib/api/monitoring";
import { apiRoute } from "@/server/http/api-route";
import { attachRecord } from "@/server/monitoring/case";

export const POST = apiRoute(m.attach, ({ db, session, params, input }) => attachRecord(db, session, params.id, input));
