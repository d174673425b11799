import { monitoringBulkResources as b } from "@/lib/api/monitoring/bulk";
import { apiRoute } from "@/server/http/api-route";
import { bulkAssign } from "@/server/monitoring/bulk";

export const POST = apiRoute(b.assign, ({ db, session, input, requestId, ip }) =>
  bulkAssign(db, session, { requestId, ip }, input),
);
