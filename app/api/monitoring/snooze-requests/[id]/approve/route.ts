import { monitoringControlResources as c } from "@/lib/api/monitoring/controls";
import { apiRoute } from "@/server/http/api-route";
import { approveSnooze } from "@/server/monitoring/snooze";

export const POST = apiRoute(c.approveSnooze, ({ db, session, params }) => approveSnooze(db, session, params.id));
