import { monitoringControlResources as m } from "@/lib/api/monitoring/controls";
import { apiRoute } from "@/server/http/api-route";
import { snoozeRule } from "@/server/monitoring/snooze";

export const POST = apiRoute(m.snooze, ({ db, session, input }) => snoozeRule(db, session, input));
