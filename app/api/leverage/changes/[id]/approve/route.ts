import { leverageResources } from "@/lib/api/leverage";
import { apiRoute } from "@/server/http/api-route";
import { approveLeverageChange } from "@/server/leverage/changes";

export const POST = apiRoute(leverageResources.approve, async ({ db, session, params, requestId, ip, platform }) =>
  approveLeverageChange(db, await platform(), session, params.id, { requestId, ip }),
);
