import { auditFiltersSchema } from "@/lib/api/audit";
import { apiRoute } from "@/server/http/api-route";
import { auditPage } from "@/server/workflows/audit-view";

export const GET = apiRoute({ permission: "audit.read", input: auditFiltersSchema }, ({ db, input }) => auditPage(db, input));
