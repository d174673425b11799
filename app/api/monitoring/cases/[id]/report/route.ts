import { monitoringEvidenceResources as m } from "@/lib/api/monitoring/evidence";
import { apiRoute } from "@/server/http/api-route";
import { caseReport } from "@/server/monitoring/report";

export const GET = apiRoute(m.report, ({ db, session, params, requestId, ip }) =>
  caseReport(db, session, params.id, { requestId, ip }),
);
