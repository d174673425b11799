import { leveragePlanResources as r, PLAN_REPORT_COLUMNS } from "@/lib/api/leverage-plans";
import { apiRoute } from "@/server/http/api-route";
import { csvBody } from "@/server/http/csv";
import { planReportExport } from "@/server/leverage/plans/report";

export const GET = apiRoute(r.export, async ({ db, params, session, requestId, ip }) =>
  csvBody(
    `leverage-plan-${params.id}.csv`,
    PLAN_REPORT_COLUMNS,
    await planReportExport(db, session, params.id, { requestId, ip }),
  ),
);
