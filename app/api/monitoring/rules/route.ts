import { monitoringResources as m } from "@/lib/api/monitoring";
import { apiRoute } from "@/server/http/api-route";
import { draftRule, listRuleVersions } from "@/server/monitoring/rule";

export const GET = apiRoute(m.rules, ({ db }) => listRuleVersions(db));

export const POST = apiRoute(m.draft, ({ db, session, input }) => draftRule(db, session, input));
