import { screeningResources as s } from "@/lib/api/screening";
import { apiRoute } from "@/server/http/api-route";
import { confirmListVersion } from "@/server/workflows/screening-versions";

export const POST = apiRoute(s.confirm, ({ db, session, params }) => confirmListVersion(db, session, params.id));
