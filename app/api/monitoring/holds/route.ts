import { monitoringResources as m } from "@/lib/api/monitoring";
import { apiRoute } from "@/server/http/api-route";
import { listHolds } from "@/server/monitoring/hold";

export const GET = apiRoute(m.holds, ({ db, session }) => listHolds(db, session));
