import { monitoringBulkResources as b } from "@/lib/api/monitoring/bulk";
import { apiRoute } from "@/server/http/api-route";
import { bulkClose } from "@/server/monitoring/bulk";

export const POST = apiRoute(b.close, ({ db, session, input, requestId, ip }) =>
  bulkClose(db, session, { requestId, ip }, input),
);
