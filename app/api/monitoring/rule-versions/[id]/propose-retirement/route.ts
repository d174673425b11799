import { monitoringControlResources as m } from "@/lib/api/monitoring/controls";
import { apiRoute } from "@/server/http/api-route";
import { proposeRetirement } from "@/server/monitoring/rule";

export const POST = apiRoute(m.proposeRetirement, ({ db, session, params, input }) =>
  proposeRetirement(db, session, params.id, input),
);
