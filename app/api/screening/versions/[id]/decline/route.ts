import { screeningResources as s } from "@/lib/api/screening";
import { apiRoute } from "@/server/http/api-route";
import { declineListVersion } from "@/server/workflows/screening-versions";

export const POST = apiRoute(s.decline, ({ db, session, params, input }) =>
  declineListVersion(db, session, params.id, input),
);
