import { withdrawalResources } from "@/lib/api/withdrawals";
import { apiRoute } from "@/server/http/api-route";
import { travelRuleExport } from "@/server/workflows/travel-rule";

export const GET = apiRoute(withdrawalResources.travelRuleExport, ({ db, session, params, requestId, ip }) =>
  travelRuleExport(db, session, params.id, { requestId, ip }),
);
