import { screeningResources as s } from "@/lib/api/screening";
import { apiRoute } from "@/server/http/api-route";
import { listRescreens } from "@/server/workflows/screening-versions";

export const GET = apiRoute(s.rescreens, ({ db }) => listRescreens(db));
