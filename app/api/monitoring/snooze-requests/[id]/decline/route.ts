import { monitoringControlResources as c } from "@/lib/api/monitoring/controls";
import { apiRoute } from "@/server/http/api-route";
import { declineSnooze } from "@/server/monitoring/snooze";

export const POST = apiRoute(c.declineSnooze, ({ db, session, params }) => declineSnooze(db, session, params.id));
