import { ALERT_CSV_COLUMNS, monitoringResources as m } from "@/lib/api/monitoring";
import { apiRoute } from "@/server/http/api-route";
import { csvBody } from "@/server/http/csv";
import { alertsForExport } from "@/server/monitoring/alert";

export const GET = apiRoute(m.export, async ({ db, input, session, requestId, ip }) =>
  csvBody("alerts.csv", ALERT_CSV_COLUMNS, await alertsForExport(db, input, session, { requestId, ip })),
);
