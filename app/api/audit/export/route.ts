import { AUDIT_CSV_COLUMNS, auditResources } from "@/lib/api/audit";
import { exportFileName } from "@/lib/csv";
import { apiRoute } from "@/server/http/api-route";
import { csvBody } from "@/server/http/csv";
import { auditForExport } from "@/server/workflows/audit-queries";

export const GET = apiRoute(auditResources.export, async ({ db, input, session, requestId, ip }) =>
  csvBody(
    exportFileName("audit", input.actor ?? input.subUid ?? input.action, input.from?.getTime(), input.to?.getTime()),
    AUDIT_CSV_COLUMNS,
    await auditForExport(db, input, session, { requestId, ip }),
  ),
);
