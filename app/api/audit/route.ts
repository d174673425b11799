import { auditResources } from "@/lib/api/audit";
import { apiRoute } from "@/server/http/api-route";
import { auditPage } from "@/server/workflows/audit-queries";

export const GET = apiRoute(auditResources.list, ({ db, input, session }) => auditPage(db, input, session.role));
