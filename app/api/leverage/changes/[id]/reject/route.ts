import { leverageResources } from "@/lib/api/leverage";
import { apiRoute } from "@/server/http/api-route";
import { rejectLeverageChange } from "@/server/leverage/changes";

export const POST = apiRoute(leverageResources.reject, ({ db, session, params, input }) =>
  rejectLeverageChange(db, session, params.id, input.reason),
);
