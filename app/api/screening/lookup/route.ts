import { screeningResources as s } from "@/lib/api/screening";
import { apiRoute } from "@/server/http/api-route";
import { lookupAddress } from "@/server/workflows/screening-lists";

export const GET = apiRoute(s.lookup, ({ db, input }) => lookupAddress(db, input));
