import { monitoringResources as m } from "@/lib/api/monitoring";
import { apiRoute } from "@/server/http/api-route";
import { listAlerts } from "@/server/monitoring/alert";

export const GET = apiRoute(m.alerts, ({ db, input }) => listAlerts(db, input));
