import { monitoringControlResources as m } from "@/lib/api/monitoring/controls";
import { apiRoute } from "@/server/http/api-route";
import { withdrawRetirement } from "@/server/monitoring/rule";

export const POST = apiRoute(m.withdrawRetirement, ({ db, session, params }) =>
  withdrawRetirement(db, session, params.id),
);
