import { auditResources } from "@/lib/api/audit";
import { apiRoute } from "@/server/http/api-route";
import { auditPage } from "@/server/workflows/audit-queries";

export const GET = apiRoute(auditResources.list, ({ db, input }) => auditPage(db, input));
