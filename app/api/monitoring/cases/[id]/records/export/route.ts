import { CASE_RECORD_CSV_COLUMNS, monitoringEvidenceResources as m } from "@/lib/api/monitoring/evidence";
import { apiRoute } from "@/server/http/api-route";
import { csvBody } from "@/server/http/csv";
import { caseRecordsForExport } from "@/server/monitoring/report";

export const GET = apiRoute(m.recordsExport, async ({ db, session, params, requestId, ip }) =>
  csvBody(
    `case_${params.id.slice(0, 8)}_records.csv`,
    CASE_RECORD_CSV_COLUMNS,
    await caseRecordsForExport(db, session, params.id, { requestId, ip }),
  ),
);
