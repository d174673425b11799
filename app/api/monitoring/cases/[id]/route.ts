import { monitoringResources as m } from "@/lib/api/monitoring";
import { apiRoute } from "@/server/http/api-route";
import { getCase, updateCase } from "@/server/monitoring/case";

export const GET = apiRoute(m.case, ({ db, params }) => getCase(db, params.id));

export const POST = apiRoute(m.updateCase, ({ db, params, input }) => updateCase(db, params.id, input));
