import { monitoringControlResources as c } from "@/lib/api/monitoring/controls";
import { apiRoute } from "@/server/http/api-route";
import { listSnoozeRequests } from "@/server/monitoring/snooze";

export const GET = apiRoute(c.snoozeRequests, ({ db }) => listSnoozeRequests(db));
