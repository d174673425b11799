import { monitoringResources as m } from "@/lib/api/monitoring";
import { apiRoute } from "@/server/http/api-route";
import { retireRuleVersion } from "@/server/monitoring/rule";

export const POST = apiRoute(m.retire, ({ db, session, params }) => retireRuleVersion(db, session, params.id));
