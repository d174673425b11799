import { screeningResources as s } from "@/lib/api/screening";
import { apiRoute } from "@/server/http/api-route";
import { importUploadedList, screeningVersions } from "@/server/workflows/screening-lists";

export const GET = apiRoute(s.versions, ({ db }) => screeningVersions(db));

export const POST = apiRoute(s.import, ({ db, session, intentId, req, input }) =>
  importUploadedList(db, session, intentId, req, input),
);
